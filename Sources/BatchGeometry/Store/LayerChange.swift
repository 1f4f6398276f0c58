// The change log's one entry point: a setter says what it changed about a layer, as data
// (`LayerChange`), and `noteChange` hands it to every cache that reads it — the world
// transforms (`ChangeTracker`), the subtree bounds and spatial indexes (`SubtreeBounds`),
// the drawing order (`DrawOrderCache`) and the view rule's flag. No setter picks a cache:
// a new property says what it changes, and every cache that depends on that follows
// (Bevy's `Changed<T>`, Chromium's `set_needs_update`).

/// What a setter changed about one layer: the change log's record. Each bit names a kind
/// of input, not a cache; `LayerStore.noteChange(_:_:)` maps it to the caches that read it.
struct LayerChange: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// Only `position`: the local transform's translation moves; the layer's box moves.
    static let position = LayerChange(rawValue: 1 << 0)
    /// The local transform as a whole (bounds size, anchor point, anchorPointZ,
    /// transform): the layer's world and box.
    static let localTransform = LayerChange(rawValue: 1 << 1)
    /// The geometry a superlayer's adjustment of its sublayers reads (bounds, anchor point,
    /// anchorPointZ): with a flip or a sublayerTransform, every sublayer's box moves too.
    static let sublayerInputs = LayerChange(rawValue: 1 << 2)
    /// The adjustment itself (sublayerTransform, geometryFlipped, the transform-layer
    /// flag): every sublayer's world and box.
    static let sublayerAdjustment = LayerChange(rawValue: 1 << 3)
    /// Only the layer's own box (masksToBounds, hidden): no world changes.
    static let extent = LayerChange(rawValue: 1 << 4)
    /// zPosition: the layer's world (in 3D) and box, and its superlayer's drawing order.
    static let zOrder = LayerChange(rawValue: 1 << 5)
    /// Opacity or userInteractionEnabled: the view rule's gate, nothing geometric.
    static let viewHitGate = LayerChange(rawValue: 1 << 6)

    /// What moves the frame for bounds, anchor point, anchorPointZ, contentOffset and the
    /// frame setter.
    static let geometry = LayerChange(rawValue: localTransform.rawValue | sublayerInputs.rawValue)
    /// Changes that redo the layer's whole cached local transform (not just its translation).
    static let world = LayerChange(
        rawValue: localTransform.rawValue | sublayerAdjustment.rawValue | zOrder.rawValue)
    /// Changes that move the layer's own box.
    static let ownExtent = LayerChange(rawValue: position.rawValue | localTransform.rawValue | extent.rawValue)
    /// Changes that may move the layer's own box in its superlayer, or its content's.
    static let boxInputs = LayerChange(rawValue: ~viewHitGate.rawValue)
}

/// The latest layers whose geometry a setter changed, in a ring of `capacity` slots, and
/// how many were ever recorded: what lets a reader that remembers `written` find the
/// layers edited since (or learn, when more than `capacity` were, that it cannot), with
/// nothing to clear. The culled animation sample keeps its layers' reaches by it
/// (AnimationStore+Culling.swift). The ring is made with the store (16 KiB), so that
/// recording never allocates.
struct EditLog: Sendable {
    static let capacity = 4096
    private(set) var ring = [Int32](repeating: -1, count: EditLog.capacity)
    /// Layers recorded since the store was made.
    private(set) var written: UInt64 = 0

    @inline(__always)
    mutating func record(_ layer: Int) {
        ring[Int(written % UInt64(Self.capacity))] = Int32(truncatingIfNeeded: layer)
        written &+= 1
    }

    /// `record` on a run of layers through the ring's address: `body` calls
    /// `EditRecords.record` on them, and the log is left as the calls on the log would
    /// leave it, with the ring's checks made once a run. O(1) plus `body`; allocates
    /// nothing.
    @inline(__always)
    mutating func recording<R>(_ body: (inout EditRecords) -> R) -> R {
        var written = self.written
        let result = ring.withUnsafeMutableBufferPointer { ring in
            var records = EditRecords(ring: ring.baseAddress.unsafelyUnwrapped, written: written)
            let result = body(&records)
            written = records.written
            return result
        }
        self.written = written
        return result
    }

    /// The layer of record number `number` (one of the latest `capacity`).
    @inline(__always)
    func layer(_ number: UInt64) -> Int { Int(ring[Int(number % UInt64(Self.capacity))]) }
}

/// The edit log's ring opened for `EditLog.recording`.
struct EditRecords {
    fileprivate let ring: UnsafeMutablePointer<Int32>
    fileprivate var written: UInt64

    /// `EditLog.record(layer)`, the same writes. O(1).
    @inline(__always)
    mutating func record(_ layer: Int) {
        ring[Int(written % UInt64(EditLog.capacity))] = Int32(truncatingIfNeeded: layer)
        written &+= 1
    }
}

extension LayerStore {
    /// Records that `change` happened to `layer`: the one call a setter makes after
    /// writing its columns. O(1); allocates only when a cache's pending list grows past
    /// what it has held before.
    @inline(__always)
    mutating func noteChange(_ layer: Int, _ change: LayerChange) {
        if !change.isDisjoint(with: .world) {
            caches.changes.markChanged(layer)
        } else if change.contains(.position) {
            caches.changes.markPositionChanged(layer)
        }
        // A parked card's drift (`ParkedDrift`) is known after a move or a transform only.
        if change != .position && change != .localTransform && !change.isDisjoint(with: .boxInputs) {
            invalidateMoveReference(layer)
        }
        if !change.isDisjoint(with: .ownExtent) {
            boundsDidChange(layer, adjustInputs: change.contains(.sublayerInputs))
        }
        if change.contains(.sublayerAdjustment) { sublayerAdjustmentDidChange(layer) }
        if change.contains(.zOrder) { zPositionDidChange(layer) }
        if change.contains(.viewHitGate) { refreshViewRuleFlag(layer) }
        if !change.isDisjoint(with: .boxInputs) { caches.editLog.record(layer) }
    }

    /// Records that `layer` was linked into `superlayer`'s list (`joined`: called once its
    /// links are set) or out of it (called before they are cleared); -1: the roots. The
    /// subtree bounds, a wide superlayer's index and order labels, and the drawing-order
    /// cache follow the edit itself. The world's plan is rebuilt after any structure edit
    /// (`structureDidChange`). O(log w) amortized in a list of w sublayers.
    @inline(__always)
    mutating func noteListChange(_ layer: Int, superlayer: Int32, joined: Bool) {
        forgetMoveReference(layer)
        sublayerListDidChange(layer, superlayer: superlayer, joined: joined)
    }
}
