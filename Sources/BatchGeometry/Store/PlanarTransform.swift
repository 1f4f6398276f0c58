// The matrices of the planar value functions (`transform.scale`, `transform.rotation`,
// `transform.translation` and their one-axis forms but x/y rotations and z translation)
// as seven numbers: what the presentation apply compares and stores without making,
// comparing and storing a 4×4 (GEOMETRY.md's transform columns keep the same bits).

/// A transform that is identity but for the affine part (`a b c d tx ty`: m11 m12 m21
/// m22 m41 m42) and `m33`, with `+0` in the other zero entries.
struct PlanarTransform: Sendable {
    var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double
    var m33: Double

    /// The 4×4 it stands for.
    var matrix: Transform3D {
        var m = Transform3D(AffineTransform(a: a, b: b, c: c, d: d, tx: tx, ty: ty))
        m.m33 = m33
        return m
    }

    /// `matrix.kind`: the matrix has no perspective entry, and is affine exactly when
    /// `m33 == 1`.
    @inline(__always)
    var kind: TransformKind {
        m33 != 1 ? .threeDimensional : AffineTransform(a: a, b: b, c: c, d: d, tx: tx, ty: ty).kind
    }

    /// `ParkedDrift.planeScale(matrix)` (which reads neither m11, m22 nor m33).
    @inline(__always)
    var planeScale: Point? {
        b == 0 && c == 0 && tx == 0 && ty == 0 ? Point(x: a, y: d) : nil
    }
}
