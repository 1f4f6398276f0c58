// The spatial index of one wide layer's sublayers (a list of thousands of cards, a root
// with a million children): a packed R-tree (sort-tile-recursive, like the bulk-loaded
// trees of Chromium's cc/base/rtree) over the sublayers' extents in the layer's bounds
// space. An extent that changes is refitted in place, O(log n); a changed sublayer list
// rebuilds the tree, O(n log n), at the next query.

struct SublayerIndex: Sendable {
    /// Entries per node.
    static let fanout = 8
    /// Layers with at least this many sublayers get an index; fewer are scanned.
    static let minimumSublayers = 64

    /// The sublayers, in leaf order.
    private(set) var sublayers: [Int32] = []
    /// Per leaf: the sublayer's rank in its superlayer's drawing order, and in its
    /// sublayer order (what the layer rule and the view rule walk, respectively).
    var drawRanks: [Int32] = []
    var listRanks: [Int32] = []
    /// Node boxes level by level: one leaf per sublayer first, the root last.
    private(set) var boxes: [RectEdges] = []
    /// Where each level starts in `boxes`.
    private(set) var levelStarts: [Int] = []

    /// An empty index (no sublayers).
    init() {}

    /// The union of every sublayer's extent. O(1).
    var bounds: RectEdges { boxes.isEmpty ? .null : boxes[boxes.count - 1] }

    /// Builds the tree over `sublayers` (in sublayer order) with `extents(slot)`; the
    /// leaf of sublayer k is `leafOf[k]` afterwards (`listRanks[leaf] == k`).
    init(sublayers list: [Int32], extent: (Int) -> RectEdges) {
        let n = list.count
        var order = Array(0..<n)
        let boxesInList = list.map { extent(Int($0)) }
        func center(_ k: Int) -> (x: Double, y: Double) {
            let box = boxesInList[k]
            guard !box.isNull, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else {
                return (0, 0)
            }
            return ((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2)
        }
        // Sort-tile-recursive: vertical slices by x, each sorted by y.
        let leaves = (n + Self.fanout - 1) / Self.fanout
        var slices = 1
        while slices * slices < leaves { slices += 1 }
        let sliceSize = Swift.max(1, ((n + slices - 1) / slices + Self.fanout - 1) / Self.fanout * Self.fanout)
        order.sort { (center($0).x, $0) < (center($1).x, $1) }
        var start = 0
        while start < n {
            let end = Swift.min(n, start + sliceSize)
            order[start..<end].sort { (center($0).y, $0) < (center($1).y, $1) }
            start = end
        }
        sublayers = order.map { list[$0] }
        listRanks = order.map { Int32($0) }
        drawRanks = listRanks
        boxes = order.map { boxesInList[$0] }
        buildLevels()
    }

    /// The inner levels from the leaves.
    private mutating func buildLevels() {
        levelStarts = [0]
        var levelStart = 0
        var levelCount = boxes.count
        while levelCount > 1 {
            let nodes = (levelCount + Self.fanout - 1) / Self.fanout
            for node in 0..<nodes { boxes.append(union(level: levelStart, count: levelCount, node: node)) }
            levelStart += levelCount
            levelStarts.append(levelStart)
            levelCount = nodes
        }
    }

    /// The union of the children of `node` at the level above the one starting at
    /// `level` with `count` boxes.
    private func union(level: Int, count: Int, node: Int) -> RectEdges {
        var box = RectEdges.null
        var k = node * Self.fanout
        let end = Swift.min(count, k + Self.fanout)
        while k < end {  // not `for in`: its generic iterator allocates in unoptimized builds
            box = box.union(boxes[level + k])
            k += 1
        }
        return box
    }

    /// The leaf position of every sublayer, for `LayerStore` to record: (slot, leaf).
    func forEachLeaf(_ body: (Int, Int) -> Void) {
        for (leaf, slot) in sublayers.enumerated() { body(Int(slot), leaf) }
    }

    /// Sets leaf `leaf`'s box and refits its ancestors, stopping at the first that does
    /// not change. O(log n).
    mutating func refit(leaf: Int, to box: RectEdges) {
        guard boxes[leaf] != box else { return }
        boxes[leaf] = box
        var position = leaf
        for level in 0..<(levelStarts.count - 1) {
            let count = levelStarts[level + 1] - levelStarts[level]
            let node = position / Self.fanout
            let updated = union(level: levelStarts[level], count: count, node: node)
            let slot = levelStarts[level + 1] + node
            if boxes[slot] == updated { return }
            boxes[slot] = updated
            position = node
        }
    }

    /// Calls `body(leaf)` for every leaf whose box `overlaps` accepts, after pruning every
    /// node whose box it rejects. `overlaps` must accept a node box whenever it accepts a
    /// box inside it. O(log n + hits) for a small query.
    func forEachCandidate(_ overlaps: (RectEdges) -> Bool, _ body: (Int) -> Void) {
        guard !boxes.isEmpty else { return }
        visit(level: levelStarts.count - 1, node: 0, overlaps, body)
    }

    private func visit(level: Int, node: Int, _ overlaps: (RectEdges) -> Bool, _ body: (Int) -> Void) {
        guard overlaps(boxes[levelStarts[level] + node]) else { return }
        if level == 0 {
            body(node)
            return
        }
        let childCount = levelStarts[level] - levelStarts[level - 1]
        var child = node * Self.fanout
        let end = Swift.min(childCount, child + Self.fanout)
        while child < end {
            visit(level: level - 1, node: child, overlaps, body)
            child += 1
        }
    }
}
