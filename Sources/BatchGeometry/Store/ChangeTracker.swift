/// Records which layers changed since the world transforms were last computed, so that
/// `updateWorld()` can redo only the dirty subtrees (and fall back to the full pass when
/// most of the tree changed, or when the hierarchy itself changed).
struct ChangeTracker: Sendable {
    /// The hierarchy changed (or nothing was ever computed): only a full pass is valid.
    var needsFullUpdate = true
    /// Layers were added, removed or reparented since the last update, so the cached
    /// level order is stale too (a full pass without it may keep the order).
    var hierarchyChanged = true
    /// Layers whose own inputs changed, each listed once, in the order first marked.
    private(set) var dirtyLayers: [Int32] = []
    /// Per layer: `clean`, `positionOnly` (only `position` changed, so the cached local
    /// needs just its translation redone) or `changed`.
    private(set) var dirtyStates: RemappedColumn<UInt8> = []
    static let clean: UInt8 = 0, positionOnly: UInt8 = 1, changed: UInt8 = 2

    var hasChanges: Bool { needsFullUpdate || !dirtyLayers.isEmpty }

    mutating func reserveCapacity(_ capacity: Int) {
        dirtyStates.reserveCapacity(capacity)
    }

    mutating func appendLayer() {
        dirtyStates.append(Self.clean)
        needsFullUpdate = true
        hierarchyChanged = true
    }

    /// Marks one layer's geometry as changed. O(1).
    @inline(__always)
    mutating func markChanged(_ layer: Int) {
        if needsFullUpdate { return }
        let state = dirtyStates[layer]
        if state == Self.changed { return }
        dirtyStates[layer] = Self.changed
        if state == Self.clean { dirtyLayers.append(Int32(truncatingIfNeeded: layer)) }
    }

    /// Marks that only `layer`'s position changed (unless something else did too). O(1).
    @inline(__always)
    mutating func markPositionChanged(_ layer: Int) {
        if needsFullUpdate || dirtyStates[layer] != Self.clean { return }
        dirtyStates[layer] = Self.positionOnly
        dirtyLayers.append(Int32(truncatingIfNeeded: layer))
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
