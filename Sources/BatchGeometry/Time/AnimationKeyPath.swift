// The key paths an animation may animate (docs/ANIMATION.md section 8): what shape its
// values have and which layer property it writes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A property an animation animates, by Core Animation's key path
/// (`AnimationKeyPath(rawValue: "position.x")`). docs/ANIMATION.md section 8.
public enum AnimationKeyPath: String, CaseIterable, Hashable, Sendable {
    /// `position`: (x, y).
    case position
    /// `position.x`.
    case positionX = "position.x"
    /// `position.y`.
    case positionY = "position.y"
    /// `bounds`: (x, y, width, height), not standardized.
    case bounds
    /// `bounds.origin`: (x, y).
    case boundsOrigin = "bounds.origin"
    /// `bounds.size`: (width, height).
    case boundsSize = "bounds.size"
    /// `anchorPoint`: (x, y) in unit coordinates.
    case anchorPoint
    /// `zPosition`.
    case zPosition
    /// `anchorPointZ`.
    case anchorPointZ
    /// Stored as a 32-bit float: every write rounds (as `CALayer.opacity`).
    case opacity
    /// The whole matrix (16 numbers, or 6 for an affine transform).
    case transform
    /// The whole matrix applied to the sublayers.
    case sublayerTransform
    /// Rotation about z in radians, through a value function (the same as `transform.rotation.z`).
    case transformRotation = "transform.rotation"
    /// Rotation about x, radians.
    case transformRotationX = "transform.rotation.x"
    /// Rotation about y, radians.
    case transformRotationY = "transform.rotation.y"
    /// Rotation about z, radians.
    case transformRotationZ = "transform.rotation.z"
    /// A uniform scale of x, y and z.
    case transformScale = "transform.scale"
    /// The x scale.
    case transformScaleX = "transform.scale.x"
    /// The y scale.
    case transformScaleY = "transform.scale.y"
    /// The z scale.
    case transformScaleZ = "transform.scale.z"
    /// An (x, y) translation.
    case transformTranslation = "transform.translation"
    /// The x translation.
    case transformTranslationX = "transform.translation.x"
    /// The y translation.
    case transformTranslationY = "transform.translation.y"
    /// The z translation.
    case transformTranslationZ = "transform.translation.z"

    /// How many numbers one value has: 1, 2 or 4, or 16 for a whole transform (which
    /// also accepts 6, an affine transform). O(1).
    public var arity: Int {
        switch self {
        case .position, .boundsOrigin, .boundsSize, .anchorPoint, .transformTranslation: return 2
        case .bounds: return 4
        case .transform, .sublayerTransform: return 16
        default: return 1
        }
    }

    /// Whether the key path is a whole matrix (`transform`, `sublayerTransform`).
    @inline(__always)
    public var isWholeTransform: Bool { self == .transform || self == .sublayerTransform }

    /// Whether the key path goes through a value function (`transform.rotation`, ...):
    /// the animated number becomes a matrix that writes `transform`.
    public var isValueFunction: Bool {
        switch self {
        case .transformRotation, .transformRotationX, .transformRotationY, .transformRotationZ, .transformScale,
            .transformScaleX, .transformScaleY, .transformScaleZ, .transformTranslation, .transformTranslationX,
            .transformTranslationY, .transformTranslationZ:
            return true
        default: return false
        }
    }

    /// The value function's identity: 1 for a scale, 0 for a rotation or a translation.
    var valueFunctionIdentity: Double {
        switch self {
        case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ: return 1
        default: return 0
        }
    }

    /// The value function's matrix `C(v)` for the number `v` (and `w`, the y of a
    /// translation pair) (section 8). O(1).
    func valueFunctionMatrix(_ v: Double, _ w: Double) -> Transform3D {
        var m = Transform3D.identity
        switch self {
        case .transformRotation, .transformRotationZ:
            (m.m11, m.m12, m.m21, m.m22) = (cos(v), sin(v), -sin(v), cos(v))
        case .transformRotationX:
            (m.m22, m.m23, m.m32, m.m33) = (cos(v), sin(v), -sin(v), cos(v))
        case .transformRotationY:
            (m.m11, m.m13, m.m31, m.m33) = (cos(v), -sin(v), sin(v), cos(v))
        case .transformScale: (m.m11, m.m22, m.m33) = (v, v, v)
        case .transformScaleX: m.m11 = v
        case .transformScaleY: m.m22 = v
        case .transformScaleZ: m.m33 = v
        case .transformTranslation: (m.m41, m.m42) = (v, w)
        case .transformTranslationX: m.m41 = v
        case .transformTranslationY: m.m42 = v
        case .transformTranslationZ: m.m43 = v
        default: break
        }
        return m
    }

    /// `valueFunctionMatrix(v, w)` as a `PlanarTransform` (the same operations, so the same
    /// bits), or nil for a value function that writes other entries (x and y rotations, z
    /// translation) or a key path that is none. O(1).
    @inline(__always)
    func planarValueFunction(_ v: Double, _ w: Double) -> PlanarTransform? {
        var m = PlanarTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0, m33: 1)
        switch self {
        case .transformRotation, .transformRotationZ: (m.a, m.b, m.c, m.d) = (cos(v), sin(v), -sin(v), cos(v))
        case .transformScale: (m.a, m.d, m.m33) = (v, v, v)
        case .transformScaleX: m.a = v
        case .transformScaleY: m.d = v
        case .transformScaleZ: m.m33 = v
        case .transformTranslation: (m.tx, m.ty) = (v, w)
        case .transformTranslationX: m.tx = v
        case .transformTranslationY: m.ty = v
        default: return nil
        }
        return m
    }
}
