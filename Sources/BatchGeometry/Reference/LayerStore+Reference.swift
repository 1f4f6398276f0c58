// The scalar references: each product computed the plainest way, one layer at a time,
// straight from GEOMETRY.md. The tests, the fuzzers and batchbench's verification
// compare every kernel, backend and output-sensitive query with these; nothing on a
// production path calls them.

extension LayerStore {
    /// `ToWorld` for every layer, by the scalar reference: one pass in an order where
    /// every superlayer comes before its sublayers (index order when that holds, else a
    /// depth-first pre-order), no recursion, full 4×4 products (every IEEE operation of
    /// GEOMETRY.md section 5, structural zeros included). O(count).
    ///
    /// The batch backends (`worldTransforms(options:)`) agree with it to 1e-12 relative,
    /// NaN where it has NaN (see `Benchmarks/KERNELS.md`, "non-finite input").
    @_spi(Testing) public func referenceWorldTransforms() -> WorldTransforms {
        var world = WorldTransforms(count: count)
        world.structureVersion = hierarchy.structureVersion
        if parentsPrecedeChildren {
            for layer in 0..<count { computeWorld(layer, into: &world) }
        } else {
            for layer in preorderIndices() { computeWorld(layer, into: &world) }
        }
        return world
    }

    /// One layer of `referenceWorldTransforms()`: `ToWorld = Local * Adjust * Flat` of the
    /// layer times its superlayer's finished `ToWorld`, as plain 4×4 products.
    @inline(__always)
    private func computeWorld(_ layer: Int, into world: inout WorldTransforms) {
        let toSuperlayer = transformToSuperlayer(of: layer)
        let superlayer = hierarchy.parents[layer]
        world[layer] = superlayer < 0 ? toSuperlayer : toSuperlayer.concatenating(world[Int(superlayer)])
    }

    /// World rects of every layer, one `worldRect(of:in:)` at a time: the reference the
    /// batch `worldRects(in:options:)` is tested against. O(count).
    func referenceWorldRects(in world: WorldTransforms) -> [RectEdges] {
        (0..<count).map { worldRect(of: $0, in: world) }
    }

    /// For each layer, the intersection of the world rects of every ancestor with
    /// `masksToBounds` (the layer's own flag does not clip itself); nil when no ancestor
    /// masks. A masking ancestor entirely behind the eye clips everything (null rect).
    /// One pre-order pass, O(count).
    /// (The reference the batch `clipRects(worldRects:options:)` is tested against.)
    func referenceClipRects(worldRects: [RectEdges]) -> [RectEdges?] {
        let count = self.count
        require(
            worldRects.count == count,
            "\(worldRects.count) world rects for \(count) layers: compute them again for the store's current layers")
        var clips = [RectEdges?](repeating: nil, count: count)
        forEachParentFirst { layer in
            let superlayer = hierarchy.parents[layer]
            guard superlayer >= 0 else { return }
            let s = Int(superlayer)
            var clip = clips[s]
            if columns.flags[s].contains(.masksToBounds) {
                clip = clip.map { $0.intersection(worldRects[s]) } ?? worldRects[s]
            }
            clips[layer] = clip
        }
        return clips
    }

    /// For each layer: it and all its ancestors are not hidden (nor detached), its world rect is not
    /// null, and world rect ∩ clip rect ∩ viewport (when given) has positive area.
    /// O(count).
    /// (The reference the batch `visibility(worldRects:clipRects:viewport:options:)` is
    /// tested against.)
    func referenceVisibility(worldRects: [RectEdges], clipRects: [RectEdges?], viewport: Rect?) -> [Bool] {
        let count = self.count
        require(
            worldRects.count == count && clipRects.count == count,
            "\(worldRects.count) world rects and \(clipRects.count) clip rects for \(count) layers: compute them again for the store's current layers"
        )
        var hiddenInTree = [Bool](repeating: false, count: count)
        var visible = [Bool](repeating: false, count: count)
        let viewportEdges = viewport?.edges
        forEachParentFirst { layer in
            let superlayer = hierarchy.parents[layer]
            let hidden =
                !columns.flags[layer].isDisjoint(with: [.hidden, .detached])
                || (superlayer >= 0 && hiddenInTree[Int(superlayer)])
            hiddenInTree[layer] = hidden
            guard !hidden, !worldRects[layer].isNull else { return }
            var area = worldRects[layer]
            if let clip = clipRects[layer] { area = area.intersection(clip) }
            if let viewportEdges { area = area.intersection(viewportEdges) }
            visible[layer] = area.hasPositiveArea
        }
        return visible
    }

    /// Calls `body` for every layer with superlayers before sublayers: index order when
    /// that is already such an order, else depth-first pre-order.
    func forEachParentFirst(_ body: (Int) -> Void) {
        if parentsPrecedeChildren {
            for layer in 0..<count { body(layer) }
        } else {
            for layer in preorderIndices() { body(layer) }
        }
    }

    /// The sublayer lists in drawing order computed from scratch: a copy of the store's
    /// links with each unsorted list stably sorted by zPosition key. O(count log w). The
    /// reference the cache (`DrawOrderCache`) is tested against.
    func sortedDrawOrderLinks() -> SiblingLinks {
        var links = SiblingLinks(first: hierarchy.firstSublayers, next: hierarchy.nextSiblings)
        guard hierarchy.zOrderInversions > 0 else { return links }
        var unsorted: [Int32] = []
        for layer in 0..<count
        where hierarchy.parents[layer] >= 0 && zInversion(hierarchy.previousSiblings[layer], Int32(layer)) == 1 {
            unsorted.append(hierarchy.parents[layer])
        }
        var siblings: [Int32] = []
        var previousParent: Int32 = -1
        for parent in unsorted.sorted() where parent != previousParent {
            previousParent = parent
            siblings.removeAll(keepingCapacity: true)
            var current = hierarchy.firstSublayers[Int(parent)]
            while current >= 0 {
                siblings.append(current)
                current = hierarchy.nextSiblings[Int(current)]
            }
            // Stable: by (key, position in the sublayer list), a strict total order.
            let sorted = siblings.indices.sorted { lhs, rhs in
                let lz = drawOrderKey(columns.zValues.zPosition(at: Int(siblings[lhs])))
                let rz = drawOrderKey(columns.zValues.zPosition(at: Int(siblings[rhs])))
                return lz < rz || (lz == rz && lhs < rhs)
            }
            links.first[Int(parent)] = siblings[sorted[0]]
            for k in 0..<sorted.count {
                links.next[Int(siblings[sorted[k]])] = k + 1 < sorted.count ? siblings[sorted[k + 1]] : -1
            }
        }
        return links
    }
}
