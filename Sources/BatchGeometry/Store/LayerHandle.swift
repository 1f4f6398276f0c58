/// Names one layer of a `LayerStore` for as long as that layer exists: a slot plus a
/// generation, the way game engines name entities (Bevy's `Entity`, EnTT, slot maps).
///
/// A handle stays valid while other layers are added, moved, detached or destroyed: a
/// layer keeps its slot for its whole life. `LayerStore.destroyLayer(_:)` frees the slots
/// of the layer and its subtree and bumps their generations, so every handle to them
/// becomes *stale*; a later `addLayer` may reuse a slot, under the new generation. A
/// stale handle is always detected: the accessors stop the program with a message naming
/// the handle (in release builds too), the structure edits throw
/// `LayerStoreError.staleLayer`, and `LayerStore.contains(_:)` answers without stopping.
///
/// `index` is the layer's slot: the position of its entry in every per-layer result
/// (`FrameColumns`, `WorldTransforms`, world rects, clip rects, visibility), which have
/// `LayerStore.count` entries.
///
/// A handle does not record which store made it; using one with another store is not
/// detected unless that store has no live layer in the slot under that generation.
public struct LayerHandle: Hashable, Sendable, CustomStringConvertible {
    /// The slot, `0 ..< LayerStore.count`.
    @usableFromInline let slot: UInt32
    /// The slot's generation when this layer was created in it: even, and two more
    /// each time the slot is freed and reused (odd values mark a free slot, which no
    /// handle names).
    public let generation: UInt32

    init(slot: Int, generation: UInt32) {
        self.slot = UInt32(truncatingIfNeeded: slot)
        self.generation = generation
    }

    /// The layer's slot: its index in every per-layer result array. O(1).
    @inlinable public var index: Int { Int(slot) }

    /// The handle as one 64-bit value (generation in the high 32 bits, slot in the low
    /// 32), for storage outside Swift and for the C interface. O(1).
    public var rawValue: UInt64 { UInt64(generation) << 32 | UInt64(slot) }

    /// The handle whose `rawValue` is `rawValue`. Any value makes a handle; whether it
    /// names a live layer is checked where it is used. O(1).
    public init(rawValue: UInt64) {
        slot = UInt32(truncatingIfNeeded: rawValue)
        generation = UInt32(truncatingIfNeeded: rawValue >> 32)
    }

    /// `layer <index>#<generation>`, the form every message uses.
    public var description: String { "layer \(slot)#\(generation)" }
}
