// LayerStore.projectedQuad / Transform3D.projectedPolygon: the bounds quad through
// ToWorld, clipped at the eye plane.

import BatchGeometry
import XCTest

final class ProjectedQuadTests: XCTestCase {
    func testInFrontItIsTheFourProjectedCorners() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        store.setFrame(Rect(0, 0, 400, 400), of: root)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        store.setSublayerTransform(perspective, of: root)
        let card = try store.addLayer(superlayer: root)
        store.setFrame(Rect(100, 100, 200, 100), of: card)
        store.setTransform(.rotation(radians: 0.7, x: 0, y: 1, z: 0), of: card)
        let world = store.updateWorld()
        let quad = store.projectedQuad(of: card, in: world)
        let b = store.bounds(of: card)
        let corners = [
            Point(b.minX, b.minY), Point(b.maxX, b.minY), Point(b.maxX, b.maxY), Point(b.minX, b.maxY),
        ].map { world[card].projectPoint($0) }
        XCTAssertEqual(quad, corners)
        let rect = store.worldRect(of: card, in: world)
        XCTAssertEqual(quad.map(\.x).min(), rect.minX)
        XCTAssertEqual(quad.map(\.y).max(), rect.maxY)
        XCTAssertNotEqual(quad[0].y, quad[1].y)  // a trapezoid, not a box
    }

    func testPartlyBehindTheEyeIsCutAtNearW() {
        var transform = Transform3D.identity
        transform.m14 = -1.0 / 100  // W = 1 - x/100: x > 100 is behind the eye
        let polygon = transform.projectedPolygon(of: Rect(0, 0, 200, 50))
        XCTAssertEqual(polygon.count, 4)
        XCTAssertEqual(polygon[0], Point(0, 0))
        XCTAssertEqual(polygon[3], Point(0, 50))
        // The cut vertices lie at W = 1e-5: x = 100 - 1e-3, divided by 1e-5.
        XCTAssertEqual(polygon[1].x, (100 - 1e-3) / 1e-5, accuracy: 1e-3)
        XCTAssertEqual(polygon[2].y, 50 / 1e-5, accuracy: 1e-3)
        // Only the corner (0, 0) in front: a triangle.
        transform.m24 = -1.0 / 100
        let triangle = transform.projectedPolygon(of: Rect(0, 0, 200, 200))
        XCTAssertEqual(triangle.count, 3)
        XCTAssertEqual(triangle[0], Point(0, 0))
    }

    func testWhollyBehindIsEmpty() {
        var transform = Transform3D.identity
        transform.m44 = -1
        XCTAssertEqual(transform.projectedPolygon(of: Rect(0, 0, 10, 10)), [])
    }
}
