import CAffineKernels

/// Thousands to millions of layers, stored as one contiguous column per property
/// (struct of arrays), with Core Animation's geometry rules.
///
/// A layer is named by a `LayerHandle`, which `addLayer(superlayer:)` returns and which
/// stays valid until `destroyLayer(_:)` destroys the layer, whatever happens to other
/// layers. Each layer lives in a *slot*, `handle.index`, which is also its entry in every
/// per-layer result; destroyed layers' slots are reused by later `addLayer` calls, so
/// the columns stay dense. Sublayer order is kept separately (linked lists), so
/// reparenting is O(1).
///
/// `LayerStore` is noncopyable (`~Copyable`): it has one owner, and a call through any
/// place that holds it (a global `var`, a class property, a `let`, an `inout` parameter)
/// borrows it in place, so an accessor costs a few nanoseconds wherever the store lives.
/// A copy is explicit: `copy()`, O(n). A render thread that needs what to draw does not
/// need a copy: `VisibleLayers` is one, of what is visible. To keep several stores in a
/// collection, or share one between objects, put it in a class. It is `Sendable`, so
/// different stores may be processed (or moved to) different threads.
///
/// Errors: structural changes (adding under a parent, reparenting, detaching,
/// destroying) `throw` `LayerStoreError` and leave the store unchanged; property
/// accessors stop the program, with a message naming the handle that survives release
/// builds, when handed a stale handle (`contains(_:)` checks one without stopping).
public struct LayerStore: ~Copyable, Sendable {
    // MARK: Geometry columns (section 2 of GEOMETRY.md), one entry per layer.
    public internal(set) var boundsX: [Double] = []
    public internal(set) var boundsY: [Double] = []
    public internal(set) var boundsWidth: [Double] = []
    public internal(set) var boundsHeight: [Double] = []
    public internal(set) var positionX: [Double] = []
    public internal(set) var positionY: [Double] = []
    public internal(set) var anchorX: [Double] = []
    public internal(set) var anchorY: [Double] = []
    public internal(set) var zPositions: [Double] = []
    public internal(set) var anchorPointZs: [Double] = []
    var transforms = TransformColumns(count: 0, materialized: true)
    var sublayerTransforms = TransformColumns(count: 0, materialized: false)
    var flags: [LayerFlags] = []
    /// `AutoresizingMask` raw values (the six flags fit a byte).
    var autoresizingMasks: [UInt8] = []
    /// The columns of the table-driven properties (opacity, userInteractionEnabled):
    /// `LayerAttributes.swift`.
    var attributes = LayerAttributes()
    /// How many layers carry the `.detached` flag (free slots included): at zero, world
    /// rects skip the check.
    var detachedLayerCount = 0
    /// Per slot: its generation, even while a layer lives in it, odd while it is free
    /// (`destroyLayer` and `addLayer` each add one). A handle is live while its
    /// (even) generation equals its slot's: one load checks it.
    var generations: [UInt32] = []
    /// Free slots (destroyed layers), a stack: `addLayer` takes the last one, which is the
    /// top of the most recently destroyed subtree, then the rest of it in pre-order. A free slot
    /// is a detached root with Core Animation's defaults and an odd generation, so every
    /// pass covers it and no query reports it.
    var freeSlots: [Int32] = []
    /// How many layers have a non-empty autoresizing mask: at zero, the bounds setters
    /// skip autoresizing without looking at any sublayer.
    var autoresizingLayerCount = 0

    // MARK: Hierarchy: parent links and ordered sublayer lists (-1 = none).
    var parents: [Int32] = []
    var firstSublayers: [Int32] = []
    var lastSublayers: [Int32] = []
    var nextSiblings: [Int32] = []
    var previousSiblings: [Int32] = []
    var firstRoot: Int32 = -1
    var lastRoot: Int32 = -1
    /// Names the store's current structure (its layers and their hierarchy): a new,
    /// process-wide unique value after every structural change (0 for a new store,
    /// which has no layers). Snapshots record it, so that using one with a store whose
    /// structure is no longer the one it was computed for is detected.
    var structureVersion: UInt64 = 0
    /// How many adjacent sublayer pairs (same superlayer, roots excluded) are out of
    /// drawing order (the later one has the smaller zPosition key). Zero, the usual case,
    /// means every sublayer list is already in drawing order, so drawing order and the
    /// layer rule's hit testing walk the lists as they are. Kept in O(1) by the link
    /// primitives and `setZPosition`.
    var zOrderInversions = 0
    /// Cached answer to "does every layer come after its superlayer?"; nil = unknown.
    var parentsPrecedeChildrenCache: Bool? = true

    /// Points to pixels (GEOMETRY.md section 1): what contentOffset rounds to. A positive
    /// finite number; `setDisplayScale(_:)` checks.
    public internal(set) var displayScale: Double = 1

    /// Scroll-view state of the layers that have a `contentSize` (sparse: few layers do).
    var scrollViews: [Int32: ScrollViewState] = [:]

    /// Which layers changed since the world transforms were last brought up to date.
    var changes = ChangeTracker()
    /// World transforms from the last `updateWorld()`, if any.
    var worldCache: WorldTransforms?
    /// Per layer, a conservative box around its subtree, and spatial indexes of wide
    /// layers: what the output-sensitive queries skip subtrees by (built on first use).
    var subtreeBounds = SubtreeBounds()
    /// The sublayer lists in drawing order, re-sorted per list as lists change.
    var drawOrderCache = DrawOrderCache()
    /// The culled hit test's stack, kept between queries.
    var walkScratch = WalkScratch()
    /// Cached local transforms, modes and level order behind `worldCache` (valid with it:
    /// `updateWorld()` keeps both current for the layers it does not mark dirty).
    var worldPlan: WorldPlan?
    /// The arrays an incremental `updateWorld()` fills and empties, kept between updates
    /// so that a frame loop's updates allocate nothing once they have grown.
    var incrementalScratch = IncrementalScratch()
    /// The slots `destroyLayer` gathers, kept between calls so that destroys allocate
    /// nothing once it has grown (not copied by `copy()`).
    var structureScratch: [Int32] = []
    /// How the last `updateWorld()` that did any work brought the cache up to date: a
    /// test hook, so tests can tell the incremental paths apart (their results agree).
    var lastWorldUpdatePath: WorldUpdatePath = .none

    /// The largest number of layers one store holds; indices are stored as `Int32`.
    public static let maximumLayerCount = Int(Int32.max) - 1
    /// The limit `addLayer` enforces: `maximumLayerCount`, lowered only by tests so that
    /// the `.tooManyLayers` path can be exercised without two billion layers.
    var layerLimit = LayerStore.maximumLayerCount

    /// An empty store.
    public init() {}

    /// An empty store with room for `capacity` layers before any column reallocates.
    public init(minimumCapacity capacity: Int) {
        reserveCapacity(capacity)
    }

    /// An independent copy of the store: every column, the hierarchy, the scroll views and
    /// the caches (so the copy answers its first query as cheaply as the original would);
    /// not the working storage of the queries, which the copy grows again on first use.
    ///
    /// `LayerStore` is noncopyable, so this is the only way to copy one, and its cost is
    /// explicit. The call itself is O(columns): the copy shares each column's buffer with
    /// the original until either store writes to it, and that first write copies the
    /// column, O(n). So the price comes with the next edits and queries of either store:
    /// at a million layers with every cache built, `copy()` and one setter take about
    /// 1 ms, and the first frame query after them about 160 ms (it writes every cache
    /// column), against 0.01 ms for the same edit and query on a store that shares
    /// nothing (`swift run -c release accessor-bench`). Memory doubles once both are
    /// written. A render thread that needs what to draw this frame does not need a copy
    /// of the store: `VisibleLayers` from `visibleLayers(in:into:)` is already a copy of
    /// what is visible, O(visible).
    ///
    /// Handles stay valid in the copy (same slots, same generations), and snapshots of
    /// the original's current structure are accepted by the copy until either changes
    /// structure.
    public func copy() -> LayerStore {
        var copy = LayerStore()
        copy.copyColumns(from: self)
        copy.copyHierarchy(from: self)
        copy.changes = changes
        copy.worldCache = worldCache
        copy.worldPlan = worldPlan
        copy.subtreeBounds = subtreeBounds
        copy.drawOrderCache = drawOrderCache
        copy.lastWorldUpdatePath = lastWorldUpdatePath
        copy.layerLimit = layerLimit
        return copy
    }

    private mutating func copyColumns(from other: borrowing LayerStore) {
        boundsX = other.boundsX
        boundsY = other.boundsY
        boundsWidth = other.boundsWidth
        boundsHeight = other.boundsHeight
        positionX = other.positionX
        positionY = other.positionY
        anchorX = other.anchorX
        anchorY = other.anchorY
        zPositions = other.zPositions
        anchorPointZs = other.anchorPointZs
        transforms = other.transforms
        sublayerTransforms = other.sublayerTransforms
        flags = other.flags
        attributes = other.attributes
        autoresizingMasks = other.autoresizingMasks
        autoresizingLayerCount = other.autoresizingLayerCount
        displayScale = other.displayScale
        scrollViews = other.scrollViews
    }

    private mutating func copyHierarchy(from other: borrowing LayerStore) {
        detachedLayerCount = other.detachedLayerCount
        generations = other.generations
        freeSlots = other.freeSlots
        parents = other.parents
        firstSublayers = other.firstSublayers
        lastSublayers = other.lastSublayers
        nextSiblings = other.nextSiblings
        previousSiblings = other.previousSiblings
        firstRoot = other.firstRoot
        lastRoot = other.lastRoot
        structureVersion = other.structureVersion
        zOrderInversions = other.zOrderInversions
        parentsPrecedeChildrenCache = other.parentsPrecedeChildrenCache
    }

    /// The number of slots: the length of every per-layer result (`FrameColumns`,
    /// `WorldTransforms`, world rects, clip rects, visibility), indexed by
    /// `LayerHandle.index`. Live layers plus free slots (`layerCount` counts only the
    /// live ones). O(1).
    public var count: Int { parents.count }

    /// The number of live layers: added and not destroyed, attached or detached. O(1).
    public var layerCount: Int { parents.count - freeSlots.count }

    /// Reserves room for `capacity` layers in every column. O(n).
    public mutating func reserveCapacity(_ capacity: Int) {
        boundsX.reserveCapacity(capacity)
        boundsY.reserveCapacity(capacity)
        boundsWidth.reserveCapacity(capacity)
        boundsHeight.reserveCapacity(capacity)
        positionX.reserveCapacity(capacity)
        positionY.reserveCapacity(capacity)
        anchorX.reserveCapacity(capacity)
        anchorY.reserveCapacity(capacity)
        zPositions.reserveCapacity(capacity)
        anchorPointZs.reserveCapacity(capacity)
        transforms.reserveCapacity(capacity)
        sublayerTransforms.reserveCapacity(capacity)
        flags.reserveCapacity(capacity)
        autoresizingMasks.reserveCapacity(capacity)
        attributes.reserveCapacity(capacity)
        parents.reserveCapacity(capacity)
        firstSublayers.reserveCapacity(capacity)
        lastSublayers.reserveCapacity(capacity)
        nextSiblings.reserveCapacity(capacity)
        previousSiblings.reserveCapacity(capacity)
        changes.reserveCapacity(capacity)
        generations.reserveCapacity(capacity)
        subtreeBounds.reserveCapacity(capacity)
    }

    /// The check every index-taking accessor makes; its message survives release builds.
    @inline(__always)
    func checkIndex(_ layer: Int, file: StaticString = #file, line: UInt = #line) {
        // A local copy: the message's autoclosure would otherwise capture (and, in
        // unoptimized builds, copy) the whole store on every property access.
        let count = self.count
        require(layer >= 0 && layer < count, "layer \(layer) is out of range (\(count) layers)", file: file, line: line)
    }

    /// Records a structural change: a new structure version, so every snapshot of the
    /// old structure is recognized as stale.
    mutating func structureDidChange() {
        structureVersion = BGNextStructureVersion()
    }
}

/// Boolean layer properties, one byte per layer.
struct LayerFlags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let geometryFlipped = LayerFlags(rawValue: 1 << 0)
    static let masksToBounds = LayerFlags(rawValue: 1 << 1)
    static let hidden = LayerFlags(rawValue: 1 << 2)
    static let transformLayer = LayerFlags(rawValue: 1 << 3)
    /// `autoresizesSubviews == false` (stored inverted so that the default is 0).
    static let doesNotAutoresizeSubviews = LayerFlags(rawValue: 1 << 4)
    /// Taken out of the tree by `removeFromSuperlayer(_:)`: structurally a root (so every
    /// pass still covers it), left out of `roots`, drawing, hit testing, world rects and
    /// visibility with its subtree.
    static let detached = LayerFlags(rawValue: 1 << 5)
    /// Derived, not set directly: `opacity < 0.01` or `userInteractionEnabled == false`,
    /// so the view rule of hit testing skips the layer with its subtree (kept by
    /// `attributesDidChange`).
    static let skippedByViewRule = LayerFlags(rawValue: 1 << 6)

    // Combinations the per-layer passes test, as constants: an option-set literal such
    // as `[.hidden, .detached]` builds an array (a heap allocation) per use in
    // unoptimized builds.
    /// `[.hidden, .detached]`: left out of drawing and visibility with the subtree.
    static let hiddenOrDetached = LayerFlags(rawValue: hidden.rawValue | detached.rawValue)
    /// `[.geometryFlipped, .transformLayer]`: flags that change the sublayers' plan entries.
    static let adjustingSublayers = LayerFlags(rawValue: geometryFlipped.rawValue | transformLayer.rawValue)
    /// `[.hidden, .skippedByViewRule]`: what the view rule's hit test skips a subtree for.
    static let hiddenOrSkippedByViewRule = LayerFlags(rawValue: hidden.rawValue | skippedByViewRule.rawValue)
}

/// `contentSize` and `contentInset` of a scroll view (GEOMETRY.md section 8).
public struct ScrollViewState: Hashable, Sendable {
    /// The size of the scrollable content, in the layer's bounds space.
    public var contentSize: Size
    /// Extra scrollable room around the content (`UIScrollView.contentInset`).
    public var contentInset: EdgeInsets
    public init(contentSize: Size, contentInset: EdgeInsets = .zero) {
        self.contentSize = contentSize
        self.contentInset = contentInset
    }
}

/// A structural change that cannot be made, with the layer it concerns. The store is
/// left unchanged when one is thrown.
public enum LayerStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A handle that names no live layer of the store: the layer was destroyed (its
    /// slot was freed, and maybe reused), or the handle was never this store's.
    case staleLayer(LayerHandle)
    /// The same, for the superlayer argument.
    case staleSuperlayer(LayerHandle)
    /// Making `layer` a sublayer of `superlayer` would close a cycle: `superlayer` is
    /// `layer` itself or inside its subtree.
    case cycle(layer: LayerHandle, superlayer: LayerHandle)
    /// A sublayer position past the end of the superlayer's sublayer list.
    case sublayerIndexOutOfRange(index: Int, sublayerCount: Int)
    /// `scroll(_:to:)` on a layer that has no `contentSize`.
    case notAScrollView(layer: LayerHandle)
    /// More layers than `LayerStore.maximumLayerCount`.
    case tooManyLayers(limit: Int)
    /// A display scale that is not a positive finite number.
    case invalidDisplayScale(Double)

    public var description: String {
        switch self {
        case .staleLayer(let layer):
            return "\(layer) is stale: no live layer of this store has that handle (destroyed, or never this store's)"
        case .staleSuperlayer(let superlayer):
            return
                "superlayer \(superlayer) is stale: no live layer of this store has that handle (destroyed, or never this store's)"
        case .cycle(let layer, let superlayer):
            return superlayer == layer
                ? "\(layer) cannot be its own superlayer"
                : "making \(superlayer) the superlayer of \(layer) would make a cycle (it is inside \(layer)'s subtree)"
        case .sublayerIndexOutOfRange(let index, let sublayerCount):
            return "sublayer index \(index) is out of range (\(sublayerCount) sublayers)"
        case .notAScrollView(let layer): return "\(layer) is not a scroll view (it has no contentSize)"
        case .tooManyLayers(let limit): return "a store holds at most \(limit) layers"
        case .invalidDisplayScale(let scale):
            return "the display scale must be a positive finite number, got \(scale)"
        }
    }
}

/// Misuse of the API (an index out of range, a stale snapshot): stops the program with
/// `message`, which, unlike a `precondition`'s, is kept in release builds. Checked in
/// every build. The message is built only on failure.
@inline(__always)
func require(
    _ condition: Bool, _ message: @autoclosure () -> String,
    file: StaticString = #file, line: UInt = #line
) {
    if _slowPath(!condition) { misuse(message(), file: file, line: line) }
}

@inline(never)
func misuse(_ message: String, file: StaticString, line: UInt) -> Never {
    fatalError(message, file: file, line: line)
}
