/// `zPosition` and `anchorPointZ` of every layer, kept sparsely (issue 22): both are
/// zero for almost every layer, so a layer whose two values are `+0` holds no entry, and
/// the others hold one pair in a side table found through `slots` (one `Int32` a layer,
/// -1: no entry), made when the first entry is stored or by `warmUp()` (so that a frame
/// does not make them): a store whose z values are all zero and that was never warmed up
/// pays nothing, any other 4 bytes a layer plus 16 an entry, instead of 16 bytes a layer. The values read back bit for bit (a `-0` or a NaN takes
/// an entry); a layer keeps its entry once it has one (zeros written into it), so cards
/// whose zPosition goes back and forth never grow the table, as `TransformColumns` keeps
/// its 3D entries.
///
/// `nonFiniteCount` counts the layers with a non-finite value: at zero, the plan build
/// and the frame query's checks (`areFinite(at:)`) read nothing.
struct ZValueColumns: Sendable {
    private(set) var count = 0
    /// Per layer, the index of its entry in `entries` or -1; empty until the first entry.
    private(set) var slots: RemappedColumn<Int32> = []
    /// zPosition, anchorPointZ of each layer that has an entry: entry `k` at `2k`,
    /// `2k + 1` (plain `Double`s: a `SIMD2` element made the first out-of-order frame
    /// instantiate its generic metadata, an allocation).
    private(set) var entries: [Double] = []
    /// How many layers have a non-finite zPosition or anchorPointZ.
    private(set) var nonFiniteCount = 0
    /// The largest `reserveCapacity(_:)` asked for, kept for the slots made later.
    private var reservedCapacity = 0

    /// Entries the table has room for beyond those in use after `reserveHeadroom(_:)` or
    /// a growth: zPositions set in warmed-up frames on layers that had none take entries
    /// without allocating until they are used up (then the table doubles, amortized).
    static let minimumHeadroom = 256

    /// Both values of `index` (zero when it has no entry). O(1).
    @inline(__always)
    func pair(at index: Int) -> (z: Double, anchorZ: Double) {
        guard !slots.isEmpty else { return (0, 0) }
        let slot = Int(slots[index])
        return slot < 0 ? (0, 0) : (entries[2 * slot], entries[2 * slot + 1])
    }

    /// `index`'s zPosition. O(1).
    @inline(__always)
    func zPosition(at index: Int) -> Double {
        guard !slots.isEmpty else { return 0 }
        let slot = Int(slots[index])
        return slot < 0 ? 0 : entries[2 * slot]
    }

    /// `index`'s anchorPointZ. O(1).
    @inline(__always)
    func anchorPointZ(at index: Int) -> Double {
        guard !slots.isEmpty else { return 0 }
        let slot = Int(slots[index])
        return slot < 0 ? 0 : entries[2 * slot + 1]
    }

    /// Whether both of `index`'s values are finite. O(1); reads nothing while no layer
    /// has a non-finite value.
    @inline(__always)
    func areFinite(at index: Int) -> Bool {
        guard nonFiniteCount > 0 else { return true }
        let pair = pair(at: index)
        return pair.z.isFinite && pair.anchorZ.isFinite
    }

    /// Calls `body` with raw pointers that answer `areFinite(at:)` for the plan build's
    /// loops, or with nil while every value is finite (no check needed).
    @inline(__always)
    func withFinitenessCheck<R>(_ body: (ZFinitenessCheck?) -> R) -> R {
        guard nonFiniteCount > 0 else { return body(nil) }
        return withRawColumn(reading: slots) { slots in
            withRawColumn(reading: entries) { entries in body(ZFinitenessCheck(slots: slots, entries: entries)) }
        }
    }

    /// One more layer, both values zero. O(1) amortized.
    mutating func append() {
        count += 1
        if !slots.isEmpty { slots.append(-1) }
    }

    /// Room for `capacity` layers in the slots (now, or when they are made).
    mutating func reserveCapacity(_ capacity: Int) {
        reservedCapacity = Swift.max(reservedCapacity, capacity)
        if !slots.isEmpty { slots.reserveCapacity(capacity) }
    }

    /// The slots (made if there are none yet: 4 bytes a layer) and room for `extra` more
    /// entries than are in use, at least `minimumHeadroom` (`LayerStore.warmUp()`): the
    /// first zPosition set in a frame would otherwise make the slots there, O(count) and
    /// an allocation (6–8 ms at 1M layers in the live script's second frame).
    /// O(count) the first time, O(entries) when it grows the table.
    mutating func reserveHeadroom(_ extra: Int, capacity: Int) {
        if slots.isEmpty { makeSlots(capacity: capacity) }
        entries.reserveCapacity(entries.count + 2 * Swift.max(extra, Self.minimumHeadroom))
    }

    /// The slots, every one -1, with room for the store's `capacity` (the other columns'
    /// room, so that they grow together: made smaller, they would double on their own
    /// schedule, in adds that grow nothing else) or the reserved capacity. O(count).
    private mutating func makeSlots(capacity: Int) {
        slots.reserveCapacity(Swift.max(reservedCapacity, count, capacity))
        slots.append(contentsOf: repeatElement(-1, count: count))
    }

    /// Sets `index`'s zPosition; `capacity`: the store's room in layers, for the slots
    /// if this makes them. O(1) amortized.
    mutating func setZPosition(_ z: Double, at index: Int, capacity: Int = 0) {
        store((z, anchorPointZ(at: index)), at: index, capacity: capacity)
    }

    /// Sets `index`'s anchorPointZ (`capacity` as for `setZPosition`). O(1) amortized.
    mutating func setAnchorPointZ(_ z: Double, at index: Int, capacity: Int = 0) {
        store((zPosition(at: index), z), at: index, capacity: capacity)
    }

    /// Stores both values of `index`: in its entry, or, when it has none and they are not
    /// both `+0`, in a new one.
    private mutating func store(_ pair: (z: Double, anchorZ: Double), at index: Int, capacity: Int) {
        let old = self.pair(at: index)
        let wasFinite = old.z.isFinite && old.anchorZ.isFinite
        let isFinite = pair.z.isFinite && pair.anchorZ.isFinite
        if wasFinite != isFinite { nonFiniteCount += isFinite ? -1 : 1 }
        var slot = slots.isEmpty ? -1 : Int(slots[index])
        if slot < 0 {
            guard pair.z.bitPattern != 0 || pair.anchorZ.bitPattern != 0 else { return }
            slot = addEntry(for: index, capacity: capacity)
        }
        entries[2 * slot] = pair.z
        entries[2 * slot + 1] = pair.anchorZ
    }

    /// Gives `index` an entry (zeros) and returns it; makes the slots on the first one.
    private mutating func addEntry(for index: Int, capacity: Int) -> Int {
        if slots.isEmpty { makeSlots(capacity: capacity) }
        if entries.count == entries.capacity {
            entries.reserveCapacity(2 * entries.count + 2 * Self.minimumHeadroom)
        }
        let slot = entries.count / 2
        entries.append(0)
        entries.append(0)
        slots[index] = Int32(slot)
        return slot
    }

    /// The bytes held: slots and side table at their capacity.
    var allocatedBytes: Int {
        slots.capacity * MemoryLayout<Int32>.stride + entries.capacity * MemoryLayout<Double>.stride
    }

    /// What is wrong with the columns (empty: nothing): slots of the store's length,
    /// entries in range and held by one layer each, `nonFiniteCount` recounted. O(count).
    func violations() -> [String] {
        var found: [String] = []
        if !slots.isEmpty && slots.count != count { found.append("z value slots: \(slots.count) for \(count) layers") }
        var holders = [Int32](repeating: -1, count: entries.count / 2)
        var nonFinite = 0
        for layer in 0..<count {
            let pair = pair(at: layer)
            if !(pair.z.isFinite && pair.anchorZ.isFinite) { nonFinite += 1 }
            guard !slots.isEmpty, slots[layer] >= 0 else { continue }
            let slot = Int(slots[layer])
            if slot >= holders.count {
                found.append("layer \(layer): z value entry \(slot) past the \(holders.count) entries")
            } else if holders[slot] >= 0 {
                found.append("layer \(layer): z value entry \(slot) also held by layer \(holders[slot])")
            } else {
                holders[slot] = Int32(layer)
            }
        }
        if nonFinite != nonFiniteCount {
            found.append("z values: \(nonFiniteCount) counted non-finite, \(nonFinite) found")
        }
        return found
    }
}

/// Raw pointers to `ZValueColumns`' slots and entries (valid inside
/// `withFinitenessCheck`; some value is non-finite, so both are non-empty). Never kept
/// past that closure (the rule atop Memory/RawColumns.swift).
struct ZFinitenessCheck {
    let slots: RawColumn<Int32>
    let entries: RawColumn<Double>

    /// Whether both z values of `layer` are finite (a layer without an entry has zeros).
    @inline(__always)
    func areFinite(_ layer: Int) -> Bool {
        let slot = Int(slots[layer])
        guard slot >= 0 else { return true }
        return entries[2 * slot].isFinite && entries[2 * slot + 1].isFinite
    }
}
