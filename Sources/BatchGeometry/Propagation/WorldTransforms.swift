/// `ToWorld` of every layer of a store, from one pass over the hierarchy (GEOMETRY.md
/// section 5): the matrix that maps a point of the layer's bounds space to the world
/// (the roots' superlayer space). Index = layer index.
///
/// A snapshot: it does not follow later changes to the store's properties. It belongs to
/// the store's structure (its layers and hierarchy) at the time it was computed: a query
/// that is handed a snapshot of another structure (layers added, removed or moved since,
/// or another store) stops the program with a message naming both, in release builds too,
/// rather than answer from the wrong layers.
///
/// Storage (Skia's type-mask idea): most layers sit in a chain of 2D affine transforms
/// under flattening superlayers, and their world matrix has the *planar* form
/// `[[a b 0 0] [c d 0 0] [0 0 0 0] [tx ty 0 1]]` (Flat zeroes the third column). Those
/// layers keep only six doubles, in struct-of-arrays columns; every other layer (roots,
/// layers under perspective, 3D, transform layers, non-finite values) keeps its full
/// 4×4 matrix in a side table (`GeneralMatrices`). `subscript` rebuilds the `Transform3D`
/// either way.
public struct WorldTransforms: Sendable {
    // The affine part (m11 m12 m21 m22 m41 m42) of every layer, planar or not.
    var a: [Double], b: [Double], c: [Double], d: [Double], tx: [Double], ty: [Double]
    /// Per layer: bit 0 set = general (the matrix is in `general`), clear = planar.
    /// Other bits belong to whoever built the array (the world plan shares its array
    /// here without a copy) and are ignored.
    var modes: [UInt8]
    /// The full matrices of the general layers.
    var general: GeneralMatrices
    /// `LayerStore.structureVersion` of the store this was computed for (0: not from a
    /// store, or from an empty one).
    var structureVersion: UInt64 = 0

    /// `WorldMode.general` (`CA_WORLD_MODE_GENERAL`): the plan shares its mode bytes here.
    static let generalBit = WorldMode.general

    /// An empty snapshot (no layers), to hand to `LayerStore.computeWorldTransforms(into:)`,
    /// which sizes it on first use and then reuses its storage every frame. O(1).
    public init() { self.init(count: 0) }

    /// `count` layers, all planar with zero columns (every entry is overwritten by the
    /// pass that fills it).
    init(count: Int) {
        a = Array(repeating: 0, count: count)
        b = a
        c = a
        d = a
        tx = a
        ty = a
        modes = Array(repeating: 0, count: count)
        general = GeneralMatrices()
    }

    /// `count` layers whose columns are left uninitialized: for passes that write every
    /// entry (no zero-fill, so the pages are touched once).
    init(uninitializedCount count: Int) {
        func column() -> [Double] { [Double](unsafeUninitializedCapacity: count) { $1 = count } }
        a = column()
        b = column()
        c = column()
        d = column()
        tx = column()
        ty = column()
        modes = []
        general = GeneralMatrices()
    }

    /// The number of layers covered.
    public var count: Int { a.count }

    /// True when `layer`'s world matrix has the planar form and is stored as six doubles.
    /// O(1).
    func isPlanar(_ layer: Int) -> Bool { modes[layer] & Self.generalBit == 0 }

    /// The number of layers stored as full 4×4 matrices (the rest are planar). O(count).
    ///
    /// Counted from the per-layer modes, which decide how each layer is read: an update
    /// that turns a general layer planar may leave its old matrix in the side table
    /// (never read again), so the table's own count can be higher.
    var generalCount: Int {
        modes.reduce(0) { $0 + Int($1 & Self.generalBit) }
    }

    /// `ToWorld(layer)` (`self[layer.index]`). The handle's generation is not checked
    /// here (a snapshot does not know its layers' generations); the store's queries that
    /// take a snapshot check both the handle and the snapshot. O(1).
    public subscript(layer: LayerHandle) -> Transform3D { self[layer.index] }

    /// `ToWorld(layer)`. O(1). Setting stores the matrix in the cheapest exact form.
    public subscript(layer: Int) -> Transform3D {
        get {
            let count = self.count
            require(
                layer >= 0 && layer < count,
                "layer \(layer) is out of range (this WorldTransforms covers \(count) layers)")
            if modes[layer] & Self.generalBit == 0 {
                return Transform3D(
                    planarA: a[layer], b: b[layer], c: c[layer], d: d[layer], tx: tx[layer], ty: ty[layer])
            }
            return general[Int32(truncatingIfNeeded: layer)]!
        }
        set {
            setAffineColumns(from: newValue, at: layer)
            let key = Int32(truncatingIfNeeded: layer)
            if Self.isPlanarForm(newValue) {
                modes[layer] &= ~Self.generalBit
                general[key] = nil
            } else {
                modes[layer] |= Self.generalBit
                general[key] = newValue
            }
        }
    }

    /// Writes the affine part of `matrix` (m11, m12, m21, m22, m41, m42) into the planar
    /// columns of `layer`, as every general layer keeps it beside its 4×4 matrix. O(1).
    @inline(__always)
    mutating func setAffineColumns(from matrix: Transform3D, at layer: Int) {
        a[layer] = matrix.m11
        b[layer] = matrix.m12
        c[layer] = matrix.m21
        d[layer] = matrix.m22
        tx[layer] = matrix.m41
        ty[layer] = matrix.m42
    }

    /// True when the matrix is exactly `[[a b 0 0] [c d 0 0] [0 0 0 0] [tx ty 0 1]]`
    /// (NaN in a structural entry makes it general).
    @inline(__always)
    static func isPlanarForm(_ m: Transform3D) -> Bool {
        m.m13 == 0 && m.m14 == 0 && m.m23 == 0 && m.m24 == 0 && m.m31 == 0 && m.m32 == 0
            && m.m33 == 0 && m.m34 == 0 && m.m43 == 0 && m.m44 == 1
    }
}

extension Transform3D {
    /// The planar world form `[[a b 0 0] [c d 0 0] [0 0 0 0] [tx ty 0 1]]` (an affine
    /// map whose third column `Flat` has zeroed): what six world columns stand for.
    @inline(__always)
    init(planarA a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.init(
            m11: a, m12: b, m13: 0, m14: 0, m21: c, m22: d, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 0, m34: 0, m41: tx, m42: ty, m43: 0, m44: 1)
    }
}

/// The full 4×4 world matrices of the general layers, indexed by layer: a dense table
/// of 16 doubles per layer (row-major, layer i at `16 * i`, the layout the C kernel
/// streams), allocated when the first general layer is stored and grown as needed, plus
/// a presence flag per layer. Under a perspective root nearly every layer is general
/// (the `3d` workload), and a hash table there cost about 150 ns per layer, more than
/// the whole planar pass; a store without 3D allocates nothing here.
struct GeneralMatrices: Sendable {
    private var storage: [Double] = []
    private var isPresent: [UInt8] = []
    /// False only when no layer has a matrix here (`removeAll` then skips its work).
    private var mayHaveEntries = false

    /// The number of layers the table has room for.
    var capacity: Int { isPresent.count }

    /// Bytes allocated for the table's arrays (capacity × stride). O(1).
    var allocatedByteCount: Int { allocatedBytes(storage) + allocatedBytes(isPresent) }

    /// The matrix of `layer`, or nil when it has none. Setting nil removes it. O(1)
    /// (amortized when the table grows).
    subscript(layer: Int32) -> Transform3D? {
        get {
            let index = Int(layer)
            guard index < isPresent.count && isPresent[index] != 0 else { return nil }
            return storage.rowMajorMatrix(at: 16 * index)
        }
        set {
            let index = Int(layer)
            guard let newValue else {
                if index < isPresent.count { isPresent[index] = 0 }
                return
            }
            if index >= isPresent.count { reserve(layers: Swift.max(index + 1, isPresent.count * 2)) }
            isPresent[index] = 1
            mayHaveEntries = true
            storage.storeRowMajor(newValue, at: 16 * index)
        }
    }

    /// Grows the table to room for at least `layers` layers (new entries absent), so a
    /// pass can then write entries through `withRawColumns`, from several
    /// threads at once. O(layers) when it grows.
    mutating func reserve(layers: Int) {
        guard layers > isPresent.count else { return }
        storage.append(contentsOf: repeatElement(0, count: 16 * layers - storage.count))
        isPresent.append(contentsOf: repeatElement(0, count: layers - isPresent.count))
    }

    /// Calls `body` with the matrix storage (16 doubles per layer) and the presence flags
    /// (set an entry's flag to 1 when writing it); both have room for `capacity` layers
    /// (nil when that is 0).
    mutating func withRawColumns<R>(_ body: (RawColumn<Double>?, RawColumn<UInt8>?) -> R) -> R {
        mayHaveEntries = true
        return withOptionalRawColumn(&storage) { matrices in
            withOptionalRawColumn(&isPresent) { present in present == nil ? body(nil, nil) : body(matrices, present) }
        }
    }

    /// Forgets every matrix, keeping the storage for the next pass. O(table size), or
    /// O(1) when empty.
    mutating func removeAll() {
        guard mayHaveEntries else { return }
        let count = isPresent.count
        withOptionalRawColumn(&isPresent) { $0?.fill(0, from: 0, count: count) }
        mayHaveEntries = false
    }
}

extension Transform3D {
    /// From 16 doubles in row-major order at `pointer` (a matrix table's entry).
    @inline(__always)
    init(rowMajorAt pointer: RawColumn<Double>) {
        self.init(
            m11: pointer[0], m12: pointer[1], m13: pointer[2], m14: pointer[3],
            m21: pointer[4], m22: pointer[5], m23: pointer[6], m24: pointer[7],
            m31: pointer[8], m32: pointer[9], m33: pointer[10], m34: pointer[11],
            m41: pointer[12], m42: pointer[13], m43: pointer[14], m44: pointer[15])
    }

    /// Writes the 16 entries in row-major order at `pointer`.
    @inline(__always)
    func storeRowMajor(at pointer: RawColumn<Double>) {
        pointer[0] = m11
        pointer[1] = m12
        pointer[2] = m13
        pointer[3] = m14
        pointer[4] = m21
        pointer[5] = m22
        pointer[6] = m23
        pointer[7] = m24
        pointer[8] = m31
        pointer[9] = m32
        pointer[10] = m33
        pointer[11] = m34
        pointer[12] = m41
        pointer[13] = m42
        pointer[14] = m43
        pointer[15] = m44
    }
}

extension LayerStore {
    /// Stops with a message naming both structures when `world` was not computed for the
    /// store's current structure. O(1); the message survives release builds.
    @inline(__always)
    func checkSnapshot(_ world: WorldTransforms, file: StaticString = #file, line: UInt = #line) {
        let version = hierarchy.structureVersion
        let count = self.count
        if _slowPath(world.structureVersion != version || world.count != count) {
            staleSnapshot(world, version: version, count: count, file: file, line: line)
        }
    }

    @inline(never)
    private func staleSnapshot(
        _ world: WorldTransforms, version: UInt64, count: Int,
        file: StaticString, line: UInt
    ) -> Never {
        misuse(
            "stale WorldTransforms: it was computed for structure #\(world.structureVersion) (\(world.count) layers), "
                + "and the store's structure is now #\(version) (\(count) layers); layers were added, removed or moved "
                + "since, or it comes from another store: compute it again (updateWorld() or worldTransforms(options:))",
            file: file, line: line)
    }
}
