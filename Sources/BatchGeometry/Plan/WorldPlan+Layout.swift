// The order a world pass visits layers in: superlayers before sublayers, grouped by
// depth level (the level layout), or, for deep and narrow trees, a serial prefix and
// independent subtree blocks that threads can take (the subtree layout).

extension LayerStore {
    /// The processing order of a world pass: the level layout, or for big trees whose
    /// levels are all too narrow to split over threads, the subtree layout (see
    /// `WorldPlan.subtreeBlocks`). O(count).
    func worldLayout() -> (order: [Int32]?, levelStarts: [Int], subtreeBlocks: [Range<Int>]) {
        let n = count
        guard n > 0 else { return (nil, [0], []) }
        let (order, levelStarts) = levelOrder()
        let cutoff = Self.worldParallelCutoff
        var widest = 0
        for level in 0..<(levelStarts.count - 1) {
            widest = Swift.max(widest, levelStarts[level + 1] - levelStarts[level])
        }
        guard n >= 4 * cutoff, widest < 2 * cutoff else { return (order, levelStarts, []) }
        // Subtree sizes, sublayers before superlayers (the level order reversed).
        var size = [Int](repeating: 1, count: n)
        for position in stride(from: n - 1, through: 0, by: -1) {
            let layer = order.map { Int($0[position]) } ?? position
            let parent = hierarchy.parents[layer]
            if parent >= 0 { size[Int(parent)] += size[layer] }
        }
        // Split the largest subtree into its sublayers (it joins the serial prefix) until
        // every subtree is at most an eighth of the tree, or the effort is spent.
        var items: [Int] = []
        var root = hierarchy.firstRoot
        while root >= 0 {
            items.append(Int(root))
            root = hierarchy.nextSiblings[Int(root)]
        }
        var prefix: [Int] = []
        for _ in 0..<256 {
            guard let largest = items.indices.max(by: { size[items[$0]] < size[items[$1]] }),
                size[items[largest]] > n / 8, items.count < 64
            else { break }
            let layer = items.remove(at: largest)
            prefix.append(layer)
            var child = hierarchy.firstSublayers[layer]
            while child >= 0 {
                items.append(Int(child))
                child = hierarchy.nextSiblings[Int(child)]
            }
        }
        guard items.count >= 2 else { return (order, levelStarts, []) }
        var blocked: [Int32] = []
        blocked.reserveCapacity(n)
        for layer in prefix { blocked.append(Int32(truncatingIfNeeded: layer)) }
        var blocks: [Range<Int>] = []
        for item in items {
            let start = blocked.count
            forEachInSubtree(of: item) { blocked.append(Int32(truncatingIfNeeded: $0)) }
            blocks.append(start..<blocked.count)
        }
        return (blocked, [0, n], blocks)
    }

    /// A parents-first order grouped by depth (every level after the one above it), each
    /// level listing sublayers grouped by superlayer in the superlayers' order (so the
    /// sublayers of a run of positions form a run of the next level, which the
    /// incremental update relies on), and where each level starts. Index order when
    /// layers are already appended that way (the common case, as a breadth-first build
    /// gives: nil order), else a breadth-first walk of the sibling lists.
    func levelOrder() -> (order: [Int32]?, levelStarts: [Int]) {
        let n = count
        var depth = [Int32](repeating: 0, count: n)
        let parentFirst: [Int32]? =
            parentsPrecedeChildren ? nil : preorderIndices().map { Int32(truncatingIfNeeded: $0) }
        var maximumDepth: Int32 = 0
        var nondecreasing = parentFirst == nil
        var previousDepth: Int32 = 0
        var previousParent: Int32 = -1
        withRawList(reading: hierarchy.parents) { parents in
            for position in 0..<n {
                let layer = parentFirst.map { Int($0[position]) } ?? position
                let parent = parents[layer]
                let value = parent < 0 ? 0 : depth[Int(parent)] + 1
                depth[layer] = value
                if value > maximumDepth { maximumDepth = value }
                // In index order a sublayer's position is its index: grouped by
                // superlayer when the superlayer indices never decrease.
                if value < previousDepth || (value > 0 && parent < previousParent) { nondecreasing = false }
                if value > 0 { previousParent = parent }
                previousDepth = value
            }
        }
        var levelSizes = [Int](repeating: 0, count: Int(maximumDepth) + 1)
        for value in depth { levelSizes[Int(value)] += 1 }
        var levelStarts = [Int](repeating: 0, count: levelSizes.count + 1)
        for level in 0..<levelSizes.count { levelStarts[level + 1] = levelStarts[level] + levelSizes[level] }
        if nondecreasing { return (nil, levelStarts) }
        // Breadth first: the roots, then the sublayers of each listed layer in turn.
        var order = [Int32]()
        order.reserveCapacity(n)
        var root = hierarchy.firstRoot
        while root >= 0 {
            order.append(root)
            root = hierarchy.nextSiblings[Int(root)]
        }
        var next = 0
        while next < order.count {
            var child = hierarchy.firstSublayers[Int(order[next])]
            while child >= 0 {
                order.append(child)
                child = hierarchy.nextSiblings[Int(child)]
            }
            next += 1
        }
        return (order, levelStarts)
    }

    /// True when most layers' superlayers sit far (more than a cache line of doubles)
    /// from the previous layer's superlayer in the columns, as in a random or
    /// depth-first-built tree; false for breadth-first trees and chains, whose sublayers
    /// share or follow their superlayer's lines. O(count), one pass over the parents.
    func parentsAreScattered() -> Bool {
        let n = count
        guard n > 1 else { return false }
        var far = 0
        withRawList(reading: hierarchy.parents) { parents in
            for layer in 1..<n {
                let step = Int(parents[layer]) - Int(parents[layer - 1])
                if step > 8 || step < -8 { far += 1 }
            }
        }
        return far > n / 4
    }

    /// True when, for more than half of the positions, the layer's superlayer is the
    /// layer at the previous position of `order` (nil: index order): a chain, or a deep
    /// tree's pre-order blocks, where a pass is one long dependency from layer to layer
    /// rather than a stream. O(count), one pass over the parents.
    func parentsAreChained(order: [Int32]?) -> Bool {
        let n = count
        guard n > 1 else { return false }
        var chained = 0
        withRawList(reading: hierarchy.parents) { parents in
            if let order {
                for position in 1..<n where parents[Int(order[position])] == order[position - 1] { chained += 1 }
            } else {
                for layer in 1..<n where Int(parents[layer]) == layer - 1 { chained += 1 }
            }
        }
        return chained > n / 2
    }
}
