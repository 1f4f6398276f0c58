// "The i-th sublayer of this list" in O(log w) for wide lists (issue 22 item 2):
// `insertSublayer(_:into:at:)` and `addLayer(superlayer:at:)` find the sibling to insert
// before by rank, not by walking the linked list. None of the other per-list structures
// can answer it: the R-tree's leaves are in spatial (STR) order, the order labels are
// spread over 2^62 with gaps, and the drawing-order cache is a linked list.
//
// So each indexed list (the lists with an R-tree, `SublayerIndex.minimumSublayers` or
// more sublayers) also keeps a treap (Seidel and Aragon's randomized search tree) in list
// order: per sublayer, its left and right children, its parent and its left subtree's size,
// kept in the drift side table (`ParkedDrift.rankLinks`, beside the order labels), which
// only the sublayers of indexed lists have: 16 bytes for each of them, none for the
// others. A node's priority is a hash of its slot, so nothing is stored for it and equal
// edit sequences give equal trees. The tree follows every link and unlink of the list
// (`LayerStore.sublayerListDidChange`): a joining sublayer hangs under its list
// neighbour (no descent: of two neighbours in order, one has no child on the facing
// side) and rotates up by priority; a leaving one rotates down to at most one child and
// is cut off; the ancestors it is left of count it in or out. Expected O(log w) each, no
// allocation (the side table has room for every slot of the store's capacity). Left
// sizes, not subtree sizes, so that an append (the last sublayer: left of no ancestor)
// changes no count above it and costs expected O(1) (a treap insert rotates fewer than
// two times on average). An index build (or rebuild) builds its tree too, in O(w) from
// the list in order (a Cartesian tree, its right spine kept by the parent links, so no
// stack).

extension ParkedDrift {
    /// Lanes of `rankLinks`: left child, right child, parent (slots, -1: none) and the
    /// number of nodes in the left subtree.
    static var rankLeft: Int { 0 }
    static var rankRight: Int { 1 }
    static var rankParent: Int { 2 }
    static var rankLeftSize: Int { 3 }

    /// The priority of `layer`'s node: a hash of its slot (murmur3's finalizer, a
    /// bijection, so no two nodes tie). O(1).
    @inline(__always)
    static func rankPriority(_ layer: Int32) -> UInt32 {
        var h = UInt32(bitPattern: layer)
        h ^= h >> 16
        h &*= 0x85eb_ca6b
        h ^= h >> 13
        h &*= 0xc2b2_ae35
        h ^= h >> 16
        return h
    }

    /// `layer`'s node (it has a side-table entry). O(1).
    @inline(__always)
    func rankNode(_ layer: Int32) -> SIMD4<Int32> { rankLinks[Int(referenceSlots[Int(layer)])] }

    @inline(__always)
    mutating func setRankNode(_ node: SIMD4<Int32>, of layer: Int32) {
        rankLinks[Int(referenceSlots[Int(layer)])] = node
    }

    @inline(__always)
    private mutating func setRankLane(_ lane: Int, of layer: Int32, to value: Int32) {
        let position = Int(referenceSlots[Int(layer)])
        rankLinks[position][lane] = value
    }

    /// The number of sublayers in the tree of list `list` (a position in
    /// `SubtreeBounds.indexes`). O(1).
    @inline(__always)
    func rankCount(list: Int) -> Int { Int(rankCounts[list]) }

    /// Builds the tree of list `list` over `sublayers`, the list in order, each with a
    /// side-table entry: a Cartesian tree by priority, each node hung as the right child
    /// of the deepest node on the right spine that outranks it, the spine nodes below
    /// becoming its left subtree. While a node is on the spine its fourth lane holds its
    /// position in the list; leaving the spine, its left size: the positions between
    /// its parent's and its own. O(w), no allocation.
    mutating func buildRanks(list: Int, _ sublayers: [Int32]) {
        var last: Int32 = -1  // the bottom of the right spine
        var k = 0
        while k < sublayers.count {  // index loops: an unoptimized build's iterators allocate
            let layer = sublayers[k]
            let priority = Self.rankPriority(layer)
            var above = last
            var below: Int32 = -1
            while above >= 0 && Self.rankPriority(above) < priority {
                leaveSpine(above)
                below = above
                above = rankNode(above)[Self.rankParent]
            }
            setRankNode(SIMD4(below, -1, above, Int32(truncatingIfNeeded: k)), of: layer)
            if below >= 0 { setRankLane(Self.rankParent, of: below, to: layer) }
            if above >= 0 { setRankLane(Self.rankRight, of: above, to: layer) }
            last = layer
            k += 1
        }
        var root: Int32 = -1
        while last >= 0 {
            leaveSpine(last)
            root = last
            last = rankNode(last)[Self.rankParent]
        }
        rankRoots[list] = root
        rankCounts[list] = Int32(truncatingIfNeeded: sublayers.count)
    }

    /// `buildRanks`: `layer`, on the spine (its parent too, if any), leaves it; its
    /// position becomes its left size.
    @inline(__always)
    private mutating func leaveSpine(_ layer: Int32) {
        var node = rankNode(layer)
        let parent = node[Self.rankParent]
        let first = parent >= 0 ? rankNode(parent)[Self.rankLeftSize] + 1 : 0
        node[Self.rankLeftSize] -= first
        setRankNode(node, of: layer)
    }

    /// Adds `layer`, just linked into list `list` between `previous` and `next` (-1: an
    /// end), both already in the tree: under `previous` on the right when it has no right
    /// child, else under `next` on the left (which then has none); the ancestors it is
    /// left of (none for an append) count it; then it rotates up while it outranks its
    /// parent. Expected O(log w), O(1) for an append; no allocation once the side table
    /// has room (`referenceSlot(of:)`).
    mutating func insertRank(_ layer: Int32, list: Int, previous: Int32, next: Int32) {
        _ = referenceSlot(of: Int(layer))
        rankCounts[list] += 1
        let root = rankRoots[list]
        guard root >= 0 else {
            setRankNode(SIMD4(-1, -1, -1, 0), of: layer)
            rankRoots[list] = layer
            return
        }
        let parent: Int32
        if previous >= 0 && rankNode(previous)[Self.rankRight] < 0 {
            parent = previous
            setRankLane(Self.rankRight, of: previous, to: layer)
        } else {
            parent = next
            setRankLane(Self.rankLeft, of: next, to: layer)
        }
        setRankNode(SIMD4(-1, -1, parent, 0), of: layer)
        if next >= 0 { countLeftAncestors(of: layer, 1) }
        let priority = Self.rankPriority(layer)
        while true {
            let above = rankNode(layer)[Self.rankParent]
            guard above >= 0 && Self.rankPriority(above) < priority else { break }
            rotateUp(layer, list: list)
        }
    }

    /// Takes `layer`, the last but one sublayer before `next` (-1: it is the last), out
    /// of the tree of list `list`: rotated down under its higher-priority child until it
    /// has at most one, uncounted by the ancestors it is left of, then replaced by that
    /// child. Expected O(log w), O(1) for the last sublayer; no allocation.
    mutating func removeRank(_ layer: Int32, list: Int, next: Int32) {
        rankCounts[list] -= 1
        var node = rankNode(layer)
        while node[Self.rankLeft] >= 0 && node[Self.rankRight] >= 0 {
            let (left, right) = (node[Self.rankLeft], node[Self.rankRight])
            rotateUp(Self.rankPriority(left) > Self.rankPriority(right) ? left : right, list: list)
            node = rankNode(layer)
        }
        if next >= 0 { countLeftAncestors(of: layer, -1) }
        let child = node[Self.rankLeft] >= 0 ? node[Self.rankLeft] : node[Self.rankRight]
        let parent = node[Self.rankParent]
        if child >= 0 { setRankLane(Self.rankParent, of: child, to: parent) }
        replaceChild(layer, with: child, under: parent, list: list)
        setRankNode(SIMD4(-1, -1, -1, 0), of: layer)
    }

    /// Adds `delta` to the left size of every ancestor of `layer` whose left subtree holds
    /// it. O(depth).
    @inline(__always)
    private mutating func countLeftAncestors(of layer: Int32, _ delta: Int32) {
        var current = layer
        var parent = rankNode(layer)[Self.rankParent]
        while parent >= 0 {
            let position = Int(referenceSlots[Int(parent)])
            let node = rankLinks[position]
            if node[Self.rankLeft] == current { rankLinks[position][Self.rankLeftSize] &+= delta }
            current = parent
            parent = node[Self.rankParent]
        }
    }

    /// In `parent`'s links (the root when -1), `old` becomes `new`.
    @inline(__always)
    private mutating func replaceChild(_ old: Int32, with new: Int32, under parent: Int32, list: Int) {
        if parent < 0 {
            rankRoots[list] = new
        } else if rankNode(parent)[Self.rankLeft] == old {
            setRankLane(Self.rankLeft, of: parent, to: new)
        } else {
            setRankLane(Self.rankRight, of: parent, to: new)
        }
    }

    /// Rotates `layer` above its parent, keeping the order and both left sizes. O(1).
    private mutating func rotateUp(_ layer: Int32, list: Int) {
        var node = rankNode(layer)
        let parent = node[Self.rankParent]
        var above = rankNode(parent)
        let grandparent = above[Self.rankParent]
        let moved: Int32  // the subtree that changes sides
        if above[Self.rankLeft] == layer {
            moved = node[Self.rankRight]
            above[Self.rankLeft] = moved
            node[Self.rankRight] = parent
            above[Self.rankLeftSize] -= node[Self.rankLeftSize] + 1
        } else {
            moved = node[Self.rankLeft]
            above[Self.rankRight] = moved
            node[Self.rankLeft] = parent
            node[Self.rankLeftSize] += above[Self.rankLeftSize] + 1
        }
        if moved >= 0 { setRankLane(Self.rankParent, of: moved, to: parent) }
        above[Self.rankParent] = layer
        node[Self.rankParent] = grandparent
        setRankNode(above, of: parent)
        setRankNode(node, of: layer)
        replaceChild(parent, with: layer, under: grandparent, list: list)
    }

    /// The sublayer at position `index` (in `0 ..< rankCount(list:)`) of list `list`.
    /// Expected O(log w).
    func rankedSublayer(at index: Int, list: Int) -> Int32 {
        var remaining = Int32(truncatingIfNeeded: index)
        var current = rankRoots[list]
        while current >= 0 {
            let node = rankNode(current)
            let before = node[Self.rankLeftSize]
            if remaining < before {
                current = node[Self.rankLeft]
            } else if remaining == before {
                return current
            } else {
                remaining -= before + 1
                current = node[Self.rankRight]
            }
        }
        return -1
    }

    /// The position of `layer` in its (indexed) list. Expected O(log w).
    func rank(of layer: Int32) -> Int {
        var node = rankNode(layer)
        var rank = node[Self.rankLeftSize]
        var current = layer
        while node[Self.rankParent] >= 0 {
            let parent = node[Self.rankParent]
            node = rankNode(parent)
            if node[Self.rankRight] == current { rank += 1 + node[Self.rankLeftSize] }
            current = parent
        }
        return Int(rank)
    }

    /// What is wrong with the tree of list `list` against `sublayers`, the list walked in
    /// order (for `_invariantViolations()`): every node's children linked back to it and
    /// outranked by it, its left size its left subtree's, the count the list's, and each
    /// position's sublayer the list's (both ways). O(w log w).
    func rankViolation(list: Int, _ sublayers: [Int32]) -> String? {
        let root = rankRoots[list]
        if rankCount(list: list) != sublayers.count {
            return "the rank tree counts \(rankCount(list: list)), not \(sublayers.count)"
        }
        if sublayers.isEmpty { return root < 0 ? nil : "an empty list has a rank root" }
        guard root >= 0, referenceSlots[Int(root)] >= 0, rankNode(root)[Self.rankParent] == -1 else {
            return "its rank root is wrong"
        }
        for layer in sublayers where referenceSlots[Int(layer)] < 0 { return "layer \(layer) has no rank node" }
        /// The nodes below `layer`, itself included: its left size plus one along its right chain.
        func size(_ layer: Int32) -> Int32 {
            var total: Int32 = 0
            var current = layer
            while current >= 0 {
                total += rankNode(current)[Self.rankLeftSize] + 1
                current = rankNode(current)[Self.rankRight]
            }
            return total
        }
        for layer in sublayers {
            let node = rankNode(layer)
            for child in [node[Self.rankLeft], node[Self.rankRight]] where child >= 0 {
                if referenceSlots[Int(child)] < 0 || rankNode(child)[Self.rankParent] != layer {
                    return "the rank node of \(layer) has a child \(child) that is not its"
                }
                if Self.rankPriority(child) > Self.rankPriority(layer) {
                    return "the rank node of \(layer) is outranked by its child \(child)"
                }
            }
            if node[Self.rankLeftSize] != size(node[Self.rankLeft]) {
                return "the left size of \(layer)'s rank node is not its left subtree's"
            }
        }
        if size(root) != sublayers.count { return "the rank tree holds \(size(root)), not \(sublayers.count)" }
        for (position, layer) in sublayers.enumerated() {
            if rankedSublayer(at: position, list: list) != layer || rank(of: layer) != position {
                return "position \(position) of the rank tree is not layer \(layer)"
            }
        }
        return nil
    }
}
