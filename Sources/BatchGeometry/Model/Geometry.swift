// Plain value types for points, sizes, rects and insets.
//
// BatchGeometry imports no Foundation, so it cannot use CGPoint & co. on Linux; these
// mirror them field for field (see CoreGraphicsInterop.swift for conversions on Apple
// platforms). All coordinates are in points, as `Double`, origin top-left, y down.

/// A point in a layer's coordinate space, in points.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }
}

/// A width and height, in points. Negative values are allowed and kept as given.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    @inlinable public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "(\(width), \(height))" }
}

/// A rectangle `(x, y, width, height)`, like `CGRect`.
///
/// Rect arithmetic in this package (intersection, area, containment) works on the edges
/// `minX, minY, maxX, maxY` so that half-infinite rects (a layer crossing the eye plane)
/// behave; `(x, y, width, height)` is the storage and output form.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size
    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }
    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    @inlinable public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: x, y: y, width: width, height: height)
    }
    /// A rect from its edges; `width = maxX - minX` (which keeps infinities meaningful).
    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// `CGRectNull`: `(+inf, +inf, 0, 0)`, the result of intersecting disjoint rects.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    @inlinable public var x: Double { origin.x }
    @inlinable public var y: Double { origin.y }
    @inlinable public var width: Double { size.width }
    @inlinable public var height: Double { size.height }
    /// True for `CGRectNull` (an origin at +infinity).
    @inlinable public var isNull: Bool { origin.x == .infinity || origin.y == .infinity }

    /// The smaller x edge. Like `CGRectGetMinX`, a negative width is allowed for.
    @inlinable public var minX: Double { size.width < 0 ? origin.x + size.width : origin.x }
    @inlinable public var minY: Double { size.height < 0 ? origin.y + size.height : origin.y }
    @inlinable public var maxX: Double { size.width < 0 ? origin.x : origin.x + size.width }
    @inlinable public var maxY: Double { size.height < 0 ? origin.y : origin.y + size.height }

    /// The same rect with a non-negative size (`CGRectStandardize`): a negative width
    /// moves the origin by the width and flips its sign.
    @inlinable public var standardized: Rect {
        var result = self
        if result.size.width < 0 {
            result.origin.x += result.size.width
            result.size.width = -result.size.width
        }
        if result.size.height < 0 {
            result.origin.y += result.size.height
            result.size.height = -result.size.height
        }
        return result
    }

    /// The rect's edges, the form all rect arithmetic here uses.
    @inlinable public var edges: RectEdges {
        isNull ? .null : RectEdges(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
    }

    /// `CGRectContainsPoint`: half-open, `minX <= p.x < maxX` and the same for y.
    @inlinable public func contains(_ point: Point) -> Bool {
        minX <= point.x && point.x < maxX && minY <= point.y && point.y < maxY
    }

    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }
}

/// A rect kept as its four edges, so that half-infinite rects (a layer crossing the
/// eye plane reaches to infinity on one side) survive arithmetic: `-inf ... 5` has no
/// meaningful `(x, width)` form, but its edges are exact.
public struct RectEdges: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double
    @inlinable public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }
    /// The null rect, `CGRectNull`: it has no edges; written as `(+inf, +inf, 0, 0)`.
    public static let null = RectEdges(minX: .infinity, minY: .infinity, maxX: .infinity, maxY: .infinity)
    @inlinable public var isNull: Bool { minX == .infinity || minY == .infinity }

    /// The output form `(x, y, width, height)`, `width = maxX - minX`; null maps to
    /// `Rect.null`.
    @inlinable public var rect: Rect {
        isNull ? .null : Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// `CGRectIntersection`: `x0 = max(minX)`, `x1 = min(maxX)`, same for y; the null
    /// rect unless `x1 >= x0 && y1 >= y0` (touching rects meet in an empty rect).
    @inlinable public func intersection(_ other: RectEdges) -> RectEdges {
        if isNull || other.isNull { return .null }
        let x0 = Swift.max(minX, other.minX)
        let x1 = Swift.min(maxX, other.maxX)
        let y0 = Swift.max(minY, other.minY)
        let y1 = Swift.min(maxY, other.maxY)
        if x1 >= x0 && y1 >= y0 { return RectEdges(minX: x0, minY: y0, maxX: x1, maxY: y1) }
        return .null
    }

    /// Not null and enclosing a positive area (`maxX > minX && maxY > minY`).
    @inlinable public var hasPositiveArea: Bool { !isNull && maxX > minX && maxY > minY }

    public var description: String { "[\(minX) ... \(maxX)] x [\(minY) ... \(maxY)]" }
}

/// Insets `(top, left, bottom, right)`, like `UIEdgeInsets`; used for scroll views.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    @inlinable public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}
