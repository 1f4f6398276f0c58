// Adding, reparenting and removing layers; walking the hierarchy without recursion.

extension LayerStore {
    /// Adds a layer with Core Animation's defaults (zero bounds and position, anchor point
    /// (0.5, 0.5), identity transforms, visible) as the last sublayer of `superlayer`, or
    /// as the last root when `superlayer` is nil. Returns its index, the old `count`.
    ///
    /// Amortized O(1).
    /// - Throws: `LayerStoreError.parentOutOfRange` (checked first) or `.tooManyLayers`
    ///   (more than `LayerStore.maximumLayerCount`); the store is then unchanged.
    @discardableResult
    public mutating func addLayer(superlayer: Int? = nil) throws -> Int {
        let count = self.count  // `||` takes an autoclosure: capturing self copies the store in debug builds
        if let superlayer, superlayer < 0 || superlayer >= count {
            throw LayerStoreError.parentOutOfRange(parent: superlayer, count: count)
        }
        if count >= layerLimit {
            throw LayerStoreError.tooManyLayers(limit: layerLimit)
        }
        let layer = count
        boundsX.append(0)
        boundsY.append(0)
        boundsWidth.append(0)
        boundsHeight.append(0)
        positionX.append(0)
        positionY.append(0)
        anchorX.append(0.5)
        anchorY.append(0.5)
        zPositions.append(0)
        anchorPointZs.append(0)
        transforms.appendIdentity()
        sublayerTransforms.appendIdentity()
        flags.append([])
        autoresizingMasks.append(0)
        parents.append(-1)
        firstSublayers.append(-1)
        lastSublayers.append(-1)
        nextSiblings.append(-1)
        previousSiblings.append(-1)
        changes.appendLayer()
        structureDidChange()
        linkAsLast(layer, under: superlayer.map { Int32($0) } ?? -1)
        // A new layer always comes after its superlayer, so the order property holds.
        return layer
    }

    /// The superlayer of `layer`, or nil for a root or a detached layer. O(1).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func superlayer(of layer: Int) -> Int? {
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

    /// The root layers (no superlayer, not detached) in order. O(roots).
    public var roots: [Int] { siblings(startingAt: firstRoot).filter { !flags[$0].contains(.detached) } }

    private func siblings(startingAt first: Int32) -> [Int] {
        var result: [Int] = []
        var current = first
        while current >= 0 {
            result.append(Int(current))
            current = nextSiblings[Int(current)]
        }
        return result
    }

    /// Moves `layer` (with its subtree) into `superlayer`'s sublayers at position `index`
    /// (the end when nil), or among the roots when `superlayer` is nil, like
    /// `-[CALayer insertSublayer:atIndex:]`: it first leaves its old superlayer. A
    /// detached layer (`removeFromSuperlayer(_:)`) is attached again.
    ///
    /// O(1) for `index == nil`, O(sublayers) otherwise; O(depth) to check for cycles.
    /// - Throws: checked in this order, before anything changes: `.layerOutOfRange`,
    ///   `.parentOutOfRange`, `.cycle` (`superlayer` is the layer or inside its subtree),
    ///   `.sublayerIndexOutOfRange` (`index` outside `0...n`, n = the new superlayer's
    ///   sublayers, or the roots, other than `layer`); the store is then unchanged. Never
    ///   a precondition: indices here often come from data (scene files, editors).
    public mutating func insertSublayer(_ layer: Int, into superlayer: Int?, at index: Int? = nil) throws {
        guard layer >= 0 && layer < count else { throw LayerStoreError.layerOutOfRange(layer: layer, count: count) }
        if let superlayer {
            guard superlayer >= 0 && superlayer < count else {
                throw LayerStoreError.parentOutOfRange(parent: superlayer, count: count)
            }
            // The superlayer must not be the layer or one of its descendants: walk up.
            var ancestor = Int32(superlayer)
            while ancestor >= 0 {
                if Int(ancestor) == layer { throw LayerStoreError.cycle(layer: layer, parent: superlayer) }
                ancestor = parents[Int(ancestor)]
            }
        }
        let newParent = superlayer.map { Int32($0) } ?? -1
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
        relink(layer, under: newParent, before: insertBefore)
        setDetached(false, layer)
    }

    /// Takes `layer` (with its subtree) out of the layer tree, like
    /// `-[CALayer removeFromSuperlayer]`: it stays in the store with all its properties,
    /// but is not drawn, not hit and has no world rect or visibility until
    /// `insertSublayer(_:into:at:)` attaches it again. Its world transform is computed as
    /// if it were a root. Nothing happens when it is already detached.
    /// O(1) (O(sublayers of its old superlayer) is not needed: it is unlinked in place).
    /// - Throws: `.layerOutOfRange`; the store is then unchanged.
    public mutating func removeFromSuperlayer(_ layer: Int) throws {
        guard layer >= 0 && layer < count else { throw LayerStoreError.layerOutOfRange(layer: layer, count: count) }
        if flags[layer].contains(.detached) { return }
        relink(layer, under: -1, before: -1)
        setDetached(true, layer)
    }

    /// True when `layer` or one of its ancestors was removed from its superlayer
    /// (`removeFromSuperlayer(_:)`), so it is not part of the drawn tree. O(depth).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func isDetached(_ layer: Int) -> Bool {
        checkIndex(layer)
        return flags[topmostAncestor(of: layer)].contains(.detached)
    }

    /// The root of `layer`'s tree (itself for a root). O(depth).
    func topmostAncestor(of layer: Int) -> Int {
        var current = layer
        while parents[current] >= 0 { current = Int(parents[current]) }
        return current
    }

    /// Moves `layer` under `parent` (-1: among the roots), before `sibling` (-1: last),
    /// and records the structural change.
    private mutating func relink(_ layer: Int, under parent: Int32, before sibling: Int32) {
        unlink(layer)
        if sibling >= 0 {
            linkBefore(layer, sibling: sibling, under: parent)
        } else {
            linkAsLast(layer, under: parent)
        }
        if parent > Int32(layer) || parentsPrecedeChildrenCache == false {
            parentsPrecedeChildrenCache = nil
        }
        changes.markStructureChanged()
        structureDidChange()
    }

    /// Sets the `.detached` flag and keeps `detachedLayerCount`.
    private mutating func setDetached(_ detached: Bool, _ layer: Int) {
        guard flags[layer].contains(.detached) != detached else { return }
        if detached {
            flags[layer].insert(.detached)
            detachedLayerCount += 1
        } else {
            flags[layer].remove(.detached)
            detachedLayerCount -= 1
        }
    }

    /// Removes `layer` and its whole subtree from the store. Later layers' indices shift
    /// down to close the gaps, keeping their relative order. O(count), no recursion (a
    /// chain of any depth can be removed); transient memory about one column's size.
    ///
    /// - Returns: the removed layers' old indices, ascending.
    /// - Throws: `.layerOutOfRange`; the store is then unchanged.
    @discardableResult
    public mutating func destroyLayer(_ layer: Int) throws -> [Int] {
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
    var parentsPrecedeChildren: Bool {
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
            zOrderInversions +=
                zInversion(previous, Int32(layer)) + zInversion(Int32(layer), sibling)
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
        let parent = parents[layer]
        let previous = previousSiblings[layer]
        let next = nextSiblings[layer]
        if parent >= 0 {
            zOrderInversions +=
                zInversion(previous, next)
                - zInversion(previous, Int32(layer)) - zInversion(Int32(layer), next)
        }
        if previous >= 0 {
            nextSiblings[Int(previous)] = next
        } else if parent >= 0 {
            firstSublayers[Int(parent)] = next
        } else {
            firstRoot = next
        }
        if next >= 0 {
            previousSiblings[Int(next)] = previous
        } else if parent >= 0 {
            lastSublayers[Int(parent)] = previous
        } else {
            lastRoot = previous
        }
        parents[layer] = -1
        previousSiblings[layer] = -1
        nextSiblings[layer] = -1
    }

    /// Drops the layers whose `keep` flag is false and renumbers every link.
    private mutating func compact(keeping keep: [Bool]) {
        var newIndex = [Int32](repeating: -1, count: count)
        var next: Int32 = 0
        for index in 0..<count where keep[index] {
            newIndex[index] = next
            next += 1
        }
        let newCount = Int(next)
        func remap(_ link: Int32) -> Int32 { link < 0 ? -1 : newIndex[Int(link)] }
        boundsX = compacted(boundsX, keep)
        boundsY = compacted(boundsY, keep)
        boundsWidth = compacted(boundsWidth, keep)
        boundsHeight = compacted(boundsHeight, keep)
        positionX = compacted(positionX, keep)
        positionY = compacted(positionY, keep)
        anchorX = compacted(anchorX, keep)
        anchorY = compacted(anchorY, keep)
        zPositions = compacted(zPositions, keep)
        anchorPointZs = compacted(anchorPointZs, keep)
        transforms.compact(keeping: keep, newCount: newCount)
        sublayerTransforms.compact(keeping: keep, newCount: newCount)
        flags = compacted(flags, keep)
        detachedLayerCount = flags.lazy.filter { $0.contains(.detached) }.count
        autoresizingMasks = compacted(autoresizingMasks, keep)
        autoresizingLayerCount = autoresizingMasks.lazy.filter { $0 != 0 }.count
        parents = compacted(parents, keep).map(remap)
        firstSublayers = compacted(firstSublayers, keep).map(remap)
        lastSublayers = compacted(lastSublayers, keep).map(remap)
        nextSiblings = compacted(nextSiblings, keep).map(remap)
        previousSiblings = compacted(previousSiblings, keep).map(remap)
        firstRoot = remap(firstRoot)
        lastRoot = remap(lastRoot)
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
