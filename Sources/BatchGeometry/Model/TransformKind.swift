/// What a transform does, from cheapest to most general, so kernels can pick a fast
/// path once per layer or per batch (Skia's `SkMatrix::TypeMask` idea, as an ordered
/// kind: a larger kind can represent everything a smaller one can).
///
/// The kind describes the whole 4×4 matrix: `translate` means `m41/m42` may be non-zero
/// and everything else is identity, `scale` adds a non-unit diagonal `m11/m22`,
/// `affine` any 2D affine map (rotation, skew), `threeDimensional` anything without
/// perspective (`m14 = m24 = m34 = 0, m44 = 1`), and `perspective` the rest.
public enum TransformKind: UInt8, Comparable, Sendable, CaseIterable, BitwiseCopyable {
    case identity = 0
    case translate = 1
    case scale = 2
    case affine = 3
    case threeDimensional = 4
    case perspective = 5

    @inlinable public static func < (lhs: TransformKind, rhs: TransformKind) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// True for kinds that a 2D affine transform `(a, b, c, d, tx, ty)` represents exactly.
    @inlinable public var isAffine: Bool { self <= .affine }
}
