// Parked cards outside the window (Box2D's fat leaves, kept lazily): a card parked under a
// masking list (LayerStore+DeferredBounds.swift) whose only changes since its box was
// last computed are moves (`setPosition`) and scales about its anchor (`setTransform` to
// a scale) has a new box within a known distance of its old one, its leaf: its anchor
// moved by |p − p0| and its box scaled about the anchor by s/s0, so each edge moved at
// most |p − p0| + |s/s0 − 1| · reach (reach: how far the old box's edges lie from the
// anchor). The setters compute that bound from values they hold and a reference recorded
// when the box was computed; the list keeps the largest bound of its drifting cards, and a
// frame query that descends redoes only the parked cards whose leaves meet its region
// grown by that bound. The others stay parked: their boxes cannot reach the region.

/// The drift of parked cards: per sublayer of an indexed list, the reference its box was
/// computed at and how far its box may have drifted since; per indexed list, the cards
/// parked with a bounded drift and the largest such bound.
///
/// The references are a side table: only the sublayers of indexed lists (a card in four
/// layers of the `app` workload, none of `standard`) need one, so each layer holds a
/// 4-byte position in the table instead of a 32-byte reference (issue 22's bytes target).
/// The same position holds the layer's order label (`orderLabels`) and its leaf in the
/// list's spatial index (`leaves`), which only those sublayers need too.
struct ParkedDrift: Sendable {
    /// Per layer: its position in the side table (`references`, `orderLabels`, `rankLinks`
    /// and `leaves`; -1: none, which reads as `invalid`, label 0 and no leaf). A layer gets one
    /// the first time a reference or a label is recorded for it or it is parked, and
    /// keeps it for as long as the table lives (a slot reused by a new layer inherits it),
    /// so that leaving and joining lists never grows the table.
    var referenceSlots: RemappedColumn<Int32> = []
    /// Per position in `referenceSlots`: `x`, `y` (the layer's position when its box was
    /// computed, as Floats), `scale` (its transform's uniform scale then; NaN: not a
    /// scale about the anchor), `reach` (the farthest edge of that box from `x`, `y`),
    /// `magnitude` (the size of the terms that computed it, for the rounding slack),
    /// `moved` and `scaled` (the bounds the setters computed since; NaN or infinity:
    /// unknown), and in the last lane the list a parked layer waits in (`parkedSlot`).
    /// NaN: no reference.
    var references: RemappedColumn<SIMD8<Float>> = []
    /// Per position in `referenceSlots`: the layer's order label in its superlayer's list
    /// while the superlayer is indexed (`SubtreeBounds.orderLabel(of:)`); stale otherwise.
    /// Beside `references`, not in a lane of it: a `UInt64` label does not fit a `Float`.
    var orderLabels: RemappedColumn<UInt64> = []
    /// Per position in `referenceSlots`: the layer's node in its indexed list's rank tree
    /// (left child, right child, parent, left subtree size: `SublayerRanks.swift`); stale when
    /// the superlayer is not indexed.
    var rankLinks: RemappedColumn<SIMD4<Int32>> = []
    /// Per position in `referenceSlots`: the layer's entry in its superlayer's
    /// `SublayerIndex` (-1: none). Read and written with `leaf(of:)` and `setLeaf(_:of:)`;
    /// a layer without a position has none. Here rather than a column a layer: only the
    /// sublayers of indexed lists have a leaf (issue 22's bytes target).
    var leaves: RemappedColumn<Int32> = []
    /// Per position in `SubtreeBounds.indexes`: the sublayers parked with a bounded drift
    /// (an entry redone since, or that left the list, is skipped), and the largest bound
    /// of their drifts (infinity: redo them all on descent).
    var lists: [[Int32]] = []
    var listBounds: [Double] = []
    /// Per position in `SubtreeBounds.indexes`: a box in the list's plane that no leaf of
    /// a card waiting in its drifting cards meets (null: none known). Set where a descent
    /// redoes the drifting cards near a region (`LayerStore.redoDriftingNear`), to the
    /// region it searched; a later descent whose grown region lies inside it has no
    /// drifting card to find there and skips the R-tree search. Drifting cards keep
    /// their leaves (a move raises only the bound, which the grown region carries), so
    /// only a card joining the drifting cards (`SubtreeBounds.parkDrifting`) or a new
    /// index for the list (`SubtreeBounds.setIndex`) forgets it.
    ///
    /// `RectEdges.untouched` (the whole plane) is the mark `warmUp` leaves on a list whose
    /// cards it parked ahead: every card in its drifting cards is still as it was built,
    /// its box its leaf, so no descent has any to redo (a scrolling list used to redo
    /// such cards as they came near the frame, each frame, 7–9% of a still frame). A
    /// change that leaves a card drifting (a move, a plane scale: `forgetUntouched`)
    /// forgets it; one that takes its drift sends the card to the parked sublayers, which
    /// every descent redoes first, and the list stays untouched.
    var cleanRegions: [RectEdges] = []
    /// Per position in `SubtreeBounds.indexes`: the root of that list's rank tree (-1:
    /// empty) and how many sublayers it holds.
    var rankRoots: [Int32] = []
    var rankCounts: [Int32] = []
    /// The candidates of a grown query, kept so that a descent allocates nothing.
    var candidates: [Int32] = []

    static let invalid = SIMD8<Float>(repeating: .nan)

    /// Bytes allocated for the slots and the references (the labels apart). O(1).
    var allocatedReferenceBytes: Int { allocatedBytes(referenceSlots) + allocatedBytes(references) }

    /// `layer`'s position in `references`, given one (an `invalid` reference) if it has
    /// none. O(1) amortized: the table grows only past the room `reserveReferences` left.
    @inline(__always)
    mutating func referenceSlot(of layer: Int) -> Int {
        let slot = referenceSlots[layer]
        if slot >= 0 { return Int(slot) }
        referenceSlots[layer] = Int32(truncatingIfNeeded: references.count)
        references.append(Self.invalid)
        orderLabels.append(0)
        rankLinks.append(SIMD4(-1, -1, -1, 0))
        leaves.append(-1)
        return references.count - 1
    }

    /// `layer`'s entry in its superlayer's index (-1 when it has none). O(1).
    @inline(__always)
    func leaf(of layer: Int) -> Int32 {
        let slot = referenceSlots[layer]
        return slot >= 0 ? leaves[Int(slot)] : -1
    }

    /// Sets `layer`'s entry in its superlayer's index; a leaf (≥ 0) gives the layer a
    /// position in the table if it has none, -1 on a layer without one writes nothing (it
    /// reads as -1 already). O(1) amortized.
    @inline(__always)
    mutating func setLeaf(_ leaf: Int32, of layer: Int) {
        if leaf >= 0 {
            leaves[referenceSlot(of: layer)] = leaf
            return
        }
        let slot = referenceSlots[layer]
        if slot >= 0 { leaves[Int(slot)] = -1 }
    }

    /// `layer`'s order label (0 when it has no entry). O(1).
    @inline(__always)
    func orderLabel(of layer: Int) -> UInt64 {
        let slot = referenceSlots[layer]
        return slot >= 0 ? orderLabels[Int(slot)] : 0
    }

    /// Sets `layer`'s order label, giving it an entry if it has none. O(1) amortized.
    @inline(__always)
    mutating func setOrderLabel(_ label: UInt64, of layer: Int) {
        let slot = referenceSlot(of: layer)
        orderLabels[slot] = label
    }

    /// Room in `references` for `joining` more layers plus one per slot of a store of
    /// `capacity` layers still to come, so that a frame within the reserved capacity
    /// never grows the table (it is as large as the per-layer column it replaced only
    /// when every slot holds a sublayer of an indexed list). O(1) unless it grows.
    /// `openingAhead` (the build): the next doubling's room opened ahead, as
    /// `SubtreeBounds.reserveContents` does.
    mutating func reserveReferences(forCapacity capacity: Int, joining: Int = 0, openingAhead: Bool = false) {
        let room = references.count + joining + Swift.max(0, capacity - referenceSlots.count)
        if references.capacity < room { references.reserveCapacity(room) }
        if orderLabels.capacity < room { orderLabels.reserveCapacity(room) }
        if rankLinks.capacity < room { rankLinks.reserveCapacity(room) }
        if leaves.capacity < room { leaves.reserveCapacity(room) }
        guard openingAhead else { return }
        references.openAhead(toCapacity: room + capacity)
        orderLabels.openAhead(toCapacity: room + capacity)
        rankLinks.openAhead(toCapacity: room + capacity)
        leaves.openAhead(toCapacity: room + capacity)
    }

    /// `layer`'s reference (`invalid` when it has none). O(1).
    @inline(__always)
    func reference(of layer: Int) -> SIMD8<Float> {
        let slot = referenceSlots[layer]
        return slot >= 0 ? references[Int(slot)] : Self.invalid
    }

    /// Forgets `layer`'s reference, parked list included (it left or joined a list, or its
    /// map cannot drift by a bound). O(1).
    @inline(__always)
    mutating func forget(_ layer: Int) {
        let slot = referenceSlots[layer]
        if slot >= 0 { references[Int(slot)] = Self.invalid }
    }

    /// How many entries a list of `leaves` sublayers lets its drifting list hold before a
    /// descent compacts it (entries redone and parked again repeat): twice its length, so
    /// the compaction costs at most a check per entry appended. Of the index's
    /// leaves (no fewer than its sublayers until it is rebuilt): the room reserved.
    static func listLimit(leaves: Int) -> Int { 2 * leaves + 64 }

    /// Relative slack for the rounding of the boxes' computations (a few operations of
    /// 2^-53 each; this is far wider) and of the Float references (2^-24).
    static let roundingSlack = 0x1p-30
    static let floatSlack = 0x1p-22

    /// The bound on how far `layer`'s box may have drifted from its leaf; nil when none is
    /// known. O(1).
    @inline(__always)
    func drift(of layer: Int) -> Double? {
        let slot = referenceSlots[layer]
        return slot >= 0 ? drift(atReference: Int(slot)) : nil
    }

    /// `drift(of:)` of the layer whose reference is at `position` in `references`. O(1).
    @inline(__always)
    func drift(atReference position: Int) -> Double? { Self.drift(references[position]) }

    /// `drift(of:)` of a layer whose reference is `reference`. O(1).
    @inline(__always)
    static func drift(_ reference: SIMD8<Float>) -> Double? {
        let drift = Double(reference[5]) + Double(reference[6])
        return drift.isFinite ? drift : nil
    }

    /// Sets `layer`'s reference: its box was just computed with `position`, `scale`
    /// (NaN: not a uniform scale), `box` and `magnitude`; no drift since. O(1).
    @inline(__always)
    mutating func record(_ layer: Int, position: Point, scale: Double, box: RectEdges, magnitude: Double) {
        let slot = referenceSlot(of: layer)
        guard !box.isNull else {
            references[slot] = SIMD8(Float(position.x), Float(position.y), Float(scale), 0, 0, 0, 0, 0)
            return
        }
        let reach = Swift.max(
            Swift.max(abs(box.minX - position.x), abs(box.maxX - position.x)),
            Swift.max(abs(box.minY - position.y), abs(box.maxY - position.y)))
        references[slot] = SIMD8(
            Float(position.x), Float(position.y), Float(scale), Self.roundedUp(reach),
            Self.roundedUp(magnitude + reach), 0, 0, 0)
    }

    /// The layer whose reference is at `slot` in `references` moved to `position`: the
    /// bound on its anchor's move since the reference.
    @inline(__always)
    mutating func noteMove(atReference slot: Int, to position: Point) {
        references[slot][5] = Self.moveBound(references[slot], to: position)
    }

    /// The bound on the anchor's move from `reference`'s position to `position`: lane 5
    /// of a reference after a move (`noteMove`). O(1).
    @inline(__always)
    static func moveBound(_ reference: SIMD8<Float>, to position: Point) -> Float {
        let (x0, y0) = (Double(reference[0]), Double(reference[1]))
        let moved =
            Swift.max(abs(position.x - x0), abs(position.y - y0)) + Self.floatSlack * (abs(x0) + abs(y0))
            + Self.roundingSlack * (Double(reference[4]) + abs(position.x) + abs(position.y))
        return Self.roundedUp(moved)
    }

    /// The transform of the layer whose reference is at `slot` became one of
    /// `planeScale(_:)` `planeScale` (nil: not a plane
    /// scale): the bound on its box's growth about its anchor since the reference (unknown
    /// unless both are uniform-or-not scales without translation, about a reference scale
    /// that was uniform). Takes the two numbers, not the 4×4 (a copy per call).
    @inline(__always)
    mutating func noteTransform(atReference slot: Int, planeScale: Point?) {
        let reference = references[slot]
        let s0 = Double(reference[2])
        guard let scale = planeScale, s0.isFinite, s0 != 0 else {
            references[slot][6] = .infinity
            return
        }
        let (sx, sy) = (scale.x / s0, scale.y / s0)
        let ratio = Swift.max(abs(sx - 1), abs(sy - 1)) + Self.floatSlack * Swift.max(abs(sx), abs(sy))
        let scaled =
            ratio * Double(reference[3])
            + Self.roundingSlack * Double(reference[4]) * (1 + Swift.max(abs(sx), abs(sy)))
        references[slot][6] = Self.roundedUp(scaled)
    }

    /// The scales along x and y when `transform` maps the layer's plane by a scale about
    /// the anchor (no rotation, shear, translation or perspective; its z entries, which
    /// a plane at z = 0 does not see, may be anything: `transform.scale` scales z too);
    /// else nil.
    @inline(__always)
    static func planeScale(_ t: Transform3D) -> Point? {
        guard t.m12 == 0, t.m21 == 0, t.m41 == 0, t.m42 == 0, t.m13 == 0, t.m23 == 0, t.m31 == 0, t.m32 == 0,
            t.m14 == 0, t.m24 == 0, t.m34 == 0, t.m44 == 1
        else { return nil }
        return Point(x: t.m11, y: t.m22)
    }

    /// `value` as a Float no smaller than it (infinity when it is not finite).
    @inline(__always)
    static func roundedUp(_ value: Double) -> Float {
        guard value.isFinite else { return .infinity }
        let rounded = Float(value)
        return Double(rounded) >= value ? rounded : rounded.nextUp
    }

    /// No drift known for `layer` until its box is redone; the parked list's position
    /// (lane 7) is kept. O(1).
    @inline(__always)
    mutating func invalidate(_ layer: Int) {
        let slot = Int(referenceSlots[layer])
        if slot >= 0 { invalidate(atReference: slot) }
    }

    /// `invalidate(_:)` of the layer whose reference is at `slot`. O(1).
    @inline(__always)
    mutating func invalidate(atReference slot: Int) {
        let list = references[slot][7]
        references[slot] = Self.invalid
        references[slot][7] = list
    }

    /// Lane 7 of a parked layer's reference: the position in `SubtreeBounds.indexes` of
    /// the list it is parked in (its bits, as a Float). Written when it is parked; a
    /// parked layer keeps its superlayer, whose index keeps its position, until redone.
    @inline(__always)
    mutating func setParkedSlot(_ slot: Int, of layer: Int) {
        let position = referenceSlot(of: layer)
        references[position][7] = Float(bitPattern: UInt32(truncatingIfNeeded: slot))
    }

    /// (A parked layer has a reference: `setParkedSlot` gave it one.)
    @inline(__always)
    func parkedSlot(of layer: Int) -> Int { parkedSlot(atReference: Int(referenceSlots[layer])) }

    @inline(__always)
    func parkedSlot(atReference slot: Int) -> Int { Int(references[slot][7].bitPattern) }

    /// A new slot at the end of the store (no reference yet). When the slots grow (the
    /// store grew past its capacity), the table's room grows with them, in the same add,
    /// so that no later add finds it full.
    mutating func appendLayer() {
        let room = referenceSlots.capacity
        referenceSlots.append(-1)
        if referenceSlots.capacity != room { reserveReferences(forCapacity: referenceSlots.capacity) }
    }

    /// A new list position in `SubtreeBounds.indexes`.
    mutating func appendList() {
        lists.append([])
        listBounds.append(0)
        cleanRegions.append(.null)
        rankRoots.append(-1)
        rankCounts.append(0)
    }

    /// Whether list position `slot`'s drifting cards are all untouched since `warmUp`
    /// parked them (`cleanRegions`). O(1).
    @inline(__always)
    func isUntouched(_ slot: Int) -> Bool { cleanRegions[slot] == .untouched }

    /// A drifting card of list position `slot` changed: the list is untouched no more.
    /// (A search that covered the whole plane left no drifting card behind, so forgetting
    /// its clean region too loses nothing.) O(1).
    @inline(__always)
    mutating func forgetUntouched(_ slot: Int) {
        if cleanRegions[slot].minX == -.infinity { cleanRegions[slot] = .null }
    }

    /// Forgets the drifting cards of list position `slot` (they were redone, or the list
    /// lost its index).
    mutating func clearList(_ slot: Int) {
        lists[slot].removeAll(keepingCapacity: true)
        listBounds[slot] = 0
        cleanRegions[slot] = .null
    }
}

extension RectEdges {
    /// The whole plane: a list's clean region while its drifting cards are untouched
    /// (`ParkedDrift.cleanRegions`).
    static let untouched = RectEdges(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)

    /// The box of the points within `margin` of `point` (per axis).
    init(around point: Point, margin: Double) {
        self.init(minX: point.x - margin, minY: point.y - margin, maxX: point.x + margin, maxY: point.y + margin)
    }
}
