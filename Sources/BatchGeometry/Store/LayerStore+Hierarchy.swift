// Adding, reparenting and removing layers; walking the hierarchy without recursion.

extension LayerStore {
    /// Adds a layer with Core Animation's defaults (zero bounds and position, anchor point
    /// (0.5, 0.5), identity transforms, visible) as the last sublayer of `parent`, or as
    /// the last root when `parent` is nil. Returns its index, which is the old `count`.
    ///
    /// Amortized O(1).
    /// - Throws: `LayerStoreError.parentOutOfRange` (checked first) or `.tooManyLayers`
    ///   (more than `LayerStore.maximumLayerCount`); the store is then unchanged.
    @discardableResult
    public mutating func addLayer(parent: Int? = nil) throws -> Int {
        let count = self.count  // `||` takes an autoclosure: capturing self copies the store in debug builds
        if let parent, parent < 0 || parent >= count {
            throw LayerStoreError.parentOutOfRange(parent: parent, count: count)
        }
        if count >= layerLimit {
            throw LayerStoreError.tooManyLayers(limit: layerLimit)
        }
        let layer = count
        boundsX.append(0); boundsY.append(0); boundsWidth.append(0); boundsHeight.append(0)
        positionX.append(0); positionY.append(0)
        anchorX.append(0.5); anchorY.append(0.5)
        zPositions.append(0); anchorPointZs.append(0)
        transforms.appendIdentity(); sublayerTransforms.appendIdentity()
        flags.append([]); autoresizingMasks.append(0)
        parents.append(-1); firstSublayers.append(-1); lastSublayers.append(-1)
        nextSiblings.append(-1); previousSiblings.append(-1)
        changes.appendLayer()
        structureDidChange()
        linkAsLast(layer, under: parent.map { Int32($0) } ?? -1)
        // A new layer always comes after its superlayer, so the order property holds.
        return layer
    }

    /// The superlayer of `layer`, or nil for a root. O(1).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func parent(of layer: Int) -> Int? {
        checkIndex(layer)
        let parent = parents[layer]
        return parent < 0 ? nil : Int(parent)
    }

    /// The sublayers of `layer` in order (back to front, before zPosition). O(sublayers).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func sublayers(of layer: Int) -> [Int] {
        checkIndex(layer)
        return siblings(startingAt: firstSublayers[layer])
    }

    /// The root layers (those without a superlayer) in order. O(roots).
    public var roots: [Int] { siblings(startingAt: firstRoot) }

    private func siblings(startingAt first: Int32) -> [Int] {
        var result: [Int] = []
        var current = first
        while current >= 0 {
            result.append(Int(current))
            current = nextSiblings[Int(current)]
        }
        return result
    }

    /// Moves `layer` (with its subtree) to be a sublayer of `parent` at position `index`
    /// of its sublayers (the end when nil), or a root when `parent` is nil. Like
    /// `-[CALayer insertSublayer:atIndex:]`, it first leaves its old superlayer.
    ///
    /// O(1) for `index == nil`, O(sublayers) otherwise; O(depth) to check for cycles.
    /// - Throws: checked in this order, before anything changes: `.layerOutOfRange`,
    ///   `.parentOutOfRange`, `.cycle` (parent is the layer or inside its subtree),
    ///   `.sublayerIndexOutOfRange` (`index` outside `0...n`, n = the new superlayer's
    ///   sublayers other than `layer`); the store is then unchanged. Never a precondition:
    ///   indices here often come from data (scene files, editors).
    public mutating func setParent(of layer: Int, to parent: Int?, at index: Int? = nil) throws {
        guard layer >= 0 && layer < count else { throw LayerStoreError.layerOutOfRange(layer: layer, count: count) }
        if let parent {
            guard parent >= 0 && parent < count else {
                throw LayerStoreError.parentOutOfRange(parent: parent, count: count)
            }
            // The parent must not be the layer or one of its descendants: walk up from it.
            var ancestor = Int32(parent)
            while ancestor >= 0 {
                if Int(ancestor) == layer { throw LayerStoreError.cycle(layer: layer, parent: parent) }
                ancestor = parents[Int(ancestor)]
            }
        }
        let newParent = parent.map { Int32($0) } ?? -1
        // The sibling to insert before, found (and the index checked) before anything
        // changes; appending needs no walk, so building a wide tree stays O(1) a step.
        var insertBefore: Int32 = -1
        if let index {
            let siblingsOfNewParent = newParent >= 0 ? sublayers(of: Int(newParent)) : roots
            let remaining = siblingsOfNewParent.filter { $0 != layer }
            if index < 0 || index > remaining.count {
                throw LayerStoreError.sublayerIndexOutOfRange(index: index, sublayerCount: remaining.count)
            }
            if index < remaining.count { insertBefore = Int32(remaining[index]) }
        }
        unlink(layer)
        if insertBefore >= 0 {
            linkBefore(layer, sibling: insertBefore, under: newParent)
        } else {
            linkAsLast(layer, under: newParent)
        }
        if newParent > Int32(layer) || parentsPrecedeChildrenCache == false {
            parentsPrecedeChildrenCache = nil
        }
        changes.markStructureChanged()
        structureDidChange()
    }

    /// Removes `layer` and its whole subtree from the store. Later layers' indices shift
    /// down to close the gaps, keeping their relative order. O(count), no recursion (a
    /// chain of any depth can be removed); transient memory about one column's size.
    ///
    /// - Returns: the removed layers' old indices, ascending.
    /// - Throws: `.layerOutOfRange`; the store is then unchanged.
    @discardableResult
    public mutating func removeLayer(_ layer: Int) throws -> [Int] {
        guard layer >= 0 && layer < count else { throw LayerStoreError.layerOutOfRange(layer: layer, count: count) }
        var keep = Array(repeating: true, count: count)
        var removed: [Int] = []
        forEachInSubtree(of: layer) { keep[$0] = false }
        for index in 0..<count where !keep[index] { removed.append(index) }
        unlink(layer)
        compact(keeping: keep)
        structureDidChange()
        return removed
    }

    /// Calls `body` for `layer` and every layer below it, in depth-first pre-order,
    /// with an explicit stack (no recursion, so any depth works).
    func forEachInSubtree(of layer: Int, _ body: (Int) -> Void) {
        body(layer)
        var current = firstSublayers[layer]
        while current >= 0 {
            body(Int(current))
            // Next in pre-order: first child, else next sibling of the nearest ancestor
            // (below `layer`) that has one.
            if firstSublayers[Int(current)] >= 0 {
                current = firstSublayers[Int(current)]
                continue
            }
            while current >= 0 && Int(current) != layer && nextSiblings[Int(current)] < 0 {
                current = parents[Int(current)]
            }
            if current < 0 || Int(current) == layer { break }
            current = nextSiblings[Int(current)]
        }
    }

    /// Every layer in depth-first pre-order over the roots and their sublayers (sublayer
    /// order, zPosition ignored): each layer comes after its superlayer. O(count), no
    /// recursion.
    public func preorder() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count)
        var root = firstRoot
        while root >= 0 {
            forEachInSubtree(of: Int(root)) { order.append($0) }
            root = nextSiblings[Int(root)]
        }
        return order
    }

    /// True when every layer's superlayer has a smaller index, so a single pass in index
    /// order visits parents before children (the common case: layers are appended under
    /// existing ones). O(1) when known (the usual case), else O(count).
    public var parentsPrecedeChildren: Bool {
        if let cached = parentsPrecedeChildrenCache { return cached }
        for index in 0..<count where parents[index] >= Int32(truncatingIfNeeded: index) { return false }
        return true
    }

    /// Fills the cache behind `parentsPrecedeChildren` (after structural changes).
    mutating func refreshParentOrderCache() {
        parentsPrecedeChildrenCache = parentsPrecedeChildren
    }

    // MARK: Linked-list surgery

    private mutating func linkAsLast(_ layer: Int, under parent: Int32) {
        let previousLast = parent >= 0 ? lastSublayers[Int(parent)] : lastRoot
        if parent >= 0 { zOrderInversions += zInversion(previousLast, Int32(layer)) }
        parents[layer] = parent
        previousSiblings[layer] = previousLast
        nextSiblings[layer] = -1
        if previousLast >= 0 { nextSiblings[Int(previousLast)] = Int32(layer) }
        if parent >= 0 {
            if firstSublayers[Int(parent)] < 0 { firstSublayers[Int(parent)] = Int32(layer) }
            lastSublayers[Int(parent)] = Int32(layer)
        } else {
            if firstRoot < 0 { firstRoot = Int32(layer) }
            lastRoot = Int32(layer)
        }
    }

    private mutating func linkBefore(_ layer: Int, sibling: Int32, under parent: Int32) {
        let previous = previousSiblings[Int(sibling)]
        if parent >= 0 {
            zOrderInversions += zInversion(previous, Int32(layer)) + zInversion(Int32(layer), sibling)
                - zInversion(previous, sibling)
        }
        parents[layer] = parent
        previousSiblings[layer] = previous
        nextSiblings[layer] = sibling
        previousSiblings[Int(sibling)] = Int32(layer)
        if previous >= 0 {
            nextSiblings[Int(previous)] = Int32(layer)
        } else if parent >= 0 {
            firstSublayers[Int(parent)] = Int32(layer)
        } else {
            firstRoot = Int32(layer)
        }
    }

    private mutating func unlink(_ layer: Int) {
        let parent = parents[layer], previous = previousSiblings[layer], next = nextSiblings[layer]
        if parent >= 0 {
            zOrderInversions += zInversion(previous, next)
                - zInversion(previous, Int32(layer)) - zInversion(Int32(layer), next)
        }
        if previous >= 0 { nextSiblings[Int(previous)] = next }
        else if parent >= 0 { firstSublayers[Int(parent)] = next }
        else { firstRoot = next }
        if next >= 0 { previousSiblings[Int(next)] = previous }
        else if parent >= 0 { lastSublayers[Int(parent)] = previous }
        else { lastRoot = previous }
        parents[layer] = -1; previousSiblings[layer] = -1; nextSiblings[layer] = -1
    }

    /// Drops the layers whose `keep` flag is false and renumbers every link.
    private mutating func compact(keeping keep: [Bool]) {
        var newIndex = [Int32](repeating: -1, count: count)
        var next: Int32 = 0
        for index in 0..<count where keep[index] { newIndex[index] = next; next += 1 }
        let newCount = Int(next)
        func remap(_ link: Int32) -> Int32 { link < 0 ? -1 : newIndex[Int(link)] }
        boundsX = compacted(boundsX, keep); boundsY = compacted(boundsY, keep)
        boundsWidth = compacted(boundsWidth, keep); boundsHeight = compacted(boundsHeight, keep)
        positionX = compacted(positionX, keep); positionY = compacted(positionY, keep)
        anchorX = compacted(anchorX, keep); anchorY = compacted(anchorY, keep)
        zPositions = compacted(zPositions, keep); anchorPointZs = compacted(anchorPointZs, keep)
        transforms.compact(keeping: keep, newCount: newCount)
        sublayerTransforms.compact(keeping: keep, newCount: newCount)
        flags = compacted(flags, keep)
        autoresizingMasks = compacted(autoresizingMasks, keep)
        autoresizingLayerCount = autoresizingMasks.lazy.filter { $0 != 0 }.count
        parents = compacted(parents, keep).map(remap)
        firstSublayers = compacted(firstSublayers, keep).map(remap)
        lastSublayers = compacted(lastSublayers, keep).map(remap)
        nextSiblings = compacted(nextSiblings, keep).map(remap)
        previousSiblings = compacted(previousSiblings, keep).map(remap)
        firstRoot = remap(firstRoot); lastRoot = remap(lastRoot)
        var newScrollViews: [Int32: ScrollViewState] = [:]
        for (layer, state) in scrollViews where keep[Int(layer)] { newScrollViews[newIndex[Int(layer)]] = state }
        scrollViews = newScrollViews
        changes.compact(keeping: keep)
        worldCache = nil
        zOrderInversions = countZOrderInversions()
        // Removal keeps relative order, so it cannot break "parents first"; it can only
        // repair it if the offending layers were removed.
        if parentsPrecedeChildrenCache == false { parentsPrecedeChildrenCache = nil }
    }
}
