// Conversions to and from Core Graphics / Core Animation types where they exist, so
// apps can hand their CGRect, CGAffineTransform and CATransform3D values straight in.
// CGFloat is Double on every 64-bit Apple platform, so these are exact.

#if canImport(CoreGraphics)
import CoreGraphics

extension Point {
    public init(_ point: CGPoint) { self.init(x: Double(point.x), y: Double(point.y)) }
    public var cgPoint: CGPoint { CGPoint(x: x, y: y) }
}

extension Size {
    public init(_ size: CGSize) { self.init(width: Double(size.width), height: Double(size.height)) }
    public var cgSize: CGSize { CGSize(width: width, height: height) }
}

extension Rect {
    public init(_ rect: CGRect) {
        self.init(
            x: Double(rect.origin.x), y: Double(rect.origin.y),
            width: Double(rect.size.width), height: Double(rect.size.height))
    }
    public var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
}

extension AffineTransform {
    public init(_ t: CGAffineTransform) {
        self.init(
            a: Double(t.a), b: Double(t.b), c: Double(t.c), d: Double(t.d),
            tx: Double(t.tx), ty: Double(t.ty))
    }
    public var cgAffineTransform: CGAffineTransform {
        CGAffineTransform(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }
}
#endif

#if canImport(QuartzCore)
import QuartzCore

extension Transform3D {
    public init(_ t: CATransform3D) {
        self.init(
            m11: Double(t.m11), m12: Double(t.m12), m13: Double(t.m13), m14: Double(t.m14),
            m21: Double(t.m21), m22: Double(t.m22), m23: Double(t.m23), m24: Double(t.m24),
            m31: Double(t.m31), m32: Double(t.m32), m33: Double(t.m33), m34: Double(t.m34),
            m41: Double(t.m41), m42: Double(t.m42), m43: Double(t.m43), m44: Double(t.m44))
    }
    public var caTransform3D: CATransform3D {
        CATransform3D(
            m11: m11, m12: m12, m13: m13, m14: m14, m21: m21, m22: m22, m23: m23, m24: m24,
            m31: m31, m32: m32, m33: m33, m34: m34, m41: m41, m42: m42, m43: m43, m44: m44)
    }
}
#endif
