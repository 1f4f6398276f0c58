// The spatial index of one wide layer's sublayers (a list of thousands of cards, a root
// with a million children): an R-tree over the sublayers' extents in the layer's bounds
// space, bulk-loaded sort-tile-recursive (like Chromium's cc/base/rtree) with room left in
// every bottom node, then kept up to date edit by edit (like Godot's 2D BVH):
//
// - an extent that changes refits its leaf and the ancestors that change, O(log w);
// - a removed sublayer leaves a free leaf (its box null), O(log w);
// - an added sublayer takes a free leaf under the bottom node whose box grows least,
//   found from the root down, O(log w);
// - after w/2 edits, or when no leaf is free, the next refresh rebuilds it, O(w log w),
//   into its own arrays: amortized O(log w) an edit, and no allocation once grown.
//
// Order is not kept here: candidates are sorted by the store's order labels
// (`SubtreeBounds.orderLabel(of:)`) and zPositions, which survive inserts.

/// What a build reads and sorts, kept by `SubtreeBounds` so that a rebuild allocates
/// nothing once its arrays have grown to the list.
struct IndexBuildScratch: Sendable {
    /// The build's input: the sublayers in list order, and their extents.
    var sublayers: [Int32] = []
    var extents: [RectEdges] = []
    /// Positions in `sublayers`, in leaf order once sorted.
    var order: [Int32] = []
    var space: [Int32] = []
    var slice: [Int32] = []
    var centerX: [Double] = []
    var centerY: [Double] = []

    /// Clears the input for a new list.
    mutating func removeAll() {
        sublayers.removeAll(keepingCapacity: true)
        extents.removeAll(keepingCapacity: true)
    }

    /// Sort-tile-recursive: `order` sorted by center x, then cut into vertical slices of
    /// whole bottom nodes (`fill` leaves each), each sorted by center y. O(n log n).
    mutating func sortTileRecursive(fill: Int) {
        let n = sublayers.count
        order.removeAll(keepingCapacity: true)
        centerX.removeAll(keepingCapacity: true)
        centerY.removeAll(keepingCapacity: true)
        var k = 0
        while k < n {  // index loops: an unoptimized build's iterators allocate
            let box = extents[k]
            let finite = !box.isNull && box.minX.isFinite && box.maxX.isFinite && box.minY.isFinite && box.maxY.isFinite
            centerX.append(finite ? (box.minX + box.maxX) / 2 : 0)
            centerY.append(finite ? (box.minY + box.maxY) / 2 : 0)
            order.append(Int32(truncatingIfNeeded: k))
            k += 1
        }
        let nodes = (n + fill - 1) / fill
        var slices = 1
        while slices * slices < nodes { slices += 1 }
        let sliceSize = Swift.max(1, ((n + slices - 1) / slices + fill - 1) / fill * fill)
        let xs = centerX
        stableSort(&order, space: &space) { xs[Int($0)] < xs[Int($1)] }
        let ys = centerY
        var start = 0
        while start < n {
            let end = Swift.min(n, start + sliceSize)
            slice.removeAll(keepingCapacity: true)
            k = start
            while k < end {
                slice.append(order[k])
                k += 1
            }
            stableSort(&slice, space: &space) { ys[Int($0)] < ys[Int($1)] }
            k = start
            while k < end {
                order[k] = slice[k - start]
                k += 1
            }
            start = end
        }
    }
}

struct SublayerIndex: Sendable {
    /// Entries per node.
    static let fanout = 8
    /// Leaves a bottom node gets at a build; the other `fanout - buildFill` are free for
    /// the sublayers added later.
    static let buildFill = 6
    /// Layers with at least this many sublayers get an index; fewer are scanned.
    static let minimumSublayers = 64

    /// Per leaf: its sublayer (-1: free).
    private(set) var sublayers: [Int32] = []
    /// Node boxes level by level: the leaves first (a free leaf is null), the root last.
    /// A node's box is the union of its children's, exactly.
    private(set) var boxes: [RectEdges] = []
    /// Per node, as `boxes`: how many free leaves are below it (a leaf: 1 when free).
    private(set) var freeLeaves: [Int32] = []
    /// Where each level starts in `boxes`.
    private(set) var levelStarts: [Int] = []
    /// The sublayers it holds.
    private(set) var count = 0
    /// Leaves taken and freed since the build.
    private(set) var edits = 0
    /// An insert found no free leaf: the next refresh rebuilds.
    private(set) var isFull = false
    /// Per node, as `boxes`: 1 when its box waits for `refitStale()` (`setLeafBox`
    /// changed a box below it). Bytes, not `Bool`s: an array of `Bool` allocates witness
    /// tables in unoptimized builds, where the allocation tests run.
    private(set) var stale: [UInt8] = []
    /// The stale nodes, lower levels first.
    private(set) var staleNodes: [Int32] = []

    /// An empty index (no sublayers).
    init() {}

    /// The leaves, taken and free: the most sublayers the index holds before a rebuild
    /// (an insert that finds none free makes the next refresh rebuild). O(1).
    var leafCount: Int { sublayers.count }

    /// The union of every sublayer's extent. O(1).
    var bounds: RectEdges { boxes.isEmpty ? .null : boxes[boxes.count - 1] }

    /// True when a rebuild is due: full, or edited more than half its size since the
    /// build (the boxes the inserts grew may have gone slack), so that rebuilds cost
    /// O(log w) amortized an edit.
    var needsRebuild: Bool { isFull || edits > count / 2 + Self.fanout }

    /// Rebuilds the tree, in its own arrays, over `scratch.sublayers` with
    /// `scratch.extents`: each bottom node gets `buildFill` leaves in STR order, then free
    /// ones. O(n log n); allocates only when the arrays must grow.
    mutating func build(_ scratch: inout IndexBuildScratch) {
        let n = scratch.sublayers.count
        scratch.sortTileRecursive(fill: Self.buildFill)
        let bottomNodes = Swift.max(1, (n + Self.buildFill - 1) / Self.buildFill)
        reserveNodes(leaves: bottomNodes * Self.fanout)
        sublayers.removeAll(keepingCapacity: true)
        boxes.removeAll(keepingCapacity: true)
        freeLeaves.removeAll(keepingCapacity: true)
        var position = 0
        var leaf = 0
        while leaf < bottomNodes * Self.fanout {
            if leaf % Self.fanout < Self.buildFill && position < n {
                let entry = Int(scratch.order[position])
                sublayers.append(scratch.sublayers[entry])
                boxes.append(scratch.extents[entry])
                freeLeaves.append(0)
                position += 1
            } else {
                sublayers.append(-1)
                boxes.append(.null)
                freeLeaves.append(1)
            }
            leaf += 1
        }
        count = n
        edits = 0
        isFull = false
        buildLevels()
        clearStale()
    }

    /// Room for a tree of `leaves` leaves in the per-leaf and per-node arrays: exactly
    /// at the first build (arrays grown by appending held up to twice the nodes, 32
    /// bytes a box), at least twice the old room when a rebuild outgrows it (amortized,
    /// as appending was). O(1) unless they grow.
    private mutating func reserveNodes(leaves: Int) {
        var nodes = leaves
        var level = leaves
        while level > 1 {
            level = (level + Self.fanout - 1) / Self.fanout
            nodes += level
        }
        if sublayers.capacity < leaves {
            sublayers.reserveCapacity(sublayers.capacity == 0 ? leaves : Swift.max(leaves, 2 * sublayers.capacity))
        }
        guard boxes.capacity < nodes else { return }
        let room = boxes.capacity == 0 ? nodes : Swift.max(nodes, 2 * boxes.capacity)
        boxes.reserveCapacity(room)
        freeLeaves.reserveCapacity(room)
        stale.reserveCapacity(room)
    }

    /// No node stale, `stale` sized to the nodes, and room in `staleNodes` for every
    /// inner node (each is listed at most once), so a refresh's refits never grow it.
    private mutating func clearStale() {
        stale.removeAll(keepingCapacity: true)
        while stale.count < boxes.count { stale.append(0) }
        staleNodes.removeAll(keepingCapacity: true)
        staleNodes.reserveCapacity(boxes.count - nodeCount(level: 0))
    }

    /// The inner levels from the leaves.
    private mutating func buildLevels() {
        levelStarts.removeAll(keepingCapacity: true)
        levelStarts.append(0)
        var levelStart = 0
        var levelCount = boxes.count
        while levelCount > 1 {
            let nodes = (levelCount + Self.fanout - 1) / Self.fanout
            var node = 0
            while node < nodes {
                boxes.append(union(level: levelStart, count: levelCount, node: node))
                var free: Int32 = 0
                var child = node * Self.fanout
                while child < Swift.min(levelCount, node * Self.fanout + Self.fanout) {
                    free += freeLeaves[levelStart + child]
                    child += 1
                }
                freeLeaves.append(free)
                node += 1
            }
            levelStart += levelCount
            levelStarts.append(levelStart)
            levelCount = nodes
        }
    }

    /// The number of nodes on `level`.
    @inline(__always)
    private func nodeCount(level: Int) -> Int {
        level + 1 < levelStarts.count ? levelStarts[level + 1] - levelStarts[level] : boxes.count - levelStarts[level]
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
        var leaf = 0
        while leaf < nodeCount(level: 0) {
            if sublayers[leaf] >= 0 { body(Int(sublayers[leaf]), leaf) }
            leaf += 1
        }
    }

    /// Sets leaf `leaf`'s box and refits its ancestors, stopping at the first that does
    /// not change. O(log n).
    mutating func refit(leaf: Int, to box: RectEdges) {
        guard boxes[leaf] != box else { return }
        boxes[leaf] = box
        var position = leaf
        for level in 0..<(levelStarts.count - 1) {
            let node = position / Self.fanout
            let updated = union(level: levelStarts[level], count: nodeCount(level: level), node: node)
            let slot = levelStarts[level + 1] + node
            if boxes[slot] == updated { return }
            boxes[slot] = updated
            position = node
        }
    }

    /// Sets leaf `leaf`'s box and leaves its ancestors to `refitStale()`, so that a
    /// refresh that moves many sublayers (a relayout: every card below an insert) refits
    /// each node once, not once per moved leaf below it. O(1).
    mutating func setLeafBox(_ leaf: Int, to box: RectEdges) {
        guard boxes[leaf] != box else { return }
        boxes[leaf] = box
        if levelStarts.count > 1 { markStale(levelStarts[1] + leaf / Self.fanout) }
    }

    @inline(__always)
    private mutating func markStale(_ node: Int) {
        guard stale[node] == 0 else { return }
        stale[node] = 1
        staleNodes.append(Int32(truncatingIfNeeded: node))
    }

    /// Recomputes the nodes `setLeafBox` left stale and their ancestors up to the first
    /// whose box does not change, level by level from the bottom (the list is first in,
    /// first out: a node's parent joins it after every node of the node's level), so
    /// each node's children are current when it is redone. O(stale nodes · fanout).
    mutating func refitStale() {
        var k = 0
        var level = 1
        while k < staleNodes.count {
            let node = Int(staleNodes[k])
            k += 1
            stale[node] = 0
            while level + 1 < levelStarts.count && node >= levelStarts[level + 1] { level += 1 }
            let position = node - levelStarts[level]
            let updated = union(level: levelStarts[level - 1], count: nodeCount(level: level - 1), node: position)
            guard boxes[node] != updated else { continue }
            boxes[node] = updated
            if level + 1 < levelStarts.count { markStale(levelStarts[level + 1] + position / Self.fanout) }
        }
        staleNodes.removeAll(keepingCapacity: true)
    }

    /// Sets every leaf's box from `extent(sublayer)` and recomputes every inner box,
    /// keeping the tree's shape. O(n).
    mutating func refitAll(_ extent: (Int) -> RectEdges) {
        var leaf = 0
        while leaf < nodeCount(level: 0) {
            if sublayers[leaf] >= 0 { boxes[leaf] = extent(Int(sublayers[leaf])) }
            leaf += 1
        }
        var level = 0
        while level + 1 < levelStarts.count {
            var node = 0
            while node < nodeCount(level: level + 1) {
                boxes[levelStarts[level + 1] + node] = union(
                    level: levelStarts[level], count: nodeCount(level: level), node: node)
                node += 1
            }
            level += 1
        }
        var k = 0
        while k < staleNodes.count {
            stale[Int(staleNodes[k])] = 0
            k += 1
        }
        staleNodes.removeAll(keepingCapacity: true)
    }

    /// Puts `sublayer` with `box` in a free leaf: from the root down, into the child with
    /// a free leaf whose box grows least (then the smallest). Returns the leaf, or nil
    /// (and `isFull`) when none is free. O(fanout · log n).
    mutating func insert(_ sublayer: Int32, box: RectEdges) -> Int? {
        guard !boxes.isEmpty, freeLeaves[boxes.count - 1] > 0 else {
            isFull = true
            return nil
        }
        var level = levelStarts.count - 1
        var node = 0
        while level > 0 {
            node = bestChild(of: node, on: level, for: box)
            level -= 1
        }
        sublayers[node] = sublayer
        count += 1
        edits += 1
        addFree(-1, atLeaf: node)
        refit(leaf: node, to: box)
        return node
    }

    /// Frees leaf `leaf`. O(log n).
    mutating func remove(leaf: Int) {
        sublayers[leaf] = -1
        count -= 1
        edits += 1
        addFree(1, atLeaf: leaf)
        refit(leaf: leaf, to: .null)
    }

    private mutating func addFree(_ delta: Int32, atLeaf leaf: Int) {
        var position = leaf
        var level = 0
        while level < levelStarts.count {
            freeLeaves[levelStarts[level] + position] += delta
            position /= Self.fanout
            level += 1
        }
    }

    /// The child of `node` (on `level` ≥ 1) with a free leaf below it that `box` grows
    /// least; on the bottom level, the first free leaf.
    private func bestChild(of node: Int, on level: Int, for box: RectEdges) -> Int {
        let childStart = levelStarts[level - 1]
        var child = node * Self.fanout
        let end = Swift.min(nodeCount(level: level - 1), child + Self.fanout)
        var best = -1
        var bestGrowth = Double.infinity
        var bestArea = Double.infinity
        while child < end {
            defer { child += 1 }
            guard freeLeaves[childStart + child] > 0 else { continue }
            if level == 1 { return child }
            let current = boxes[childStart + child]
            let area = boxArea(current)
            var growth = boxArea(current.union(box)) - area
            if !(growth >= 0) { growth = .infinity }  // NaN from infinite boxes: worst
            if best < 0 || growth < bestGrowth || (growth == bestGrowth && area < bestArea) {
                (best, bestGrowth, bestArea) = (child, growth, area)
            }
        }
        return best
    }

    /// Calls `body(leaf)` for every leaf whose box `overlaps` accepts, after pruning every
    /// node whose box it rejects, in leaf order. `overlaps` must accept a node box whenever
    /// it accepts a box inside it, and reject the null box (a free leaf). O(log n + hits)
    /// for a small query.
    ///
    /// Each node's children are tested together before any is entered: the frame query
    /// runs just after the app's other work, with these boxes out of cache, and testing a
    /// child just before descending into it (depth first) waited for one miss per child,
    /// while the children's loads here are independent and overlap. Inlined and without
    /// recursion (each level keeps the accepted children it has yet to enter), so that
    /// the caller's `overlaps` and `body` are inlined into the search: the recursive form
    /// called both through closure contexts, about 40 calls a frame query's search.
    @inline(__always)
    func forEachCandidate(_ overlaps: (RectEdges) -> Bool, _ body: (Int) -> Void) {
        guard !boxes.isEmpty, overlaps(boxes[boxes.count - 1]) else { return }
        let top = levelStarts.count - 1
        guard top > 0 else { return body(0) }
        precondition(top < 16, "SublayerIndex: more levels than 32-bit leaf numbers need")
        // Per level l: the first child (on level l - 1) of the node entered there, and
        // the children it accepted that are not entered yet (bit i: that child + i).
        var firsts = SIMD16<Int32>(repeating: 0)
        var pending = SIMD16<UInt32>(repeating: 0)
        pending[top] = acceptedChildren(of: 0, on: top, overlaps)
        var level = top
        while level <= top {
            let accepted = pending[level]
            guard accepted != 0 else {
                level += 1
                continue
            }
            pending[level] = accepted & (accepted - 1)
            let child = Int(firsts[level]) + accepted.trailingZeroBitCount
            if level == 1 {
                body(child)
            } else {
                level -= 1
                firsts[level] = Int32(truncatingIfNeeded: child * Self.fanout)
                pending[level] = acceptedChildren(of: child, on: level, overlaps)
            }
        }
    }

    /// The children of `node` on `level` (> 0) whose boxes `overlaps` accepts: bit i for
    /// child `node · fanout + i`.
    @inline(__always)
    private func acceptedChildren(of node: Int, on level: Int, _ overlaps: (RectEdges) -> Bool) -> UInt32 {
        let childStart = levelStarts[level - 1]
        let first = node * Self.fanout
        let end = Swift.min(levelStarts[level] - childStart, first + Self.fanout)
        var accepted: UInt32 = 0
        var child = first
        while child < end {
            if overlaps(boxes[childStart + child]) { accepted |= 1 << UInt32(child - first) }
            child += 1
        }
        return accepted
    }

    /// `forEachCandidate` with each accepted leaf's sublayer, read in place (no copy of
    /// the index, whose arrays a copy would retain and release).
    @inline(__always)
    func forEachCandidateSublayer(_ overlaps: (RectEdges) -> Bool, _ body: (Int32) -> Void) {
        forEachCandidate(overlaps) { body(sublayers[$0]) }
    }

    /// What is wrong with the tree's own bookkeeping (for `_invariantViolations()`): each
    /// inner box the exact union of its children's, each free count the sum of its
    /// children's, each free leaf null, `count` the number of used leaves.
    func structureViolation() -> String? {
        var used = 0
        var leaf = 0
        while leaf < nodeCount(level: 0) {
            if sublayers[leaf] >= 0 { used += 1 }
            if (sublayers[leaf] < 0) != (freeLeaves[leaf] == 1) { return "leaf \(leaf)'s free count" }
            if sublayers[leaf] < 0 && boxes[leaf] != .null { return "free leaf \(leaf) has a box" }
            leaf += 1
        }
        if used != count { return "holds \(used) sublayers, counts \(count)" }
        if !staleNodes.isEmpty || stale.contains(1) { return "\(staleNodes.count) nodes wait for a refit" }
        for level in 1..<Swift.max(1, levelStarts.count) {
            for node in 0..<nodeCount(level: level) {
                let below = levelStarts[level - 1]
                let children = (node * Self.fanout)..<Swift.min(nodeCount(level: level - 1), node * Self.fanout + 8)
                let free = children.reduce(Int32(0)) { $0 + freeLeaves[below + $1] }
                let box = union(level: below, count: nodeCount(level: level - 1), node: node)
                if free != freeLeaves[levelStarts[level] + node] { return "node \(level).\(node)'s free count" }
                if box != boxes[levelStarts[level] + node] { return "node \(level).\(node)'s box is not its union" }
            }
        }
        return nil
    }
}

/// A box's area for choosing where to insert: 0 for the null box.
@inline(__always)
private func boxArea(_ box: RectEdges) -> Double {
    box.isNull ? 0 : (box.maxX - box.minX) * (box.maxY - box.minY)
}
