/// Names one layer of a `LayerStore` for as long as that layer exists: a slot plus a
/// generation, the way game engines name entities (Bevy's `Entity`, EnTT, slot maps),
/// plus the tag of the store that made it.
///
/// A handle stays valid while other layers are added, moved, detached or destroyed: a
/// layer keeps its slot for its whole life. `LayerStore.destroyLayer(_:)` frees the slots
/// of the layer and its subtree and bumps their generations, so every handle to them
/// becomes *stale*; a later `addLayer` may reuse a slot, under the new generation. A
/// stale handle is always detected: the accessors stop the program with a message naming
/// the handle (in release builds too), the structure edits throw
/// `LayerStoreError.staleLayer`, and `LayerStore.contains(_:)` answers false.
///
/// A handle also carries its store's *tag*, which every new store takes from a
/// process-wide counter and `LayerStore.copy()` keeps: a copy accepts the original's
/// handles (and the original the copy's, for the layers they share). Another store's
/// handle is detected the same way, with a message saying it belongs to another store
/// (the edits throw `LayerStoreError.foreignLayer`). Tags are 12 bits, 4,094 values
/// that repeat every 4,094 stores made in a process, so two stores share a tag, and accept
/// each other's handles, only if 4,094 × k − 1 other stores were made between them (for
/// two stores picked at random, about 1 in 4,094). A handle with a tag no store has (one
/// made by `init(rawValue:)` from a small integer) is stale for every store.
///
/// `index` is the layer's slot: the position of its entry in every per-layer result
/// (`FrameColumns`, `WorldTransforms`, world rects, clip rects, visibility), which have
/// `LayerStore.count` entries.
public struct LayerHandle: Hashable, Sendable, CustomStringConvertible {
    /// The slot, `0 ..< LayerStore.count`.
    @usableFromInline let slot: UInt32
    /// The store tag in the high 12 bits and the generation in the low 20: the value the
    /// store keeps per slot, so that one comparison checks both.
    @usableFromInline let stamp: UInt32

    /// Bits of `stamp` that hold the generation; the rest hold the store tag.
    static let generationBits: UInt32 = 20
    /// The generation's bits of `stamp`.
    static let generationMask: UInt32 = 1 << generationBits - 1
    /// How many store tags there are, 1 ... tagCount: 0 (a handle made from a small
    /// integer) and 4,095 (`BG_LAYER_NONE`'s) are no store's.
    static let tagCount = UInt32.max >> generationBits - 1

    @inlinable init(slot: Int, stamp: UInt32) {
        self.slot = UInt32(truncatingIfNeeded: slot)
        self.stamp = stamp
    }

    /// The slot's generation when this layer was created in it: even, and two more each
    /// time the slot is freed and reused (odd values mark a free slot, which no handle
    /// names). It has 20 bits: a slot is retired, never reused again, once its generation
    /// reaches 2^20 - 1, after 524,288 layers lived in it, so a stale handle can never
    /// name a newer layer.
    public var generation: UInt32 { stamp & Self.generationMask }

    /// The tag of the store that made the handle (shared by its copies); 0 for none.
    var storeTag: UInt32 { stamp >> Self.generationBits }

    /// The layer's slot: its index in every per-layer result array. O(1).
    @inlinable public var index: Int { Int(slot) }

    /// The handle as one 64-bit value, for storage outside Swift and for the C interface:
    /// the slot in the low 32 bits; the store tag (12 bits) and the generation (20 bits)
    /// in the high 32. O(1).
    public var rawValue: UInt64 { UInt64(stamp) << 32 | UInt64(slot) }

    /// The handle whose `rawValue` is `rawValue`. Any value makes a handle; whether it
    /// names a live layer of a store is checked where it is used. O(1).
    public init(rawValue: UInt64) {
        slot = UInt32(truncatingIfNeeded: rawValue)
        stamp = UInt32(truncatingIfNeeded: rawValue >> 32)
    }

    /// `layer <index>#<generation>`, the form every message uses (without the store tag:
    /// the messages about another store's handle name it).
    public var description: String { "layer \(slot)#\(generation)" }
}
