// Clip rects and visibility for every layer (GEOMETRY.md section 6), level by level:
// a layer's result depends only on its superlayer's, so all layers of one depth are
// independent and a wide level is split over threads. Each entry is computed with the
// same expressions as `clipRects(worldRects:)` and `visibility(worldRects:clipRects:viewport:)`.

extension LayerStore {
    /// `clipRects(worldRects:)` over `options.threads` (every backend runs the same
    /// Swift code; the result does not depend on the options).
    /// - Precondition: `worldRects.count == count`.
    /// Complexity: O(count), plus O(count) for the level order unless `updateWorld()`
    /// has cached it.
    public func clipRects(worldRects: [RectEdges], options: KernelOptions = .default) -> [RectEdges?] {
        let count = self.count
        require(
            worldRects.count == count,
            "\(worldRects.count) world rects for \(count) layers: compute them again for the store's current layers")
        var clips = [RectEdges?](repeating: nil, count: count)
        clips.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress else { return }
            let clips = SendablePointer(base)
            forEachLayerByLevel(options: options) { layer in
                let superlayer = parents[layer]
                guard superlayer >= 0 else { return }
                let s = Int(superlayer)
                var clip = clips.pointer[s]
                if flags[s].contains(.masksToBounds) {
                    clip = clip.map { $0.intersection(worldRects[s]) } ?? worldRects[s]
                }
                clips.pointer[layer] = clip
            }
        }
        return clips
    }

    /// `visibility(worldRects:clipRects:viewport:)` over `options.threads`.
    /// - Precondition: both arrays have `count` entries.
    /// Complexity: O(count).
    public func visibility(
        worldRects: [RectEdges], clipRects: [RectEdges?], viewport: Rect?,
        options: KernelOptions = .default
    ) -> [Bool] {
        let count = self.count
        require(
            worldRects.count == count && clipRects.count == count,
            "\(worldRects.count) world rects and \(clipRects.count) clip rects for \(count) layers: compute them again for the store's current layers"
        )
        var hiddenInTree = [Bool](repeating: false, count: count)
        var visible = [Bool](repeating: false, count: count)
        let viewportEdges = viewport?.edges
        hiddenInTree.withUnsafeMutableBufferPointer { hiddenOutput in
            visible.withUnsafeMutableBufferPointer { visibleOutput in
                guard let hiddenBase = hiddenOutput.baseAddress, let visibleBase = visibleOutput.baseAddress else {
                    return
                }
                let hiddenInTree = SendablePointer(hiddenBase)
                let visible = SendablePointer(visibleBase)
                forEachLayerByLevel(options: options) { layer in
                    let superlayer = parents[layer]
                    let hidden =
                        !flags[layer].isDisjoint(with: [.hidden, .detached])
                        || (superlayer >= 0 && hiddenInTree.pointer[Int(superlayer)])
                    hiddenInTree.pointer[layer] = hidden
                    guard !hidden, !worldRects[layer].isNull else { return }
                    var area = worldRects[layer]
                    if let clip = clipRects[layer] { area = area.intersection(clip) }
                    if let viewportEdges { area = area.intersection(viewportEdges) }
                    visible.pointer[layer] = area.hasPositiveArea
                }
            }
        }
        return visible
    }

    /// Calls `body` once per layer, superlayers before sublayers: level by level, a
    /// wide level (at least twice `worldParallelCutoff`) split over `options.threads`.
    /// `body` may write only its layer's entries and read its superlayer's.
    func forEachLayerByLevel(options: KernelOptions, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        let (order, levelStarts): ([Int32]?, [Int])
        if let plan = worldPlan, !changes.hierarchyChanged, plan.count == count, !plan.levelStarts.isEmpty,
            plan.subtreeBlocks.isEmpty
        {
            (order, levelStarts) = (plan.order, plan.levelStarts)
        } else {
            (order, levelStarts) = levelOrder()
        }
        withOptionalBuffer(order) { order in
            @inline(__always) func layer(_ position: Int) -> Int { order.map { Int($0[position]) } ?? position }
            var serialStart = 0
            for level in 0..<(levelStarts.count - 1) {
                let start = levelStarts[level]
                let end = levelStarts[level + 1]
                guard options.threads > 1, end - start >= 2 * Self.worldParallelCutoff else { continue }
                for position in serialStart..<start { body(layer(position)) }
                forEachChunk(count: end - start, threads: options.threads, minimumPerThread: Self.worldParallelCutoff) {
                    range in
                    for position in range { body(layer(start + position)) }
                }
                serialStart = end
            }
            for position in serialStart..<count { body(layer(position)) }
        }
    }
}
