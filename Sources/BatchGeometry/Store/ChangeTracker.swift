/// Records which layers changed since the world transforms were last computed, so that
/// `updateWorld()` can redo only the dirty subtrees (and fall back to the full pass when
/// most of the tree changed, or when the hierarchy itself changed).
struct ChangeTracker: Sendable {
    /// The hierarchy changed (or nothing was ever computed): only a full pass is valid.
    var needsFullUpdate = true
    /// Layers were added, removed or reparented since the last update, so the cached
    /// level order is stale too (a full pass without it may keep the order).
    var hierarchyChanged = true
    /// Layers whose own inputs changed, each listed once, in the order first marked: at
    /// most `incrementalLimit` of the slots, past which the next update is a full pass
    /// anyway, so the tracker stops listing and asks for one. Reserved for that many with
    /// `dirtyStates`, so that frames which mark layers and never update the world (a
    /// loop on frame queries alone) allocate nothing however many of them pass.
    private(set) var dirtyLayers: RemappedColumn<Int32> = []
    /// Per layer: `clean`, `positionOnly` (only `position` changed, so the cached local
    /// needs just its translation redone) or `changed`.
    private(set) var dirtyStates: RemappedColumn<UInt8> = []
    static let clean: UInt8 = 0, positionOnly: UInt8 = 1, changed: UInt8 = 2

    var hasChanges: Bool { needsFullUpdate || !dirtyLayers.isEmpty }

    /// The most dirty layers an incremental update takes in a store of `slots` slots (a
    /// quarter): `updateWorld()` does a full pass past it.
    @inline(__always)
    static func incrementalLimit(slots: Int) -> Int { slots / 4 }

    mutating func reserveCapacity(_ capacity: Int) {
        dirtyStates.reserveCapacity(capacity)
        dirtyLayers.reserveCapacity(Self.incrementalLimit(slots: capacity))
    }

    mutating func appendLayer() {
        dirtyStates.append(Self.clean)
        // The list grows with the slots' column, in the same `addLayer`, never in a frame.
        let room = Self.incrementalLimit(slots: dirtyStates.capacity)
        if dirtyLayers.capacity < room { dirtyLayers.reserveCapacity(room) }
        needsFullUpdate = true
        hierarchyChanged = true
    }

    /// Marks one layer's geometry as changed. O(1).
    @inline(__always)
    mutating func markChanged(_ layer: Int) {
        if needsFullUpdate { return }
        let state = dirtyStates[layer]
        if state == Self.changed || (state == Self.clean && !list(layer)) { return }
        dirtyStates[layer] = Self.changed
    }

    /// Marks that only `layer`'s position changed (unless something else did too). O(1).
    @inline(__always)
    mutating func markPositionChanged(_ layer: Int) {
        if needsFullUpdate || dirtyStates[layer] != Self.clean || !list(layer) { return }
        dirtyStates[layer] = Self.positionOnly
    }

    /// `markPositionChanged` on a run of layers through the columns' raw addresses: `body`
    /// calls `PositionMarks.markPositionChanged` on them, and the tracker is left as the
    /// calls on the tracker would leave it, with the bounds, uniqueness and room checks
    /// made once a run (a range move's cards: `LayerStore.moveParkedRun`). O(1) plus
    /// `body`; allocates nothing (the list has room for `incrementalLimit`, reserved with
    /// the slots).
    @inline(__always)
    mutating func markingPositions<R>(_ body: (inout PositionMarks) -> R) -> R {
        guard !needsFullUpdate else {  // nothing is listed or written (nor copied)
            var marks = PositionMarks(states: .empty, layers: .empty, count: 0, limit: 0, full: true)
            return body(&marks)
        }
        let limit = Self.incrementalLimit(slots: dirtyStates.count)
        dirtyLayers.reserveCapacity(limit)  // room already, but for a store copied since
        var full = false
        let result = withRawColumn(&dirtyStates) { states in
            dirtyLayers.withAppendingRoom { layers, count in
                var marks = PositionMarks(states: states, layers: layers, count: count, limit: limit, full: full)
                let result = body(&marks)
                count = marks.count
                full = marks.full
                return result
            }
        }
        needsFullUpdate = full
        return result
    }

    /// Lists `layer`, clean until now; returns false, listing nothing, when the list is at
    /// `incrementalLimit`: the tracker then asks for a full update, which needs no list
    /// (and `layer`'s state stays clean, as `clear()` resets only the listed ones). O(1).
    @inline(__always)
    private mutating func list(_ layer: Int) -> Bool {
        if _slowPath(dirtyLayers.count >= Self.incrementalLimit(slots: dirtyStates.count)) {
            needsFullUpdate = true
            return false
        }
        dirtyLayers.append(Int32(truncatingIfNeeded: layer))
        return true
    }

    mutating func markStructureChanged() {
        needsFullUpdate = true
        hierarchyChanged = true
    }

    /// Every layer's inputs may have changed, the hierarchy did not.
    mutating func markAllChanged() { needsFullUpdate = true }

    /// Forgets every mark, after a world update.
    mutating func clear() {
        // By index: an array's for-in allocates per element in unoptimized builds.
        for k in 0..<dirtyLayers.count { dirtyStates[Int(dirtyLayers[k])] = Self.clean }
        dirtyLayers.removeAll(keepingCapacity: true)
        needsFullUpdate = false
        hierarchyChanged = false
    }
}

/// The tracker's columns opened for `ChangeTracker.markingPositions`.
struct PositionMarks {
    fileprivate let states: RawColumn<UInt8>
    fileprivate let layers: RawColumn<Int32>
    fileprivate var count: Int
    fileprivate let limit: Int
    fileprivate var full: Bool

    /// `ChangeTracker.markPositionChanged(layer)`, the same writes. O(1).
    @inline(__always)
    mutating func markPositionChanged(_ layer: Int) {
        if full || states[layer] != ChangeTracker.clean { return }
        guard count < limit else {
            full = true  // the list is at its limit: a full update, nothing listed
            return
        }
        layers[count] = Int32(truncatingIfNeeded: layer)
        count += 1
        states[layer] = ChangeTracker.positionOnly
    }
}
