/// One transform per layer, struct-of-arrays. Two layouts:
///
/// - dense affine (`transform`): the affine part in six columns that the frame and 2D
///   world kernels stream, and the other ten entries in a side table, only for the layers
///   whose ten entries are not identity's;
/// - sparse (`sublayerTransform`, rarely set): no affine columns, every matrix that is not
///   identity in the side table (16 entries).
///
/// The side table is indexed through `entrySlots` (one `Int32` a layer, -1: no entry),
/// made when the first entry is stored: a store with a dozen 3D layers pays 4 bytes a
/// layer plus a dozen entries, not ten doubles for every layer. A layer keeps its entry
/// once it has one (identity written into it when it turns affine), so the table never
/// holds more entries than layers ever needed one.
///
/// A column set that was never written (`isMaterialized == false`) stands for identity
/// everywhere and costs nothing.
struct TransformColumns: Sendable {
    private(set) var count: Int
    /// The kind of each layer's transform; empty while not materialized.
    private(set) var kind: RemappedColumn<TransformKind> = []
    /// The affine part; empty in the sparse layout.
    private(set) var a: RemappedColumn<Double> = [], b: RemappedColumn<Double> = []
    private(set) var c: RemappedColumn<Double> = [], d: RemappedColumn<Double> = []
    private(set) var tx: RemappedColumn<Double> = [], ty: RemappedColumn<Double> = []
    /// Per layer, the index of its entry in `entries` or -1; empty until the first entry.
    private(set) var entrySlots: RemappedColumn<Int32> = []
    /// `entryStride` doubles an entry: `m13 m14 m23 m24 m31 m32 m33 m34 m43 m44` (dense
    /// affine) or the whole matrix, row-major (sparse).
    private(set) var entries: [Double] = []
    /// The largest kind ever stored here (a cheap upper bound that lets a batch skip
    /// work: no layer needs more than this).
    private(set) var maximumKind: TransformKind = .identity
    /// True for the dense affine layout.
    let denseAffine: Bool
    /// False while every layer is identity and no column has been allocated.
    private(set) var isMaterialized = false
    /// The largest `reserveCapacity(_:)` asked for, kept while not materialized so that
    /// the columns made later get it too (and do not double within a warmed-up frame).
    private var reservedCapacity = 0

    private var entryStride: Int { denseAffine ? 10 : 16 }
    private static let nonAffineIdentity: [Double] = [0, 0, 0, 0, 0, 0, 1, 0, 0, 1]

    /// `count` identity transforms; the dense affine layout is materialized at once.
    init(count: Int, denseAffine: Bool) {
        self.count = count
        self.denseAffine = denseAffine
        if denseAffine { materialize() }
    }

    private mutating func materialize() {
        guard !isMaterialized else { return }
        isMaterialized = true
        kind.reserveCapacity(Swift.max(reservedCapacity, count))
        kind.append(contentsOf: repeatElement(.identity, count: count))
        guard denseAffine else { return }
        a = RemappedColumn(repeating: 1, count: count)
        b = RemappedColumn(repeating: 0, count: count)
        c = RemappedColumn(repeating: 0, count: count)
        d = RemappedColumn(repeating: 1, count: count)
        tx = RemappedColumn(repeating: 0, count: count)
        ty = RemappedColumn(repeating: 0, count: count)
    }

    func kind(at index: Int) -> TransformKind {
        isMaterialized ? kind[index] : .identity
    }

    /// The entry number of `index` in the side table, or nil. O(1).
    @inline(__always)
    private func slot(of index: Int) -> Int? {
        guard !entrySlots.isEmpty else { return nil }
        let slot = Int(entrySlots[index])
        return slot < 0 ? nil : slot
    }

    func affine(at index: Int) -> AffineTransform {
        // (The dense layout is materialized from the start; a sparse one that is not has
        // no slots, so `slot(of:)` says identity.)
        if denseAffine {
            return AffineTransform(a: a[index], b: b[index], c: c[index], d: d[index], tx: tx[index], ty: ty[index])
        }
        guard let slot = slot(of: index) else { return .identity }
        let base = 16 * slot
        return AffineTransform(
            a: entries[base], b: entries[base + 1], c: entries[base + 4], d: entries[base + 5],
            tx: entries[base + 12], ty: entries[base + 13])
    }

    subscript(index: Int) -> Transform3D {
        guard denseAffine else {
            guard let slot = slot(of: index) else { return .identity }
            return entries.rowMajorMatrix(at: 16 * slot)
        }
        var result = Transform3D(
            AffineTransform(a: a[index], b: b[index], c: c[index], d: d[index], tx: tx[index], ty: ty[index]))
        if let slot = slot(of: index) {
            let base = 10 * slot
            result.m13 = entries[base]
            result.m14 = entries[base + 1]
            result.m23 = entries[base + 2]
            result.m24 = entries[base + 3]
            result.m31 = entries[base + 4]
            result.m32 = entries[base + 5]
            result.m33 = entries[base + 6]
            result.m34 = entries[base + 7]
            result.m43 = entries[base + 8]
            result.m44 = entries[base + 9]
        }
        return result
    }

    mutating func set(_ transform: Transform3D, at index: Int) { store(transform, at: index) }

    /// `set(_:at:)` inlined, for a caller that makes the matrix in place (the apply of a
    /// presentation sample): a call with a 4×4 argument copied it twice (`memcpy`).
    @inline(__always)
    mutating func store(_ transform: Transform3D, at index: Int) {
        let newKind = transform.kind
        if !isMaterialized {
            if newKind == .identity { return }
            materialize()
        }
        kind[index] = newKind
        if newKind > maximumKind { maximumKind = newKind }
        if denseAffine {
            a[index] = transform.m11
            b[index] = transform.m12
            c[index] = transform.m21
            d[index] = transform.m22
            tx[index] = transform.m41
            ty[index] = transform.m42
        }
        if slot(of: index) == nil {
            // A larger kind needs an entry; a smaller one too when its bits are not
            // identity's (a -0 entry reads back as stored).
            let needsEntry =
                newKind > (denseAffine ? .affine : .identity)
                || !(denseAffine ? transform.hasIdentityNonAffineBits : transform.hasIdentityBits)
            guard needsEntry else { return }
            addEntry(for: index)
        }
        let base = slot(of: index)! * entryStride
        if denseAffine {
            entries[base] = transform.m13
            entries[base + 1] = transform.m14
            entries[base + 2] = transform.m23
            entries[base + 3] = transform.m24
            entries[base + 4] = transform.m31
            entries[base + 5] = transform.m32
            entries[base + 6] = transform.m33
            entries[base + 7] = transform.m34
            entries[base + 8] = transform.m43
            entries[base + 9] = transform.m44
        } else {
            entries.storeRowMajor(transform, at: base)
        }
    }

    /// Whether `index` holds `value` by `==` on every entry, as `self[index] == value.matrix`
    /// answers, without making either 4×4: the kinds first (`kind` is `value.kind`), then
    /// the six affine columns and the side entry. O(1).
    @inline(__always)
    func holds(_ value: PlanarTransform, kind: TransformKind, at index: Int) -> Bool {
        guard self.kind(at: index) == kind else { return false }
        if kind == .identity { return true }
        guard denseAffine else { return self[index] == value.matrix }
        guard
            a[index] == value.a && b[index] == value.b && c[index] == value.c && d[index] == value.d
                && tx[index] == value.tx && ty[index] == value.ty
        else { return false }
        guard let slot = slot(of: index) else { return value.m33 == 1 }
        let base = 10 * slot
        return entries[base] == 0 && entries[base + 1] == 0 && entries[base + 2] == 0 && entries[base + 3] == 0
            && entries[base + 4] == 0 && entries[base + 5] == 0 && entries[base + 6] == value.m33
            && entries[base + 7] == 0 && entries[base + 8] == 0 && entries[base + 9] == 1
    }

    /// `store(value.matrix, at: index)` (the same bits, kind, maximum kind and side entry)
    /// without the 4×4: `kind` is `value.kind`. Writes only the cells whose bits change:
    /// each column write checks the column's uniqueness (a runtime call), and a card's
    /// scale changes three of the seventeen cells from frame to frame. O(1) amortized.
    @inline(__always)
    mutating func store(_ value: PlanarTransform, kind newKind: TransformKind, at index: Int) {
        guard denseAffine && isMaterialized else {
            store(value.matrix, at: index)
            return
        }
        if kind[index] != newKind { kind[index] = newKind }
        if newKind > maximumKind { maximumKind = newKind }
        Self.write(value.a, &a, index)
        Self.write(value.b, &b, index)
        Self.write(value.c, &c, index)
        Self.write(value.d, &d, index)
        Self.write(value.tx, &tx, index)
        Self.write(value.ty, &ty, index)
        if slot(of: index) == nil {
            // `store`'s rule: the ten entries outside the affine part are identity's bits
            // but for m33.
            guard newKind > .affine || value.m33.bitPattern != Double(1).bitPattern else { return }
            addEntry(for: index)
        }
        let base = slot(of: index)! * 10
        for j in 0..<10 {
            let entry = j == 6 ? value.m33 : (j == 9 ? 1 : 0)
            if entries[base + j].bitPattern != entry.bitPattern { entries[base + j] = entry }
        }
    }

    /// `column[index] = value` when that changes its bits.
    @inline(__always)
    private static func write(_ value: Double, _ column: inout RemappedColumn<Double>, _ index: Int) {
        if column[index].bitPattern != value.bitPattern { column[index] = value }
    }

    /// Gives `index` a new entry (its values written by the caller). O(1) amortized, O(n)
    /// the first time (the slot column).
    private mutating func addEntry(for index: Int) {
        if entrySlots.isEmpty {
            entrySlots.reserveCapacity(Swift.max(kind.capacity, count))
            entrySlots.append(contentsOf: repeatElement(-1, count: count))
        }
        entrySlots[index] = Int32(truncatingIfNeeded: entries.count / entryStride)
        entries.append(contentsOf: repeatElement(0, count: entryStride))
    }

    /// Appends one identity transform.
    mutating func appendIdentity() {
        count += 1
        guard isMaterialized else { return }
        kind.append(.identity)
        if !entrySlots.isEmpty { entrySlots.append(-1) }
        guard denseAffine else { return }
        a.append(1)
        b.append(0)
        c.append(0)
        d.append(1)
        tx.append(0)
        ty.append(0)
    }

    mutating func reserveCapacity(_ capacity: Int) {
        reservedCapacity = Swift.max(reservedCapacity, capacity)
        guard isMaterialized else { return }
        kind.reserveCapacity(capacity)
        if !entrySlots.isEmpty { entrySlots.reserveCapacity(capacity) }
        guard denseAffine else { return }
        a.reserveCapacity(capacity)
        b.reserveCapacity(capacity)
        c.reserveCapacity(capacity)
        d.reserveCapacity(capacity)
        tx.reserveCapacity(capacity)
        ty.reserveCapacity(capacity)
    }

    /// The kind of every layer's transform (empty while not materialized).
    var kindColumn: RemappedColumn<TransformKind> { kind }

    /// Read access to the raw affine columns for kernels (valid inside `body` only).
    /// Valid only in the dense affine layout with at least one layer.
    @inline(__always)
    func withAffineColumns<R>(_ body: (AffinePointers) -> R) -> R {
        withAffinePointers(reading: a, b, c, d, tx, ty, body)
    }
}

extension Transform3D {
    /// True when the ten entries outside the affine part have identity's bits exactly.
    @inline(__always)
    var hasIdentityNonAffineBits: Bool {
        let one = Double(1).bitPattern
        let zeros = m13.bitPattern | m14.bitPattern | m23.bitPattern | m24.bitPattern | m31.bitPattern
        return zeros | m32.bitPattern | m34.bitPattern | m43.bitPattern | (m33.bitPattern ^ one)
            | (m44.bitPattern ^ one) == 0
    }

    /// True when every entry has identity's bits exactly.
    @inline(__always)
    var hasIdentityBits: Bool {
        let one = Double(1).bitPattern
        let affine = (m11.bitPattern ^ one) | m12.bitPattern | m21.bitPattern | (m22.bitPattern ^ one)
        return hasIdentityNonAffineBits && affine | m41.bitPattern | m42.bitPattern == 0
    }
}
