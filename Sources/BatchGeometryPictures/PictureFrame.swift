// The mapping from world points to picture pixels, and clipping to what the picture
// shows (so that no coordinate printed is huge or infinite).

import BatchGeometry

/// Which part of the world a picture shows, and where it lands in pixels: world `minX`
/// maps to pixel `left`, world `minY` to pixel `top`, both axes scaled by `scale`
/// (y grows downwards in both, as in UIKit and SVG).
struct PictureFrame {
    /// The world rect framed (finite, positive size).
    var world: RectEdges
    var scale: Double
    var left: Double
    var top: Double
    /// The world region whose drawing can be seen: `world` grown by the picture's
    /// margin. Geometry is clipped to it before it is written.
    var clipBox: RectEdges

    /// Frames `world` in a drawing area of `width` pixels (and at most `height`, when
    /// given), `margin` pixels on each side, the top at `top`.
    init(world: RectEdges, width: Double, height: Double?, margin: Double, top: Double) {
        self.world = world
        let worldWidth = world.maxX - world.minX
        let worldHeight = world.maxY - world.minY
        var scale = (width - 2 * margin) / worldWidth
        if let height { scale = Swift.min(scale, (height - 2 * margin) / worldHeight) }
        self.scale = Swift.max(scale, 1e-9)
        left = margin
        self.top = top + margin
        let slack = (margin + 4) / self.scale
        clipBox = RectEdges(
            minX: world.minX - slack, minY: world.minY - slack, maxX: world.maxX + slack, maxY: world.maxY + slack)
    }

    /// The drawing's size in pixels, margins included.
    var pixelWidth: Double { 2 * left + (world.maxX - world.minX) * scale }
    var pixelBottom: Double { top + (world.maxY - world.minY) * scale + left }

    /// A world point in pixels.
    func map(_ point: Point) -> Point2D {
        Point2D(left + (point.x - world.minX) * scale, top + (point.y - world.minY) * scale)
    }

    /// A polygon in world points, clipped to `clipBox`, in pixels; `[]` when nothing of
    /// it is left or a vertex is NaN.
    func mapPolygon(_ polygon: [Point]) -> [Point2D] {
        if polygon.contains(where: { $0.x.isNaN || $0.y.isNaN }) { return [] }
        return Self.clip(polygon, to: clipBox).map(map)
    }

    /// Sutherland–Hodgman against the four sides of `box`. O(vertices).
    static func clip(_ polygon: [Point], to box: RectEdges) -> [Point] {
        var result = polygon
        result = clipSide(result, inside: { $0.x >= box.minX }, cut: { a, b in crossX(a, b, box.minX) })
        result = clipSide(result, inside: { $0.x <= box.maxX }, cut: { a, b in crossX(a, b, box.maxX) })
        result = clipSide(result, inside: { $0.y >= box.minY }, cut: { a, b in crossY(a, b, box.minY) })
        result = clipSide(result, inside: { $0.y <= box.maxY }, cut: { a, b in crossY(a, b, box.maxY) })
        return result
    }

    private static func clipSide(
        _ polygon: [Point], inside: (Point) -> Bool, cut: (Point, Point) -> Point
    ) -> [Point] {
        guard !polygon.isEmpty else { return [] }
        var result: [Point] = []
        for index in polygon.indices {
            let current = polygon[index]
            let next = polygon[(index + 1) % polygon.count]
            let currentInside = inside(current)
            if currentInside { result.append(current) }
            if currentInside != inside(next) { result.append(cut(current, next)) }
        }
        return result
    }

    private static func crossX(_ a: Point, _ b: Point, _ x: Double) -> Point {
        let t = (x - a.x) / (b.x - a.x)
        return Point(x: x, y: a.y + t * (b.y - a.y))
    }

    private static func crossY(_ a: Point, _ b: Point, _ y: Double) -> Point {
        let t = (y - a.y) / (b.y - a.y)
        return Point(x: a.x + t * (b.x - a.x), y: y)
    }

    /// A rect (possibly infinite on some sides) clipped to `clipBox`, in pixels as
    /// (x, y, width, height); nil when nothing of it is in the box.
    func mapRect(_ rect: RectEdges) -> (x: Double, y: Double, width: Double, height: Double)? {
        let shown = rect.intersection(clipBox)
        guard !shown.isNull, !shown.minX.isNaN, !shown.minY.isNaN else { return nil }
        let corner = map(Point(x: shown.minX, y: shown.minY))
        return (corner.x, corner.y, (shown.maxX - shown.minX) * scale, (shown.maxY - shown.minY) * scale)
    }
}
