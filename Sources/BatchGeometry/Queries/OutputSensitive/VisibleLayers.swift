import CAffineKernels

// The frame query: the layers a viewport shows, in drawing order, with their world
// transforms, world rects and clip rects, visiting only what the subtree bounds cannot
// rule out.

/// What `LayerStore.visibleLayers(in:into:)` writes: the visible layers in drawing order
/// (GEOMETRY.md section 6) and, at the same position, each one's world transform, world
/// rect, clip rect and world opacity. Keep one and pass it every frame: its arrays keep their capacity,
/// so a warmed-up frame loop allocates nothing.
public struct VisibleLayers: Sendable {
    /// The visible layers, back to front.
    public private(set) var layers: [LayerHandle] = []
    /// `ToWorld` of each visible layer (the same bits as `worldTransforms()`'s).
    public private(set) var worldTransforms: [Transform3D] = []
    /// The world rect of each (as `worldRect(of:in:)`).
    public private(set) var worldRects: [RectEdges] = []
    /// The clip rect of each (as `clipRects(worldRects:)`): nil when no ancestor masks.
    public private(set) var clipRects: [RectEdges?] = []
    /// The world opacity of each: the product of the opacities from its root down
    /// (GEOMETRY.md section 6; the same bits as `worldOpacities()`'s). Opacity does not
    /// decide visibility: a layer of opacity 0 is listed when it is visible.
    public private(set) var worldOpacities: [Double] = []
    /// What the last query cost: caches refreshed, R-tree work, layers visited and
    /// sublayers tested (`FrameQueryCost`). O(1) to read.
    public internal(set) var cost = FrameQueryCost()
    /// Set to have the next queries also time their refresh and walk
    /// (`FrameQueryCost.refreshSeconds`, `walkSeconds`): four clock reads a query.
    /// Off by default.
    public var measuresPhaseTimes = false
    /// How many layers the last query computed a world transform for: the visible ones
    /// plus those it entered to find them (`cost.visitedLayers`).
    public var visitedLayerCount: Int { cost.visitedLayers }
    /// How many sublayers' subtree bounds the last query tested against the viewport
    /// (`cost.testedSublayers`).
    public var testedSublayerCount: Int { cost.testedSublayers }

    // Scratch, kept for the next query.
    var frames: [VisitFrame] = []
    var candidates: [UInt64] = []

    /// An empty result, to pass to `visibleLayers(in:into:)`.
    public init() {}

    /// The number of visible layers.
    public var count: Int { layers.count }

    mutating func removeAll() {
        layers.removeAll(keepingCapacity: true)
        worldTransforms.removeAll(keepingCapacity: true)
        worldRects.removeAll(keepingCapacity: true)
        clipRects.removeAll(keepingCapacity: true)
        worldOpacities.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        cost = FrameQueryCost()
    }

    mutating func append(
        _ layer: LayerHandle, _ world: Transform3D, _ rect: RectEdges, _ clip: RectEdges?, _ opacity: Double
    ) {
        layers.append(layer)
        worldTransforms.append(world)
        worldRects.append(rect)
        clipRects.append(clip)
        worldOpacities.append(opacity)
    }
}

/// A layer whose sublayers a walk is going through.
struct VisitFrame {
    var layer: Int32
    var step: WorldStep
    /// The clip rect its sublayers get.
    var clip: RectEdges?
    /// Its world opacity, which its sublayers multiply theirs into (frame query).
    var opacity = 1.0
    /// Where a sublayer must reach to matter: the viewport within `clip` (frame query).
    var cull: RectEdges
    /// The next sublayer to look at (-1: none left), or, when `fromCandidates`, the next
    /// position in the walk's candidate list, up to `end`.
    var next: Int32
    var start: Int32 = 0
    var end: Int32 = 0
    var fromCandidates = false
}

extension LayerStore {
    /// The layers `viewport` (world space) shows, in drawing order, each with its world
    /// transform, world rect, clip rect and world opacity, written into `result` (replacing what it
    /// held). Exactly the layers whose entry in `visibility(worldRects:clipRects:viewport:)`
    /// is true, in `drawOrder()`'s order, with the same values as the full passes.
    ///
    /// Only the layers the subtree bounds cannot rule out are visited (their world
    /// transforms read from the world cache when it is current, that is when
    /// `updateWorld()` ran after the last change; else computed on the way down, with the
    /// same bits), and a wide layer's sublayers are found
    /// through its spatial index. Mutating: it first brings the cached subtree bounds and
    /// drawing order up to date with the edits made since the last query.
    ///
    /// Complexity: O(visible + visited) plus O(changed × depth) for the edits since the
    /// last query, and O(log w) for each sublayer added to a layer with w ≥ 64 sublayers
    /// (its R-tree, rebuilt in O(w log w) after w/2 edits: amortized O(log w) an edit);
    /// the first call builds the caches in O(count). Allocates nothing once `result` and
    /// the caches have grown to the scene, structure edits included.
    public mutating func visibleLayers(in viewport: Rect, into result: inout VisibleLayers) {
        frameQuery(in: viewport, into: &result, readingWorldCache: worldCacheIsCurrent)
    }

    /// `visibleLayers(in:into:)`, its world transforms read from the world cache only
    /// when `readingWorldCache` (which needs `worldCacheIsCurrent`), else computed on the
    /// way down as after edits (the same bits): `warmUp(in:into:options:)` walks the
    /// columns a frame after edits reads rather than the world cache.
    mutating func frameQuery(in viewport: Rect, into result: inout VisibleLayers, readingWorldCache: Bool) {
        let start = result.measuresPhaseTimes ? BGMonotonicNanoseconds() : nil
        let sortedBefore = caches.drawOrderCache.sortedListTotal
        refreshDrawOrder(deferringIndexed: true)
        refreshSubtreeBounds()
        result.removeAll()
        // The caller's candidate stack, to the walk scratch's room (once per widest list).
        let room = caches.subtreeBounds.walkCandidateRoom
        if result.candidates.capacity < room { result.candidates.reserveCapacity(room) }
        result.cost.noteRefresh(caches, sortedBefore: sortedBefore)
        let walkStart = start.map { _ in BGMonotonicNanoseconds() }
        defer {
            if let start, let walkStart {
                result.cost.refreshSeconds = Double(walkStart &- start) * 1e-9
                result.cost.walkSeconds = Double(BGMonotonicNanoseconds() &- walkStart) * 1e-9
            }
        }
        let view = viewport.edges
        guard view.hasPositiveArea else { return }
        // The walk holds the subtree bounds, moved out and back (not copied), to redo parked
        // boxes on its way down, and is non-mutating: it reads the store in place. (A
        // mutating walk passed each non-mutating call it made out of line a copy of the
        // whole store, ~1.4 KB: once per visited layer.)
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)
        if readingWorldCache && worldCacheIsCurrent {
            collectVisible(in: view, CachedWorldSteps(), &bounds, into: &result)
        } else {
            collectVisible(in: view, ComputedWorldSteps(), &bounds, into: &result)
        }
        swap(&bounds, &caches.subtreeBounds)
        result.cost.noteBoundsWork(caches)
    }

    /// `visibleLayers(in:into:)` into a new result.
    public mutating func visibleLayers(in viewport: Rect) -> VisibleLayers {
        var result = VisibleLayers()
        visibleLayers(in: viewport, into: &result)
        return result
    }

    /// The pre-order walks in drawing order below each root that reaches into `view`, with
    /// an explicit stack (any depth works), on the subtree bounds `bounds` (moved out of
    /// the store).
    private func collectVisible(
        in view: RectEdges, _ steps: some WorldStepSource, _ bounds: inout SubtreeBounds,
        into result: inout VisibleLayers
    ) {
        let links = walkOrderLinks()
        var root = hierarchy.firstRoot
        while root >= 0 {
            let top = Int(root)
            root = hierarchy.nextSiblings[top]
            // A root's extent is in world space already.
            guard !columns.flags[top].contains(.detached), bounds.extent[top].overlapsOpenly(view) else { continue }
            enterVisible(top, under: nil, view: view, steps, links, &bounds, into: &result)
            while !result.frames.isEmpty {
                let depth = result.frames.count - 1
                if let sublayer = nextCandidate(
                    &result.frames[depth], result.candidates, tested: &result.cost.testedSublayers, links, bounds.extent
                ) {
                    enterVisible(sublayer, under: depth, view: view, steps, links, &bounds, into: &result)
                } else {
                    let frame = result.frames.removeLast()
                    if frame.fromCandidates { result.candidates.removeLast(Int(frame.end - frame.start)) }
                }
            }
        }
    }
}
