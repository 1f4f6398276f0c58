import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Point and rect conversion (GEOMETRY.md section 5).
final class ConversionTests: XCTestCase {
    /// Seed 000: view2 at frame (0,0,100,100) in view1 (frame (100,100,200,200), bounds
    /// origin (-20,-20)): view2's origin is world (120,120), view1's (20,20).
    func testBetweenLayersAndTheWorld() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 200, height: 200))
        let view2 = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: view1)
        store.setBounds(Rect(x: -20, y: -20, width: 200, height: 200), of: view1)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.convert(Point(x: 0, y: 0), from: view2, to: nil, in: world), Point(x: 120, y: 120))
        XCTAssertEqual(store.convert(Point(x: 120, y: 120), from: nil, to: view2, in: world), Point(x: 0, y: 0))
        XCTAssertEqual(store.convert(Point(x: 0, y: 0), from: view2, to: view1, in: world), Point(x: 0, y: 0))
        XCTAssertEqual(store.convert(Point(x: 0, y: 0), from: view1, to: view2, in: world), Point(x: 0, y: 0))
        XCTAssertEqual(store.convert(Point(x: -20, y: -20), from: view1, to: nil, in: world), Point(x: 100, y: 100))
        XCTAssertEqual(store.convert(Point(x: 3, y: 4), from: nil, to: nil, in: world), Point(x: 3, y: 4))
    }

    /// Every pair of layers of the feature scene: convert(p, A → B) lands where the
    /// point walk puts p from A, and back.
    func testFeatureSceneRoundTrips() {
        let store = WorldTransformTests.featureScene()
        let world = store.referenceWorldTransforms()
        let point = Point(x: 12, y: 7)
        for a in 0..<store.count {
            let worldPoint = referenceWorldPoint(store, layer: a, point.x, point.y).projected
            assertGeometryClose(store.convert(point, from: a, to: nil, in: world), worldPoint, tolerance: 1e-11)
            for b in 0..<store.count {
                guard let converted = store.convert(point, from: a, to: b, in: world) else {
                    return XCTFail("\(a) → \(b) is not singular")
                }
                // The converted point, walked up from B, lands on the same world point.
                let back = referenceWorldPoint(store, layer: b, converted.x, converted.y).projected
                assertGeometryClose(back, worldPoint, tolerance: 1e-9, "\(a) → \(b)")
            }
        }
    }

    /// A singular destination (scale 0) gives nil, for points and rects; a singular
    /// source still maps forward (everything lands on a line).
    func testSingularLayers() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let collapsed = store.addViewWithFrame(Rect(x: 10, y: 10, width: 20, height: 20), parent: root)
        store.setAffineTransform(.scale(x: 0, y: 1), of: collapsed)
        let world = store.referenceWorldTransforms()
        XCTAssertNil(store.convert(Point(x: 20, y: 20), from: root, to: collapsed, in: world))
        XCTAssertNil(store.convert(Rect(x: 0, y: 0, width: 5, height: 5), from: root, to: collapsed, in: world))
        XCTAssertEqual(store.convert(Point(x: 0, y: 5), from: collapsed, to: root, in: world), Point(x: 20, y: 15))
    }

    /// Rect conversion is the box of the four converted corners: a 10×20 rect through a
    /// quarter turn becomes 20×10; the null rect stays null.
    func testRectConversion() {
        var store = LayerStore()
        let layer = store.addViewWithFrame(Rect(x: 150, y: 75, width: 100, height: 50))
        store.setAffineTransform(.rotation(radians: .pi / 2), of: layer)
        let world = store.referenceWorldTransforms()
        // Bounds point (x, y) → world (225 - y, 50 + x) for this quarter turn about (200, 100).
        XCTAssertEqual(
            store.convert(Rect(x: 0, y: 0, width: 10, height: 20), from: layer, to: nil, in: world),
            Rect(x: 205, y: 50, width: 20, height: 10))
        XCTAssertEqual(
            store.convert(Rect(x: 205, y: 50, width: 20, height: 10), from: nil, to: layer, in: world),
            Rect(x: 0, y: 0, width: 10, height: 20))
        XCTAssertEqual(store.convert(Rect.null, from: layer, to: nil, in: world), Rect.null)
        // A NaN corner makes the box meaningless: nil, not the box of the other corners.
        XCTAssertNil(store.convert(Rect(x: 0, y: 0, width: .nan, height: 20), from: layer, to: nil, in: world))
        // A negative-size rect is converted as its standardized self.
        XCTAssertEqual(
            store.convert(Rect(x: 10, y: 20, width: -10, height: -20), from: layer, to: nil, in: world),
            Rect(x: 205, y: 50, width: 20, height: 10))
    }

    /// Many points at once agree with one-at-a-time conversion.
    func testManyPointsAtOnce() {
        let store = WorldTransformTests.featureScene()
        let world = store.referenceWorldTransforms()
        let points = [Point(x: 0, y: 0), Point(x: 1.5, y: -2), Point(x: 300, y: 40)]
        let batch = store.convert(points: points, from: 5, to: 2, in: world, options: .serial(.scalar))
        XCTAssertEqual(batch, points.map { store.convert($0, from: 5, to: 2, in: world) })
    }
}
