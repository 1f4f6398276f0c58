// Adding, reparenting and removing layers; walking the hierarchy without recursion.

extension LayerStore {
    /// Adds a layer with Core Animation's defaults (zero bounds and position, anchor point
    /// (0.5, 0.5), identity transforms, visible) as the last sublayer of `superlayer`, or
    /// as the last root when `superlayer` is nil, and returns its handle. The layer takes
    /// a free slot (left by `destroyLayer(_:)`) when there is one, else a new slot at the
    /// end (`count` grows by one).
    ///
    /// Amortized O(1). Allocates nothing while the slots stay under 7/8 of the store's
    /// capacity or under its reserved capacity; past both, one add in every 1/64 of the
    /// headroom grows one column or cache array to twice the capacity, O(capacity) for
    /// that array alone (the growth policy: `reserveCapacity(_:)`).
    /// - Throws: `LayerStoreError.staleSuperlayer` or `.foreignSuperlayer` (another
    ///   store's handle), checked first, or `.tooManyLayers` (more than
    ///   `LayerStore.maximumLayerCount`); the store is then unchanged.
    @discardableResult
    public mutating func addLayer(superlayer: LayerHandle? = nil) throws(LayerStoreError) -> LayerHandle {
        if let superlayer, let error = staleError(superlayer, superlayer: true) { throw error }
        // Two statements: `handle(atSlot: try addLayer(...))` would read `self` (for the
        // outer call) before the inner one appends the new slot.
        let slot = try addLayer(superlayer: superlayer?.index)
        return handle(atSlot: slot)
    }

    /// Adds a layer with Core Animation's defaults as sublayer number `index` of
    /// `superlayer` (among the attached roots when nil), like
    /// `-[CALayer insertSublayer:atIndex:]` with a new layer: the row insert a list
    /// makes. `index` may equal the sublayer count (the end). The layer takes a free
    /// slot when there is one, as `addLayer(superlayer:)` does.
    ///
    /// Finding the place costs expected O(log w) in a list of w ≥ 64 sublayers once the
    /// caches are built (the first output-sensitive query or `warmUp()`: the list's rank
    /// tree), else O(index) (a walk of the list; the roots always); then amortized O(1),
    /// plus expected O(log w) to update a wide list's caches. Allocates as
    /// `addLayer(superlayer:)` does.
    /// - Throws: `.staleSuperlayer` or `.foreignSuperlayer`, `.sublayerIndexOutOfRange`
    ///   (with the sublayer count), `.tooManyLayers`, in that order; the store is then
    ///   unchanged.
    @discardableResult
    public mutating func addLayer(superlayer: LayerHandle?, at index: Int) throws(LayerStoreError) -> LayerHandle {
        if let superlayer, let error = staleError(superlayer, superlayer: true) { throw error }
        let slot = try addLayer(superlayer: superlayer?.index, at: index)
        return handle(atSlot: slot)
    }

    /// `addLayer(superlayer:at:)` on slots; returns the new layer's slot.
    @discardableResult
    mutating func addLayer(superlayer: Int?, at index: Int) throws(LayerStoreError) -> Int {
        if let superlayer, !isLiveSlot(superlayer) {
            throw LayerStoreError.staleSuperlayer(staleHandleForError(superlayer))
        }
        let parent = superlayer.map { Int32($0) } ?? -1
        // Checked before anything changes; -1 (no layer to skip) counts every sibling.
        let before = try sibling(at: index, under: parent, skipping: -1)
        let layer = try addLayer(superlayer: superlayer)
        if before >= 0 { relink(layer, under: parent, before: before) }
        return layer
    }

    /// `addLayer(superlayer:)` with the superlayer's slot; returns the new layer's slot.
    /// - Throws: `.staleSuperlayer` for a slot out of range or free, `.tooManyLayers`.
    @discardableResult
    @_disfavoredOverload
    mutating func addLayer(superlayer: Int?) throws(LayerStoreError) -> Int {
        if let superlayer, !isLiveSlot(superlayer) {
            throw LayerStoreError.staleSuperlayer(staleHandleForError(superlayer))
        }
        // By index, and flags below as constants: `.last` and option-set literals
        // allocate in unoptimized builds, and a frame loop's adds must not.
        if !hierarchy.freeSlots.isEmpty {
            let slot = hierarchy.freeSlots.removeLast()
            reviveFreeSlot(Int(slot), under: superlayer)
            return Int(slot)
        }
        if count >= hierarchy.layerLimit {
            throw LayerStoreError.tooManyLayers(limit: hierarchy.layerLimit)
        }
        let layer = count
        appendDefaultLayer()
        structureDidChange()
        linkAsLast(layer, under: superlayer.map { Int32($0) } ?? -1)
        // A new layer always comes after its superlayer, so the order property holds.
        return layer
    }

    /// A handle for an error about slot `slot` (out of range: generation 0 of this store).
    func staleHandleForError(_ slot: Int) -> LayerHandle {
        let inRange = slot >= 0 && slot < count
        let stamp = inRange ? hierarchy.generations[slot] : hierarchy.storeTag << LayerHandle.generationBits
        return LayerHandle(slot: max(slot, 0), stamp: stamp)
    }

    private mutating func appendDefaultLayer() {
        columns.boundsX.append(0)
        columns.boundsY.append(0)
        columns.boundsWidth.append(0)
        columns.boundsHeight.append(0)
        columns.positionX.append(0)
        columns.positionY.append(0)
        columns.anchorX.append(0.5)
        columns.anchorY.append(0.5)
        columns.zValues.append()
        columns.transforms.appendIdentity()
        columns.sublayerTransforms.appendIdentity()
        columns.flags.append([])
        columns.autoresizingMasks.append(0)
        columns.attributes.appendDefaults()
        hierarchy.parents.append(-1)
        hierarchy.firstSublayers.append(-1)
        hierarchy.lastSublayers.append(-1)
        hierarchy.nextSiblings.append(-1)
        hierarchy.previousSiblings.append(-1)
        hierarchy.generations.append(hierarchy.storeTag << LayerHandle.generationBits)  // generation 0
        caches.changes.appendLayer()
        caches.subtreeBounds.appendLayer()
    }

    /// Puts a new layer in free slot `slot` (a detached root with default properties)
    /// under `superlayer`.
    private mutating func reviveFreeSlot(_ slot: Int, under superlayer: Int?) {
        hierarchy.generations[slot] += 1  // odd (free) to even (live)
        columns.flags[slot] = LayerFlags(rawValue: 0)
        columns.detachedLayerCount -= 1
        relink(slot, under: superlayer.map { Int32($0) } ?? -1, before: -1)
    }

    /// The superlayer of `layer`, or nil for a root or a detached layer. O(1).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func superlayer(of layer: LayerHandle) -> LayerHandle? {
        superlayer(of: slot(of: layer)).map { handle(atSlot: $0) }
    }
    func superlayer(of layer: Int) -> Int? {
        checkIndex(layer)
        let parent = hierarchy.parents[layer]
        return parent < 0 ? nil : Int(parent)
    }

    /// How many sublayers `layer` has. O(1) for a layer of at least 64 sublayers once
    /// the caches are built (the first output-sensitive query or `warmUp()`), else
    /// O(sublayers); allocates nothing. Stops the program on a stale handle, like every
    /// accessor.
    public func sublayerCount(of layer: LayerHandle) -> Int {
        let slot = slot(of: layer)
        if let list = caches.subtreeBounds.rankedList(of: slot) {
            return caches.subtreeBounds.drift.rankCount(list: list)
        }
        var count = 0
        var current = hierarchy.firstSublayers[slot]
        while current >= 0 {
            count += 1
            current = hierarchy.nextSiblings[Int(current)]
        }
        return count
    }

    /// Sublayer number `index` of `layer` (in list order, before zPosition), or nil when
    /// `index` is not in `0 ..< sublayerCount(of: layer)`. Expected O(log w) for a layer
    /// of w ≥ 64 sublayers once the caches are built (the first output-sensitive query
    /// or `warmUp()`), else O(index); allocates nothing. Stops the program on a stale
    /// handle.
    public func sublayer(at index: Int, of layer: LayerHandle) -> LayerHandle? {
        guard index >= 0 else { return nil }
        let slot = slot(of: layer)
        if let list = caches.subtreeBounds.rankedList(of: slot) {
            guard index < caches.subtreeBounds.drift.rankCount(list: list) else { return nil }
            return handle(atSlot: Int(caches.subtreeBounds.drift.rankedSublayer(at: index, list: list)))
        }
        var current = hierarchy.firstSublayers[slot]
        var position = 0
        while current >= 0 && position < index {
            position += 1
            current = hierarchy.nextSiblings[Int(current)]
        }
        return current >= 0 ? handle(atSlot: Int(current)) : nil
    }

    /// The sublayers of `layer` in order (back to front, before zPosition). O(sublayers).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func sublayers(of layer: LayerHandle) -> [LayerHandle] {
        sublayers(of: slot(of: layer)).map { handle(atSlot: $0) }
    }
    func sublayers(of layer: Int) -> [Int] {
        checkIndex(layer)
        return siblings(startingAt: hierarchy.firstSublayers[layer])
    }

    /// The root layers (no superlayer, not detached) in order. O(roots).
    public var roots: [LayerHandle] { rootIndices.map { handle(atSlot: $0) } }

    /// The slots of `roots`.
    var rootIndices: [Int] {
        siblings(startingAt: hierarchy.firstRoot).filter { !columns.flags[$0].contains(.detached) }
    }

    private func siblings(startingAt first: Int32) -> [Int] {
        var result: [Int] = []
        var current = first
        while current >= 0 {
            result.append(Int(current))
            current = hierarchy.nextSiblings[Int(current)]
        }
        return result
    }

    /// Moves `layer` (with its subtree) into `superlayer`'s sublayers at position `index`
    /// (the end when nil), or among the roots when `superlayer` is nil, like
    /// `-[CALayer insertSublayer:atIndex:]`: it first leaves its old superlayer. A
    /// detached layer (`removeFromSuperlayer(_:)`) is attached again. Handles stay valid.
    ///
    /// O(depth) to check for cycles; then O(1) for `index == nil`, else expected O(log w)
    /// in a list of w ≥ 64 sublayers once the caches are built (the first
    /// output-sensitive query or `warmUp()`: the list's rank tree), and O(index)
    /// otherwise (a walk of the list; among the roots always). A wide list's caches add
    /// expected O(log w) amortized to either. Allocates nothing once the store has room.
    /// - Throws: checked in this order, before anything changes: `.staleLayer` or
    ///   `.foreignLayer` (another store's handle), `.staleSuperlayer` or
    ///   `.foreignSuperlayer`, `.cycle` (`superlayer` is the layer or inside its subtree),
    ///   `.sublayerIndexOutOfRange` (`index` outside `0...n`, n = the new superlayer's
    ///   sublayers, or the roots, other than `layer`); the store is then unchanged.
    public mutating func insertSublayer(_ layer: LayerHandle, into superlayer: LayerHandle?, at index: Int? = nil)
        throws(LayerStoreError)
    {
        if let error = staleError(layer) { throw error }
        if let superlayer, let error = staleError(superlayer, superlayer: true) { throw error }
        try insertSublayer(layer.index, into: superlayer?.index, at: index)
    }

    /// `insertSublayer(_:into:at:)` on slots; the same errors, for slots out of range or
    /// free.
    mutating func insertSublayer(_ layer: Int, into superlayer: Int?, at index: Int? = nil) throws(LayerStoreError) {
        guard isLiveSlot(layer) else { throw LayerStoreError.staleLayer(staleHandleForError(layer)) }
        if let superlayer {
            guard isLiveSlot(superlayer) else {
                throw LayerStoreError.staleSuperlayer(staleHandleForError(superlayer))
            }
            // The superlayer must not be the layer or one of its descendants: walk up.
            var ancestor = Int32(superlayer)
            while ancestor >= 0 {
                if Int(ancestor) == layer {
                    throw LayerStoreError.cycle(layer: handle(atSlot: layer), superlayer: handle(atSlot: superlayer))
                }
                ancestor = hierarchy.parents[Int(ancestor)]
            }
        }
        let newParent = superlayer.map { Int32($0) } ?? -1
        // The sibling to insert before, found (and the index checked) before anything
        // changes; appending needs no walk, so building a wide tree stays O(1) a step.
        var insertBefore: Int32 = -1
        if let index { insertBefore = try sibling(at: index, under: newParent, skipping: layer) }
        relink(layer, under: newParent, before: insertBefore)
        setDetached(false, layer)
    }

    /// The layer that sublayer `index` of `parent` (-1: the attached roots) is once `layer`
    /// (-1: none) is left out of the list, or -1 for `index` equal to that count (the end).
    /// Expected O(log w) in a list of w ≥ `SublayerIndex.minimumSublayers` sublayers once
    /// the caches are built (the first output-sensitive query or `warmUp()`): its rank
    /// tree (`SublayerRanks.swift`). Otherwise, the roots included, O(index): the walk.
    /// Allocates nothing.
    /// - Throws: `.sublayerIndexOutOfRange` for an index below 0 or past the end.
    func sibling(at index: Int, under parent: Int32, skipping layer: Int) throws(LayerStoreError) -> Int32 {
        guard parent >= 0, let list = caches.subtreeBounds.rankedList(of: Int(parent)) else {
            return try walkedSibling(at: index, under: parent, skipping: layer)
        }
        let skips = layer >= 0 && hierarchy.parents[layer] == parent
        let count = caches.subtreeBounds.drift.rankCount(list: list) - (skips ? 1 : 0)
        guard index >= 0 && index <= count else {
            throw LayerStoreError.sublayerIndexOutOfRange(index: index, sublayerCount: count)
        }
        if index == count { return -1 }
        // Past `layer`'s own position, the positions without it are one less.
        let skipped = skips && caches.subtreeBounds.drift.rank(of: Int32(truncatingIfNeeded: layer)) <= index
        return caches.subtreeBounds.drift.rankedSublayer(at: skipped ? index + 1 : index, list: list)
    }

    /// `sibling(at:under:skipping:)` by walking the linked list: O(index). Detached roots
    /// are skipped among the roots (they stay linked there). The reference the rank trees
    /// are tested against.
    func walkedSibling(at index: Int, under parent: Int32, skipping layer: Int) throws(LayerStoreError) -> Int32 {
        var current = parent >= 0 ? hierarchy.firstSublayers[Int(parent)] : hierarchy.firstRoot
        var position = 0
        while current >= 0 {
            let counted = Int(current) != layer && (parent >= 0 || !columns.flags[Int(current)].contains(.detached))
            if counted {
                if position == index { return current }
                position += 1
            }
            current = hierarchy.nextSiblings[Int(current)]
        }
        if index == position { return -1 }
        throw LayerStoreError.sublayerIndexOutOfRange(index: index, sublayerCount: position)
    }

    /// Takes `layer` (with its subtree) out of the layer tree, like
    /// `-[CALayer removeFromSuperlayer]`: it stays in the store with all its properties
    /// and its handle, but is not drawn, not hit and has no world rect or visibility until
    /// `insertSublayer(_:into:at:)` attaches it again. Its world transform is computed as
    /// if it were a root. Nothing happens when it is already detached. O(1), plus expected
    /// O(log w) in a list of w ≥ 64 sublayers once the caches are built (its R-tree leaf
    /// and rank-tree node leave).
    /// - Throws: `.staleLayer`, or `.foreignLayer` for another store's handle; the store
    ///   is then unchanged.
    public mutating func removeFromSuperlayer(_ layer: LayerHandle) throws(LayerStoreError) {
        if let error = staleError(layer) { throw error }
        try removeFromSuperlayer(layer.index)
    }

    /// `removeFromSuperlayer(_:)` on a slot.
    mutating func removeFromSuperlayer(_ layer: Int) throws(LayerStoreError) {
        guard isLiveSlot(layer) else { throw LayerStoreError.staleLayer(staleHandleForError(layer)) }
        if columns.flags[layer].contains(.detached) { return }
        relink(layer, under: -1, before: -1)
        setDetached(true, layer)
    }

    /// True when `slot` is in range and holds a live layer.
    /// A free slot's generation is odd (`generations`), so parity alone tells.
    /// Inlinable, for `handle(at:)`.
    @inlinable
    func isLiveSlot(_ slot: Int) -> Bool {
        slot >= 0 && slot < count && hierarchy.generations.element(at: slot) & 1 == 0
    }

    /// True when `layer` or one of its ancestors was removed from its superlayer
    /// (`removeFromSuperlayer(_:)`), so it is not part of the drawn tree. O(depth).
    /// - Precondition: `layer` is in `0 ..< count`.
    public func isDetached(_ layer: LayerHandle) -> Bool {
        isDetached(slot(of: layer))
    }
    func isDetached(_ layer: Int) -> Bool {
        checkIndex(layer)
        return columns.flags[topmostAncestor(of: layer)].contains(.detached)
    }

    /// The root of `layer`'s tree (itself for a root). O(depth).
    func topmostAncestor(of layer: Int) -> Int {
        var current = layer
        while hierarchy.parents[current] >= 0 { current = Int(hierarchy.parents[current]) }
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
        if parent > Int32(layer) || hierarchy.parentsPrecedeChildrenCache == false {
            hierarchy.parentsPrecedeChildrenCache = nil
        }
        caches.changes.markStructureChanged()
        structureDidChange()
    }

    /// Sets the `.detached` flag and keeps `detachedLayerCount`.
    private mutating func setDetached(_ detached: Bool, _ layer: Int) {
        guard columns.flags[layer].contains(.detached) != detached else { return }
        if detached {
            columns.flags[layer].insert(.detached)
            columns.detachedLayerCount += 1
        } else {
            columns.flags[layer].remove(.detached)
            columns.detachedLayerCount -= 1
        }
    }

    /// Destroys `layer` and its whole subtree: their handles become stale (every later
    /// use is detected) and their slots free, to be reused by `addLayer`. No other layer's
    /// handle or slot changes. O(subtree) (plus expected O(log w) for each destroyed layer
    /// of a list of w ≥ 64 sublayers once the caches are built), no recursion (a chain of
    /// any depth can be destroyed).
    ///
    /// - Returns: the number of layers destroyed.
    /// - Throws: `.staleLayer`, or `.foreignLayer` for another store's handle; the store
    ///   is then unchanged.
    @discardableResult
    public mutating func destroyLayer(_ layer: LayerHandle) throws(LayerStoreError) -> Int {
        if let error = staleError(layer) { throw error }
        return try destroyLayer(layer.index)
    }

    /// `destroyLayer(_:)` on a slot; returns how many layers it destroyed. The subtree's
    /// slots are gathered in `caches.structureScratch`, kept between calls, so a warmed-up frame
    /// loop's destroys allocate nothing.
    @discardableResult
    mutating func destroyLayer(_ layer: Int) throws(LayerStoreError) -> Int {
        guard isLiveSlot(layer) else { throw LayerStoreError.staleLayer(staleHandleForError(layer)) }
        var doomed = caches.structureScratch
        caches.structureScratch = []  // unshared while it is filled
        doomed.removeAll(keepingCapacity: true)
        forEachInSubtree(of: layer) { doomed.append(Int32(truncatingIfNeeded: $0)) }
        unlink(layer)
        // Sublayer pairs inside the subtree stop counting as z-order inversions: each
        // pair is counted once, by its first layer (all of whose siblings are doomed too).
        // Index loops: an unoptimized build allocates in the generic iterator.
        var k = 1
        while k < doomed.count {
            let slot = Int(doomed[k])
            if hierarchy.nextSiblings[slot] >= 0 {
                hierarchy.zOrderInversions -= zInversion(Int32(slot), hierarchy.nextSiblings[slot])
            }
            k += 1
        }
        // Freed in reverse pre-order, so the free list hands the slots back in pre-order:
        // a subtree rebuilt top down gets its superlayers' slots before its sublayers'.
        k = doomed.count
        while k > 0 {
            k -= 1
            freeSlot(Int(doomed[k]))
        }
        caches.changes.markStructureChanged()
        structureDidChange()
        let destroyed = doomed.count
        caches.structureScratch = doomed
        return destroyed
    }

    /// Resets `slot` to a free, detached root with default properties and a new
    /// generation. Its sublayer links are dropped without unlinking (the whole subtree
    /// is being freed).
    private mutating func freeSlot(_ slot: Int) {
        columns.boundsX[slot] = 0
        columns.boundsY[slot] = 0
        columns.boundsWidth[slot] = 0
        columns.boundsHeight[slot] = 0
        columns.positionX[slot] = 0
        columns.positionY[slot] = 0
        columns.anchorX[slot] = 0.5
        columns.anchorY[slot] = 0.5
        columns.zValues.setZPosition(0, at: slot)
        columns.zValues.setAnchorPointZ(0, at: slot)
        columns.transforms.set(.identity, at: slot)
        columns.sublayerTransforms.set(.identity, at: slot)
        if columns.autoresizingMasks[slot] != 0 { columns.autoresizingLayerCount -= 1 }
        columns.autoresizingMasks[slot] = 0
        columns.attributes.resetToDefaults(at: slot)
        columns.scrollViews[Int32(slot)] = nil
        if !columns.flags[slot].contains(.detached) { columns.detachedLayerCount += 1 }
        columns.flags[slot] = LayerFlags.detached
        // Its sublayer links are dropped below: its union and sorted list must go too.
        caches.subtreeBounds.mark(slot, SubtreeBounds.Mark.sublayerList)
        caches.drawOrderCache.markDirty(slot)
        // It leaves its (doomed) superlayer's list without an unlink: its leaf there goes.
        if hierarchy.parents[slot] >= 0 { noteListChange(slot, superlayer: hierarchy.parents[slot], joined: false) }
        hierarchy.parents[slot] = -1
        hierarchy.previousSiblings[slot] = -1
        hierarchy.nextSiblings[slot] = -1
        hierarchy.firstSublayers[slot] = -1
        hierarchy.lastSublayers[slot] = -1
        linkAsLast(slot, under: -1)
        hierarchy.generations[slot] += 1  // even (live) to odd (free): every handle to it is stale
        // A slot whose generation would wrap (20 bits, LayerHandle) is retired instead of
        // reused, so an old handle can never name a new layer.
        if hierarchy.generations[slot] & LayerHandle.generationMask == LayerHandle.generationMask { return }
        hierarchy.freeSlots.append(Int32(slot))
    }

    /// Calls `body` for `layer` and every layer below it, in depth-first pre-order,
    /// with an explicit stack (no recursion, so any depth works).
    func forEachInSubtree(of layer: Int, _ body: (Int) -> Void) {
        body(layer)
        var current = hierarchy.firstSublayers[layer]
        while current >= 0 {
            body(Int(current))
            // Next in pre-order: first child, else next sibling of the nearest ancestor
            // (below `layer`) that has one.
            if hierarchy.firstSublayers[Int(current)] >= 0 {
                current = hierarchy.firstSublayers[Int(current)]
                continue
            }
            while current >= 0 && Int(current) != layer && hierarchy.nextSiblings[Int(current)] < 0 {
                current = hierarchy.parents[Int(current)]
            }
            if current < 0 || Int(current) == layer { break }
            current = hierarchy.nextSiblings[Int(current)]
        }
    }

    /// Every live layer in depth-first pre-order over the roots and their sublayers
    /// (sublayer order, zPosition ignored): each layer comes after its superlayer.
    /// Detached subtrees are included, as roots. O(count), no recursion.
    public func preorder() -> [LayerHandle] {
        preorderIndices().filter { isLiveSlot($0) }.map { handle(atSlot: $0) }
    }

    /// The slots of every layer, free ones included, in pre-order over all roots
    /// (detached ones too): the order index-independent passes visit.
    func preorderIndices() -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(count)
        var root = hierarchy.firstRoot
        while root >= 0 {
            forEachInSubtree(of: Int(root)) { order.append($0) }
            root = hierarchy.nextSiblings[Int(root)]
        }
        return order
    }

    /// True when every layer's superlayer has a smaller index, so a single pass in index
    /// order visits parents before children (the common case: layers are appended under
    /// existing ones). O(1) when known (the usual case), else O(count).
    var parentsPrecedeChildren: Bool {
        if let cached = hierarchy.parentsPrecedeChildrenCache { return cached }
        for index in 0..<count where hierarchy.parents[index] >= Int32(truncatingIfNeeded: index) { return false }
        return true
    }

    /// Fills the cache behind `parentsPrecedeChildren` (after structural changes).
    mutating func refreshParentOrderCache() {
        hierarchy.parentsPrecedeChildrenCache = parentsPrecedeChildren
    }

    // MARK: Linked-list surgery

    private mutating func linkAsLast(_ layer: Int, under parent: Int32) {
        let previousLast = parent >= 0 ? hierarchy.lastSublayers[Int(parent)] : hierarchy.lastRoot
        if parent >= 0 { hierarchy.zOrderInversions += zInversion(previousLast, Int32(layer)) }
        hierarchy.parents[layer] = parent
        hierarchy.previousSiblings[layer] = previousLast
        hierarchy.nextSiblings[layer] = -1
        if previousLast >= 0 { hierarchy.nextSiblings[Int(previousLast)] = Int32(layer) }
        if parent >= 0 {
            if hierarchy.firstSublayers[Int(parent)] < 0 { hierarchy.firstSublayers[Int(parent)] = Int32(layer) }
            hierarchy.lastSublayers[Int(parent)] = Int32(layer)
        } else {
            if hierarchy.firstRoot < 0 { hierarchy.firstRoot = Int32(layer) }
            hierarchy.lastRoot = Int32(layer)
        }
        noteListChange(layer, superlayer: parent, joined: true)
    }

    private mutating func linkBefore(_ layer: Int, sibling: Int32, under parent: Int32) {
        let previous = hierarchy.previousSiblings[Int(sibling)]
        if parent >= 0 {
            hierarchy.zOrderInversions +=
                zInversion(previous, Int32(layer)) + zInversion(Int32(layer), sibling)
                - zInversion(previous, sibling)
        }
        hierarchy.parents[layer] = parent
        hierarchy.previousSiblings[layer] = previous
        hierarchy.nextSiblings[layer] = sibling
        hierarchy.previousSiblings[Int(sibling)] = Int32(layer)
        if previous >= 0 {
            hierarchy.nextSiblings[Int(previous)] = Int32(layer)
        } else if parent >= 0 {
            hierarchy.firstSublayers[Int(parent)] = Int32(layer)
        } else {
            hierarchy.firstRoot = Int32(layer)
        }
        noteListChange(layer, superlayer: parent, joined: true)
    }

    private mutating func unlink(_ layer: Int) {
        let parent = hierarchy.parents[layer]
        let previous = hierarchy.previousSiblings[layer]
        let next = hierarchy.nextSiblings[layer]
        noteListChange(layer, superlayer: parent, joined: false)
        if parent >= 0 {
            hierarchy.zOrderInversions +=
                zInversion(previous, next)
                - zInversion(previous, Int32(layer)) - zInversion(Int32(layer), next)
        }
        if previous >= 0 {
            hierarchy.nextSiblings[Int(previous)] = next
        } else if parent >= 0 {
            hierarchy.firstSublayers[Int(parent)] = next
        } else {
            hierarchy.firstRoot = next
        }
        if next >= 0 {
            hierarchy.previousSiblings[Int(next)] = previous
        } else if parent >= 0 {
            hierarchy.lastSublayers[Int(parent)] = previous
        } else {
            hierarchy.lastRoot = previous
        }
        hierarchy.parents[layer] = -1
        hierarchy.previousSiblings[layer] = -1
        hierarchy.nextSiblings[layer] = -1
    }
}
