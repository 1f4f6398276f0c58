// What one frame query cost: the counts an engine reads after `visibleLayers(in:into:)`
// to see where its frame went (issue 22 item 4).

/// What the last `LayerStore.visibleLayers(in:into:)` did, in counts of work: the caches
/// it brought up to date (the edits' price) and the walk (the viewport's price). Read it
/// from `VisibleLayers.cost` after the query; every count is 0 before the first one.
///
/// The refresh's counts include the work the walk did on entering a masking list whose
/// changed sublayers the refresh left for it (LayerStore+DeferredBounds.swift).
///
/// Counting costs an integer add per event; the phase times are read only when
/// `VisibleLayers.measuresPhaseTimes` is set (two clock reads a phase).
public struct FrameQueryCost: Hashable, Sendable {
    // The refresh: the edits since the last query.
    /// Layers whose subtree box the refresh recomputed: the edited ones and their
    /// ancestors up to the first whose box did not change (every layer when it built the
    /// boxes, on the first query or after many edits), plus the edited sublayers of
    /// masking lists that the refresh left for the walk and the walk redid when it
    /// entered their list (those of lists it did not enter wait, and are not counted).
    public internal(set) var refreshedLayers = 0
    /// Wide layers (64 sublayers or more) whose R-tree the refresh built or rebuilt from
    /// their sublayer lists, O(w log w) each.
    public internal(set) var rebuiltIndexes = 0
    /// How many sublayers the rebuilt R-trees hold, in all.
    public internal(set) var rebuiltIndexEntries = 0
    /// R-tree leaves the refresh refitted (a sublayer's box changed), O(log w) each.
    public internal(set) var refitIndexLeaves = 0
    /// R-tree leaves the refresh inserted (a sublayer added to a wide layer took a free
    /// leaf), O(log w) each.
    public internal(set) var insertedIndexLeaves = 0
    /// Sublayer lists the drawing-order cache re-sorted (O(w log w) each): lists whose
    /// order an edit changed where a move could not keep it (built: every unsorted list).
    public internal(set) var sortedLists = 0

    // The walk: what the viewport shows.
    /// Layers the walk computed a world transform for: the visible ones and those it
    /// entered to find them.
    public internal(set) var visitedLayers = 0
    /// Sublayers whose subtree box the walk tested against the viewport (those of the
    /// entered layers that a wide layer's R-tree did not rule out first).
    public internal(set) var testedSublayers = 0

    /// Seconds in the refresh (the caches brought up to date), when
    /// `VisibleLayers.measuresPhaseTimes` was set for the query (else zero), by a
    /// monotonic clock (`CLOCK_MONOTONIC`).
    public internal(set) var refreshSeconds: Double = 0
    /// Seconds in the walk, measured like `refreshSeconds`.
    public internal(set) var walkSeconds: Double = 0

    /// A report with every count zero.
    public init() {}

    /// Copies the refresh's counts from the caches it just brought up to date.
    mutating func noteRefresh(_ caches: borrowing LayerCaches, sortedBefore: Int) {
        noteBoundsWork(caches)
        sortedLists = caches.drawOrderCache.sortedListTotal - sortedBefore
    }

    /// Copies the subtree bounds' counts since the refresh began: the refresh's, and,
    /// after the walk, the parked sublayers the walk redid on its way down too.
    mutating func noteBoundsWork(_ caches: borrowing LayerCaches) {
        refreshedLayers = caches.subtreeBounds.lastRefreshVisits + caches.subtreeBounds.lastDeferredVisits
        rebuiltIndexes = caches.subtreeBounds.lastRefreshIndexRebuilds
        rebuiltIndexEntries = caches.subtreeBounds.lastRefreshIndexedSublayers
        refitIndexLeaves = caches.subtreeBounds.lastRefreshIndexRefits
        insertedIndexLeaves = caches.subtreeBounds.lastRefreshIndexInserts
    }
}
