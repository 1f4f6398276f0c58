// The frame getter and setter math of GEOMETRY.md sections 3 and 4, for one layer.
//
// These functions are the reference that every batch backend must match bit for bit:
// each line is one IEEE-754 operation in the spec's order. Swift never contracts
// `a * b + c` into a fused multiply-add, so writing the operations out is enough.

/// `MIN(p, q) = q < p ? q : p`: the select every backend uses, so NaN and signed zeros
/// come out the same everywhere (x86 `minpd(q, p)` computes exactly this).
@inlinable @inline(__always)
func selectMin(_ p: Double, _ q: Double) -> Double { q < p ? q : p }

/// `MAX(p, q) = q > p ? q : p` (x86 `maxpd(q, p)`).
@inlinable @inline(__always)
func selectMax(_ p: Double, _ q: Double) -> Double { q > p ? q : p }

/// The bounding box `(minX, minY, maxX, maxY)` of the bounds rect placed around the
/// anchor point, `(-w*ax, -h*ay, w, h)`, under the affine transform: the frame before
/// `position` is added. Corners in the order (xMin,yMin) (xMin,yMax) (xMax,yMin) (xMax,yMax).
@inlinable
func anchoredBox(
    width w: Double, height h: Double, anchorX ax: Double, anchorY ay: Double,
    transform t: AffineTransform
) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    let rx = (-w) * ax
    let ry = (-h) * ay
    let xMax = rx + w
    let yMax = ry + h
    let x0 = ((t.a * rx) + (t.c * ry)) + t.tx
    let y0 = ((t.b * rx) + (t.d * ry)) + t.ty
    let x1 = ((t.a * rx) + (t.c * yMax)) + t.tx
    let y1 = ((t.b * rx) + (t.d * yMax)) + t.ty
    let x2 = ((t.a * xMax) + (t.c * ry)) + t.tx
    let y2 = ((t.b * xMax) + (t.d * ry)) + t.ty
    let x3 = ((t.a * xMax) + (t.c * yMax)) + t.tx
    let y3 = ((t.b * xMax) + (t.d * yMax)) + t.ty
    return (
        selectMin(selectMin(selectMin(x0, x1), x2), x3),
        selectMin(selectMin(selectMin(y0, y1), y2), y3),
        selectMax(selectMax(selectMax(x0, x1), x2), x3),
        selectMax(selectMax(selectMax(y0, y1), y2), y3)
    )
}

/// The frame getter (GEOMETRY.md section 3): the anchored box moved by `position`.
@inlinable
func frameRect(
    width: Double, height: Double, anchorX: Double, anchorY: Double,
    transform: AffineTransform, positionX: Double, positionY: Double
) -> Rect {
    let box = anchoredBox(width: width, height: height, anchorX: anchorX, anchorY: anchorY, transform: transform)
    return Rect(
        x: box.minX + positionX, y: box.minY + positionY,
        width: box.maxX - box.minX, height: box.maxY - box.minY)
}

/// The bounds size that the frame setter gives a layer whose transform has this affine
/// part (GEOMETRY.md section 4): the requested size itself under an identity transform;
/// otherwise the requested size taken through the inverse of the 2×2 part as a signed
/// vector, as `CGSizeApplyAffineTransform(size, CGAffineTransformInvert(t))` does on a
/// device (section 9, X1): not a bounding box, so either dimension may come out negative
/// or zero. `current` is kept when the 2×2 part is singular. `width`/`height` are the
/// standardized requested size.
@inlinable
func boundsSizeForFrame(width w: Double, height h: Double, transform t: AffineTransform, current: Size) -> Size {
    if t.isIdentity { return Size(width: w, height: h) }
    let determinant = (t.a * t.d) - (t.b * t.c)
    if determinant == 0 { return current }
    let ia = t.d / determinant
    let ib = -t.b / determinant
    let ic = -t.c / determinant
    let id = t.a / determinant
    return Size(width: (ia * w) + (ic * h), height: (ib * w) + (id * h))
}

/// The position that the frame setter gives (GEOMETRY.md section 4):
/// `(x + ax*w - tx, y + ay*h - ty)` with the requested, standardized rect. The anchor
/// point goes where the requested rect's anchor point is, less the translation; under a
/// rotation the frame therefore does not read back as requested (as on a device).
@inlinable
func positionForFrame(_ requested: Rect, anchorX ax: Double, anchorY ay: Double, transform t: AffineTransform) -> Point
{
    Point(x: (requested.x + (ax * requested.width)) - t.tx, y: (requested.y + (ay * requested.height)) - t.ty)
}

/// A contentOffset coordinate rounded to device pixels as `-[UIScrollView
/// setContentOffset:]` does (GEOMETRY.md section 8, section 9 X4): `round(v)` at scale 1
/// (ties away from zero, C `round`); else `f + round((v - f) * s) / s` with
/// `f = floor(v)`, so ties go toward +infinity. Non-finite `v` follows the formula:
/// NaN stays NaN; ±infinity stays at scale 1 and becomes NaN otherwise (inf - inf).
@inlinable
func pixelRounded(_ v: Double, scale s: Double) -> Double {
    if s == 1 { return v.rounded(.toNearestOrAwayFromZero) }
    let f = v.rounded(.down)
    return f + ((v - f) * s).rounded(.toNearestOrAwayFromZero) / s
}
