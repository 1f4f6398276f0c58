// Conservative boxes for the output-sensitive queries (visibleLayers, the culled hit
// test): a box may be larger than what it bounds, never smaller. Exact answers come from
// the same expressions the full passes use; boxes only decide what to skip.

extension RectEdges {
    /// Every point: the extent of a subtree that cannot be bounded (3D under a transform
    /// layer, a corner at or behind the eye, non-finite values).
    static let unbounded = RectEdges(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)

    /// The smallest box holding both; the null rect is the identity. Neither may hold NaN.
    @inline(__always)
    func union(_ other: RectEdges) -> RectEdges {
        if isNull { return other }
        if other.isNull { return self }
        return RectEdges(
            minX: Swift.min(minX, other.minX), minY: Swift.min(minY, other.minY),
            maxX: Swift.max(maxX, other.maxX), maxY: Swift.max(maxY, other.maxY))
    }

    /// The two boxes share a region of positive area (touching edges do not count).
    @inline(__always)
    func overlapsOpenly(_ other: RectEdges) -> Bool {
        !isNull && !other.isNull && minX < other.maxX && other.minX < maxX && minY < other.maxY
            && other.minY < maxY
    }

    /// The two boxes meet, edges included.
    @inline(__always)
    func meets(_ other: RectEdges) -> Bool {
        !isNull && !other.isNull && minX <= other.maxX && other.minX <= maxX && minY <= other.maxY
            && other.minY <= maxY
    }

    /// `point` lies in the box widened by `margin`, edges included.
    @inline(__always)
    func containsClosed(_ point: Point, margin: Double = 0) -> Bool {
        !isNull && minX - margin <= point.x && point.x <= maxX + margin && minY - margin <= point.y
            && point.y <= maxY + margin
    }
}

/// The plane part of a 4×4 transform: how a point `(x, y, 0, 1)` maps to `(X, Y, W)`
/// (rows and columns 1, 2 and 4; the z column does not reach a flattened plane or the
/// screen).
struct PlaneMap {
    var m11, m12, m14, m21, m22, m24, m41, m42, m44: Double

    @inline(__always)
    init(_ m: Transform3D) {
        (m11, m12, m14, m21, m22, m24, m41, m42, m44) = (m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44)
    }

    @inline(__always)
    init(_ m: AffineTransform) {
        (m11, m12, m14, m21, m22, m24, m41, m42, m44) = (m.a, m.b, 0, m.c, m.d, 0, m.tx, m.ty, 1)
    }

    /// An affine map that turns boxes (a rotation or a shear): the box around a mapped box
    /// is larger than the mapped box.
    var isRotatingAffine: Bool { m14 == 0 && m24 == 0 && m44 == 1 && (m12 != 0 || m21 != 0) }

    /// How far a point unprojected through this map (from the world point `p`) may be
    /// from the exact plane point, widened far past the rounding: nil when the map is
    /// too close to singular to prune with. For an affine map only the 2×2 part decides
    /// (a translation shifts points, it does not amplify their errors); the error bound
    /// is a few ulps of `(|p| + |t|) · ‖A⁻¹‖` plus of the result. A projective map (a
    /// layer under perspective) gets no margin and is not pruned by: its few sublayers are
    /// tried one by one.
    func unprojectionMargin(of p: Point, result q: Point) -> Double? {
        if m14 == 0 && m24 == 0 && m44 == 1 {
            let scale = Swift.max(Swift.max(abs(m11), abs(m12)), Swift.max(abs(m21), abs(m22)))
            let det = m11 * m22 - m12 * m21
            guard det.isFinite, scale.isFinite, abs(det) >= 0x1p-24 * scale * scale else { return nil }
            let inverseNorm = 2 * scale / abs(det)
            let margin =
                0x1p-36 * ((abs(p.x) + abs(p.y) + abs(m41) + abs(m42)) * inverseNorm + abs(q.x) + abs(q.y))
            return margin.isFinite ? margin : nil
        }
        return nil
    }
}

/// Relative slack added around every mapped box. One map step rounds each coordinate by
/// a few ulps of its largest term; the kernels associate the same products differently
/// (matrix times matrix, then the corners), so a box is widened by far more than that
/// (2^-40 of the terms' magnitude, rounded up to a power of two), at every level it
/// passes through.
let cullingSlack = 0x1p-40

/// The box around the image of `box` under `map`, widened by `cullingSlack`: the null
/// rect stays null; `.unbounded` when a corner maps to `W <= 0` (at or behind the eye,
/// where the image is not the quad of the corners) or anything is non-finite. No
/// allocation.
@inline(__always)
func mappedBox(_ box: RectEdges, through map: PlaneMap) -> RectEdges {
    if box.isNull { return .null }
    guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return .unbounded }
    // A struct's mutating method, not a local function: a local function that captures
    // mutable locals gets a heap-allocated context in unoptimized builds.
    var image = CornerImage()
    if map.m14 == 0 && map.m24 == 0 && map.m44 == 1 {
        image.addAffine(box.minX, box.minY, map)
        image.addAffine(box.minX, box.maxY, map)
        image.addAffine(box.maxX, box.minY, map)
        image.addAffine(box.maxX, box.maxY, map)
    } else {
        image.add(box.minX, box.minY, map)
        image.add(box.minX, box.maxY, map)
        image.add(box.maxX, box.minY, map)
        image.add(box.maxX, box.maxY, map)
    }
    return paddedBox(image)
}

/// `mappedBox(box, through:)` of the translation by `shift` (a = d = 1, b = c = 0), with
/// those constants folded by hand (the compiler keeps `mappedBox` out of line): the same
/// values, bit for bit. Half of `mappedBox`'s instructions, for the boxes a frame redoes
/// most (labels, badges, cards).
@inline(__always)
func translatedBox(_ box: RectEdges, by shift: (x: Double, y: Double)) -> RectEdges {
    if box.isNull { return .null }
    guard box.minX.isFinite, box.minY.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return .unbounded }
    var image = CornerImage()
    image.addTranslated(box.minX, box.minY, shift)
    image.addTranslated(box.minX, box.maxY, shift)
    image.addTranslated(box.maxX, box.minY, shift)
    image.addTranslated(box.maxX, box.maxY, shift)
    return paddedBox(image)
}

/// The box of four mapped corners with the culling slack around it (`.unbounded` when a
/// corner was not finite or the slack overflows): `mappedBox`'s and `translatedBox`'s
/// last step, in one place.
@inline(__always)
private func paddedBox(_ image: CornerImage) -> RectEdges {
    guard image.bounded, image.magnitude.isFinite else { return .unbounded }
    // A power of two: an edit that moves a box by less than its magnitude's binade (a
    // scroll) leaves the slack, and so the box's growth, unchanged.
    let magnitude = image.magnitude
    let pad = magnitude > 0 ? binadeAbove(magnitude) * cullingSlack : 0
    guard pad.isFinite else { return .unbounded }
    let out = image.box
    return RectEdges(minX: out.minX - pad, minY: out.minY - pad, maxX: out.maxX + pad, maxY: out.maxY + pad)
}

/// `2^(exponent + 1)` of a positive finite `magnitude` (infinity past the largest
/// binade): `Double(sign: .plus, exponent: magnitude.exponent + 1, significand: 1)`, with
/// a normal magnitude's exponent bits kept in place of those two out-of-line calls (once
/// per mapped box; the product by 2 is exact, or infinity as that initializer gives).
@inline(__always)
func binadeAbove(_ magnitude: Double) -> Double {
    guard magnitude.isNormal else { return Double(sign: .plus, exponent: magnitude.exponent + 1, significand: 1) }
    return Double(bitPattern: magnitude.bitPattern & 0x7FF0_0000_0000_0000) * 2
}

/// The projected corners of a box, gathered one at a time by `mappedBox`.
struct CornerImage {
    var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
    /// The largest magnitude of the terms that rounded into a corner.
    var magnitude = 0.0
    /// False once a corner maps to W <= 0 or to a non-finite point.
    var bounded = true

    @inline(__always)
    mutating func add(_ x: Double, _ y: Double, _ map: PlaneMap) {
        let xa = x * map.m11
        let ya = y * map.m21
        let xb = x * map.m12
        let yb = y * map.m22
        let xw = x * map.m14
        let yw = y * map.m24
        let w = (xw + yw) + map.m44
        guard w > 0 else {
            bounded = false
            return
        }
        let px = ((xa + ya) + map.m41) / w
        let py = ((xb + yb) + map.m42) / w
        guard px.isFinite, py.isFinite else {
            bounded = false
            return
        }
        let terms =
            (abs(xa) + abs(ya) + abs(map.m41) + abs(xb) + abs(yb) + abs(map.m42)
                + (abs(px) + abs(py)) * (abs(xw) + abs(yw) + abs(map.m44))) / w
        magnitude = Swift.max(magnitude, terms)
        box.minX = Swift.min(box.minX, px)
        box.maxX = Swift.max(box.maxX, px)
        box.minY = Swift.min(box.minY, py)
        box.maxY = Swift.max(box.maxY, py)
    }

    /// `addAffine(x, y, map)` for a translation by `shift` (a = d = 1, b = c = 0): `x · 1`
    /// is `x`; `y · 0` and `x · 0` stay (their sign reaches a zero sum), and their
    /// magnitudes, +0, drop out of `terms` (adding +0 to a sum of magnitudes is exact).
    @inline(__always)
    mutating func addTranslated(_ x: Double, _ y: Double, _ shift: (x: Double, y: Double)) {
        let px = (x + y * 0) + shift.x
        let py = (x * 0 + y) + shift.y
        guard px.isFinite, py.isFinite else {
            bounded = false
            return
        }
        let terms = abs(x) + abs(shift.x) + abs(y) + abs(shift.y) + (abs(px) + abs(py))
        magnitude = Swift.max(magnitude, terms)
        box.minX = Swift.min(box.minX, px)
        box.maxX = Swift.max(box.maxX, px)
        box.minY = Swift.min(box.minY, py)
        box.maxY = Swift.max(box.maxY, py)
    }

    /// `add(x, y, map)` for an affine map (m14 = m24 = 0, m44 = 1) and a finite corner,
    /// without the divisions: there w = (x·0 + y·0) + 1 = 1 exactly, so dividing by it and
    /// multiplying by |x·0| + |y·0| + 1 change nothing, and the values are the same bits.
    @inline(__always)
    mutating func addAffine(_ x: Double, _ y: Double, _ map: PlaneMap) {
        let xa = x * map.m11
        let ya = y * map.m21
        let xb = x * map.m12
        let yb = y * map.m22
        let px = (xa + ya) + map.m41
        let py = (xb + yb) + map.m42
        guard px.isFinite, py.isFinite else {
            bounded = false
            return
        }
        let terms = abs(xa) + abs(ya) + abs(map.m41) + abs(xb) + abs(yb) + abs(map.m42) + (abs(px) + abs(py))
        magnitude = Swift.max(magnitude, terms)
        box.minX = Swift.min(box.minX, px)
        box.maxX = Swift.max(box.maxX, px)
        box.minY = Swift.min(box.minY, py)
        box.maxY = Swift.max(box.maxY, py)
    }
}
