// Clip rects and visibility for every layer (GEOMETRY.md section 6), level by level:
// a layer's result depends only on its superlayer's, so all layers of one depth are
// independent and a wide level is split over threads. Each entry is computed with the
// same expressions as `clipRects(worldRects:)` and `visibility(worldRects:clipRects:viewport:)`.

extension LayerStore {
    /// The clip rect of every layer (see `computeClipRects(worldRects:into:options:)`):
    /// the convenient form, returning a new array.
    /// - Precondition: `worldRects.count == count`.
    /// Complexity: O(count).
    public func clipRects(worldRects: [RectEdges], options: KernelOptions = .default) -> [RectEdges?] {
        var clips: [RectEdges?] = []
        computeClipRects(worldRects: worldRects, into: &clips, options: options)
        return clips
    }

    /// Computes each layer's clip rect into `clipRects`, in world units: the
    /// intersection of the world rects of every ancestor with `masksToBounds` (the
    /// layer's own flag does not clip itself); nil when no ancestor masks; a masking
    /// ancestor entirely behind the eye clips everything (the null rect). `clipRects` is
    /// resized to `count` (entry `handle.index` is the layer's) and every entry
    /// overwritten, its storage reused. Level by level, a wide level (at least 32,768
    /// layers) split over `options.threads`; every backend runs the same Swift code, and
    /// the result does not depend on the options.
    ///
    /// Allocates nothing when `clipRects` has the capacity for `count` entries and does
    /// not share its storage, and `options.threads` is 1 or the store has fewer than
    /// 32,768 layers (then it runs on one thread, superlayers first, in index order or
    /// along the sublayer lists). Over more threads on a larger store, the level order is
    /// built unless `updateWorld()` has cached it, and `DispatchQueue.concurrentPerform`
    /// allocates a few blocks per split level.
    /// - Precondition: `worldRects.count == count` (world rects of the store's layers,
    ///   from `computeWorldRects(in:into:options:)`).
    /// Complexity: O(count).
    public func computeClipRects(
        worldRects: [RectEdges], into clipRects: inout [RectEdges?], options: KernelOptions = .default
    ) {
        let count = self.count
        require(
            worldRects.count == count,
            "\(worldRects.count) world rects for \(count) layers: compute them again for the store's current layers")
        clipRects.resize(to: count, filler: nil)
        withOptionalRawColumn(&clipRects) { clips in
            guard let clips else { return }
            forEachLayerByLevel(options: options) { layer in
                let superlayer = hierarchy.parents[layer]
                guard superlayer >= 0 else {
                    clips[layer] = nil
                    return
                }
                let s = Int(superlayer)
                var clip = clips[s]
                if columns.flags[s].contains(.masksToBounds) {
                    clip = clip.map { $0.intersection(worldRects[s]) } ?? worldRects[s]
                }
                clips[layer] = clip
            }
        }
    }

    /// Whether each layer is visible (see
    /// `computeVisibility(worldRects:clipRects:viewport:into:options:)`): the convenient
    /// form, returning a new array.
    /// - Precondition: both arrays have `count` entries.
    /// Complexity: O(count).
    public func visibility(
        worldRects: [RectEdges], clipRects: [RectEdges?], viewport: Rect?,
        options: KernelOptions = .default
    ) -> [Bool] {
        var visible: [Bool] = []
        computeVisibility(
            worldRects: worldRects, clipRects: clipRects, viewport: viewport, into: &visible, options: options)
        return visible
    }

    /// Computes whether each layer is visible into `visible`: true when the layer and
    /// all its ancestors are neither hidden nor detached, its world rect is not null,
    /// and world rect ∩ clip rect ∩ `viewport` (world space, points; nil: no viewport)
    /// has positive area. `visible` is resized to `count` (entry `handle.index` is the
    /// layer's) and every entry overwritten, its storage reused; while the pass runs it
    /// also records there which layers are hidden with an ancestor (a third byte value,
    /// turned to false at the end), so it needs no other storage. Level by level over
    /// `options.threads`, as `computeClipRects(worldRects:into:options:)`.
    ///
    /// Allocates nothing when `visible` has the capacity for `count` entries and does not
    /// share its storage, and `options.threads` is 1 or the store has fewer than 32,768
    /// layers (as for `computeClipRects(worldRects:into:options:)`).
    /// - Precondition: both arrays have `count` entries (from
    ///   `computeWorldRects(in:into:options:)` and
    ///   `computeClipRects(worldRects:into:options:)`).
    /// Complexity: O(count).
    public func computeVisibility(
        worldRects: [RectEdges], clipRects: [RectEdges?], viewport: Rect?, into visible: inout [Bool],
        options: KernelOptions = .default
    ) {
        let count = self.count
        require(
            worldRects.count == count && clipRects.count == count,
            "\(worldRects.count) world rects and \(clipRects.count) clip rects for \(count) layers: compute them again for the store's current layers"
        )
        visible.resize(to: count, filler: false)
        let viewportEdges = viewport?.edges
        // Bool's bytes are 0 and 1; the pass also writes `hiddenInTree`, and turns it to 0
        // before the buffer is read as Bool again.
        withOptionalRawBytes(&visible) { states in
            guard let states else { return }
            forEachLayerByLevel(options: options) { layer in
                let superlayer = hierarchy.parents[layer]
                if !columns.flags[layer].isDisjoint(with: .hiddenOrDetached)
                    || (superlayer >= 0 && states[Int(superlayer)] == Self.hiddenInTree)
                {
                    states[layer] = Self.hiddenInTree
                    return
                }
                guard !worldRects[layer].isNull else {
                    states[layer] = 0
                    return
                }
                var area = worldRects[layer]
                if let clip = clipRects[layer] { area = area.intersection(clip) }
                if let viewportEdges { area = area.intersection(viewportEdges) }
                states[layer] = area.hasPositiveArea ? 1 : 0
            }
            forEachChunk(count: count, threads: options.threads, grain: 16_384) { range in
                for layer in range where states[layer] == Self.hiddenInTree { states[layer] = 0 }
            }
        }
    }

    /// The byte `computeVisibility` writes while it runs for a layer that is hidden or
    /// detached, itself or through an ancestor (visible layers are 1, others 0).
    private static let hiddenInTree: UInt8 = 2

    /// Calls `body` once per layer, superlayers before sublayers: level by level, a
    /// wide level (at least twice `worldParallelCutoff`) split over `options.threads`.
    /// `body` may write only its layer's entries and read its superlayer's.
    func forEachLayerByLevel(options: KernelOptions, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        // One thread, or no level can be wide enough to split: any superlayers-first
        // order gives the same results, and these two need no level order (no storage).
        if options.threads <= 1 || count < 2 * Self.worldParallelCutoff {
            if parentsPrecedeChildren {
                for layer in 0..<count { body(layer) }
            } else {
                var root = hierarchy.firstRoot
                while root >= 0 {
                    forEachInSubtree(of: Int(root), body)
                    root = hierarchy.nextSiblings[Int(root)]
                }
            }
            return
        }
        let (order, levelStarts): ([Int32]?, [Int])
        if let plan = caches.worldPlan, !caches.changes.hierarchyChanged, plan.count == count,
            !plan.levelStarts.isEmpty,
            plan.subtreeBlocks.isEmpty
        {
            (order, levelStarts) = (plan.order, plan.levelStarts)
        } else {
            (order, levelStarts) = levelOrder()
        }
        withOptionalRawColumn(reading: order) { order in
            @inline(__always) func layer(_ position: Int) -> Int { order.map { Int($0[position]) } ?? position }
            var serialStart = 0
            for level in 0..<(levelStarts.count - 1) {
                let start = levelStarts[level]
                let end = levelStarts[level + 1]
                guard options.threads > 1, end - start >= 2 * Self.worldParallelCutoff else { continue }
                for position in serialStart..<start { body(layer(position)) }
                forEachChunk(count: end - start, threads: options.threads, grain: Self.parallelGrain) {
                    range in
                    for position in range { body(layer(start + position)) }
                }
                serialStart = end
            }
            for position in serialStart..<count { body(layer(position)) }
        }
    }
}
