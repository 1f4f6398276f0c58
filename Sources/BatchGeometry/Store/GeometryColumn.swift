/// A read-only view of one of a store's geometry columns (`LayerStore.boundsX`, …): one
/// `Double` per slot, indices `0..<count`.
///
/// The view shares the column's storage, copy-on-write as an `Array` would: getting it
/// is O(1) and allocates nothing, reading an element is O(1), and the view keeps the
/// values it was taken with (a later write to the store copies the column first, O(n),
/// while a view of it is alive, so drop the view before editing the store in a frame
/// loop). It replaces the `[Double]` these getters returned before 0.10: the store's
/// columns grow by remapping, not by Array's copy (README, "Growing the store"), so they
/// are no longer arrays. `Array(store.boundsX)` makes an array of it: O(n), one
/// allocation. `zPositions` and `anchorPointZs` are views of the sparse z values
/// (`ZValueColumns`): the same O(1) reads, through a layer's entry.
public struct GeometryColumn: RandomAccessCollection, Sendable {
    let storage: RemappedColumn<Double>
    /// The sparse z values and which of the two (0: zPosition, 1: anchorPointZ), when
    /// `storage` is empty.
    let zValues: ZValueColumns?
    let lane: Int

    init(_ storage: RemappedColumn<Double>) {
        self.storage = storage
        (zValues, lane) = (nil, 0)
    }

    init(_ zValues: ZValueColumns, lane: Int) {
        storage = []
        (self.zValues, self.lane) = (zValues, lane)
    }

    /// Always 0. O(1).
    @inline(__always) public var startIndex: Int { 0 }
    /// The number of slots, `LayerStore.count` when the view was taken. O(1).
    @inline(__always) public var endIndex: Int { zValues?.count ?? storage.count }

    /// The value of slot `index` (in `0..<count`; outside it stops the program). O(1);
    /// allocates nothing.
    @inline(__always)
    public subscript(index: Int) -> Double {
        guard let zValues else { return storage[index] }
        precondition(UInt(bitPattern: index) < UInt(bitPattern: zValues.count), "GeometryColumn: index out of range")
        return lane == 0 ? zValues.zPosition(at: index) : zValues.anchorPointZ(at: index)
    }
}
