// Handles to slots and back: the one place a `LayerHandle` is checked. Every public
// accessor turns its handle into a slot here, then runs on the slot (index) form the
// kernels, the scene evaluator and the tests share.
//
// The O(1) public lookups (`contains(_:)`, `handle(at:)`, with `count` and `layerCount`) are
// `@inlinable` over `@usableFromInline` internals (the generations column's read): a
// non-mutating call made out of line on an `inout` store between writes is passed a copy of
// the whole store (~1.4 KB `memcpy`), which cost more than the lookup (Benchmarks/README.md,
// "Lookups without a store copy"). Inlined, the caller reads the column in place.

extension LayerStore {
    /// True when `layer` names a live layer of this store: it was returned by
    /// `addLayer(superlayer:)` (or read from the store, or from a store this one is a copy
    /// of, or a copy of it) and not destroyed since. False for a stale handle and for
    /// another store's. The form of the check that does not stop the program. O(1).
    /// Allocates nothing.
    @inlinable
    public func contains(_ layer: LayerHandle) -> Bool {
        let slot = layer.index
        // Live stamps are even (a free slot's is odd), and a stamp holds the store tag with
        // the generation, so one load decides.
        return layer.stamp & 1 == 0 && slot < count && hierarchy.generations.element(at: slot) == layer.stamp
    }

    /// The handle of the live layer in slot `index` (an index into a per-layer result),
    /// or nil when `index` is out of range or its slot is free. O(1); allocates nothing.
    @inlinable
    public func handle(at index: Int) -> LayerHandle? {
        guard isLiveSlot(index) else { return nil }
        return LayerHandle(slot: index, stamp: hierarchy.generations.element(at: index))
    }

    /// The handle of the layer in `slot`, which the caller knows is live.
    @inline(__always)
    func handle(atSlot slot: Int) -> LayerHandle {
        LayerHandle(slot: slot, stamp: hierarchy.generations[slot])
    }

    /// The slot of `layer`, which must be live: a stale handle, or another store's, stops
    /// the program with a message naming it (kept in release builds). O(1).
    @inline(__always)
    func slot(of layer: LayerHandle, file: StaticString = #file, line: UInt = #line) -> Int {
        if _slowPath(!contains(layer)) { staleHandle(layer, file: file, line: line) }
        return layer.index
    }

    /// `slot(of:)` for setters: mutating, so that an unoptimized build does not copy the
    /// whole store to call a non-mutating method.
    @inline(__always)
    mutating func slotForUpdate(of layer: LayerHandle, file: StaticString = #file, line: UInt = #line) -> Int {
        let slot = layer.index
        if _slowPath(!(layer.stamp & 1 == 0 && slot < count && hierarchy.generations[slot] == layer.stamp)) {
            staleHandle(layer, file: file, line: line)
        }
        return slot
    }

    /// True when `layer` carries another store's tag: not this store's, nor a copy's or
    /// an original's of it (they share the tag), nor a tag no store has (such a handle
    /// was made up, and is reported as stale). O(1).
    func isForeign(_ layer: LayerHandle) -> Bool {
        let tag = layer.storeTag
        return tag != hierarchy.storeTag && tag != 0 && tag <= LayerHandle.tagCount
    }

    /// The error for a handle that names no live layer, or nil when it names one.
    func staleError(_ layer: LayerHandle, superlayer: Bool = false) -> LayerStoreError? {
        if contains(layer) { return nil }
        if isForeign(layer) { return superlayer ? .foreignSuperlayer(layer) : .foreignLayer(layer) }
        return superlayer ? .staleSuperlayer(layer) : .staleLayer(layer)
    }

    @inline(never)
    func staleHandle(_ layer: LayerHandle, file: StaticString, line: UInt) -> Never {
        misuse(staleHandleMessage(layer), file: file, line: line)
    }

    /// Why `layer` names no live layer, in one line.
    func staleHandleMessage(_ layer: LayerHandle) -> String {
        let slot = layer.index
        if isForeign(layer) {
            return "\(layer) belongs to another store (store tag \(layer.storeTag); this store's is "
                + "\(hierarchy.storeTag)): a handle works only with the store that made it and its copies"
        }
        if slot >= count { return "\(layer) is stale: this store has no slot \(slot) (\(count) slots)" }
        let current = hierarchy.generations[slot] & LayerHandle.generationMask
        if layer.storeTag != hierarchy.storeTag || layer.generation & 1 == 1 || layer.generation > current {
            return "\(layer) is stale: no layer ever had this handle (slot \(slot) is at generation \(current), "
                + "and live layers' generations are even)"
        }
        if current & 1 == 1 { return "\(layer) is stale: the layer was destroyed and its slot is free" }
        return "\(layer) is stale: the layer was destroyed and slot \(slot) now holds generation \(current)"
    }
}
