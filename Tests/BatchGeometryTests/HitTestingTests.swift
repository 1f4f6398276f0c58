import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Hit testing (GEOMETRY.md section 7): both rules, by hand.
final class HitTestingTests: XCTestCase {
    /// window (0,0,375,812) ⊃ parent (100,100,100,100) ⊃ inside (10,10,20,20) and
    /// outside (150,0,50,50) (sticking out to world x 250…300).
    struct Scene: ~Copyable {
        var store = LayerStore()
        var window = LayerHandle(rawValue: 0), parent = LayerHandle(rawValue: 0)
        var inside = LayerHandle(rawValue: 0), outside = LayerHandle(rawValue: 0)
        init() {
            window = store.addViewWithFrame(Rect(x: 0, y: 0, width: 375, height: 812))
            parent = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100), parent: window)
            inside = store.addViewWithFrame(Rect(x: 10, y: 10, width: 20, height: 20), parent: parent)
            outside = store.addViewWithFrame(Rect(x: 150, y: 0, width: 50, height: 50), parent: parent)
        }
        func hit(_ x: Double, _ y: Double, _ rule: HitTestRule = .layer) -> LayerHandle? {
            store.hitTest(Point(x: x, y: y), in: store.referenceWorldTransforms(), rule: rule)
        }
    }

    func testLayerRuleHitsSublayersOutsideAnUnmaskedSuperlayer() {
        let scene = Scene()
        XCTAssertEqual(scene.hit(115, 115), scene.inside)
        XCTAssertEqual(scene.hit(150, 150), scene.parent)
        XCTAssertEqual(scene.hit(260, 110), scene.outside)
        XCTAssertEqual(scene.hit(5, 5), scene.window)
        XCTAssertNil(scene.hit(-1, 5))
    }

    func testMasksToBoundsGatesTheSubtree() {
        var scene = Scene()
        scene.store.setMasksToBounds(true, of: scene.parent)
        XCTAssertEqual(scene.hit(260, 110), scene.window, "outside the masking parent: its subtree misses")
        XCTAssertEqual(scene.hit(115, 115), scene.inside)
    }

    /// The view rule: outside a view's bounds its whole subtree misses, whatever
    /// clipsToBounds says.
    func testViewRuleStopsAtTheBounds() {
        let scene = Scene()
        XCTAssertEqual(scene.hit(260, 110, .view), scene.window)
        XCTAssertEqual(scene.hit(115, 115, .view), scene.inside)
        XCTAssertEqual(scene.hit(150, 150, .view), scene.parent)
        XCTAssertNil(scene.hit(400, 5, .view))
    }

    /// Half-open: minX and minY hit, maxX and maxY miss (CGRectContainsPoint).
    func testEdgesAreHalfOpen() {
        var store = LayerStore()
        let layer = store.addViewWithFrame(Rect(x: 10, y: 20, width: 30, height: 40))
        let world = store.referenceWorldTransforms()
        for rule in HitTestRule.allCases {
            XCTAssertEqual(store.hitTest(Point(x: 10, y: 20), in: world, rule: rule), layer)
            XCTAssertEqual(store.hitTest(Point(x: 39.999999, y: 59.999999), in: world, rule: rule), layer)
            XCTAssertNil(store.hitTest(Point(x: 40, y: 30), in: world, rule: rule))
            XCTAssertNil(store.hitTest(Point(x: 20, y: 60), in: world, rule: rule))
            XCTAssertNil(store.hitTest(Point(x: 10.0.nextDown, y: 30), in: world, rule: rule))
        }
    }

    /// An empty bounds contains nothing, not even its origin.
    func testEmptyBoundsContainNothing() {
        var store = LayerStore()
        store.addViewWithFrame(Rect(x: 10, y: 10, width: 0, height: 10))
        XCTAssertNil(store.hitTest(Point(x: 10, y: 15), in: store.referenceWorldTransforms()))
    }

    func testHiddenSubtreesMiss() {
        var scene = Scene()
        scene.store.setHidden(true, of: scene.parent)
        XCTAssertEqual(scene.hit(115, 115), scene.window)
        XCTAssertEqual(scene.hit(260, 110), scene.window)
        scene.store.setHidden(false, of: scene.parent)
        scene.store.setHidden(true, of: scene.inside)
        XCTAssertEqual(scene.hit(115, 115), scene.parent)
    }

    /// Later siblings win when zPositions are equal. (This test used to assert that
    /// zPosition never changes hit order, after seed 002; devices and QuartzCore-checked
    /// suites show CALayer's hit testing follows zPosition: HitTestOrderTests, GEOMETRY.md
    /// section 9, X3.)
    func testLaterSiblingsWinAmongEqualZPositions() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let first = store.addViewWithFrame(Rect(x: 0, y: 0, width: 50, height: 50), parent: root)
        let second = store.addViewWithFrame(Rect(x: 25, y: 25, width: 50, height: 50), parent: root)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.hitTest(Point(x: 30, y: 30), in: world), second)
        XCTAssertEqual(store.hitTest(Point(x: 10, y: 10), in: world), first)
        store.setZPosition(10, of: first)
        XCTAssertEqual(store.drawOrder(), [root, second, first])
        XCTAssertEqual(
            store.hitTest(Point(x: 30, y: 30), in: store.referenceWorldTransforms()), first,
            "drawn in front, so hit first under the layer rule")
        XCTAssertEqual(store.hitTest(Point(x: 30, y: 30), in: store.referenceWorldTransforms(), rule: .view), second)
    }

    /// Roots are tested last to first.
    func testLaterRootsWin() {
        var store = LayerStore()
        store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let front = store.addViewWithFrame(Rect(x: 50, y: 50, width: 100, height: 100))
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.hitTest(Point(x: 60, y: 60), in: world), front)
        XCTAssertEqual(store.hitTest(Point(x: 10, y: 10), in: world)?.index, 0)
    }

    /// A singular layer (scale 0) misses; under the layer rule an unmasked singular layer
    /// does not stop its subtree (a transform layer's sublayer can undo the collapse),
    /// a masked one does.
    func testSingularLayersMiss() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let collapsed = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        store.setTransform(.rotation(radians: .pi / 2, x: 0, y: 1, z: 0), of: collapsed)  // edge-on
        store.setTransformLayer(true, of: collapsed)
        let restored = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: collapsed)
        store.setTransform(.rotation(radians: -.pi / 2, x: 0, y: 1, z: 0), of: restored)
        var world = store.referenceWorldTransforms()
        XCTAssertNil(store.convert(Point(x: 50, y: 50), from: nil, to: collapsed, in: world))
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world), restored)
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world, rule: .view), root)
        store.setMasksToBounds(true, of: collapsed)
        world = store.referenceWorldTransforms()
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: world), root)
        // A plain scale(0, 1) layer misses too.
        let flat = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        store.setAffineTransform(.scale(x: 0, y: 1), of: flat)
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 50), in: store.referenceWorldTransforms()), root)
    }

    /// Rotated and scaled layers: the point is converted into the layer's bounds space.
    func testTransformedLayers() {
        var store = LayerStore()
        let layer = store.addViewWithFrame(Rect(x: 150, y: 75, width: 100, height: 50))
        store.setAffineTransform(.rotation(radians: .pi / 2), of: layer)  // world rect (175,50,50,100)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.hitTest(Point(x: 180, y: 60), in: world), layer)
        XCTAssertNil(store.hitTest(Point(x: 160, y: 60), in: world))
    }

    /// The batch entry point agrees with one-at-a-time calls.
    func testManyPointsAtOnce() {
        let scene = Scene()
        let points = [Point(x: 115, y: 115), Point(x: 150, y: 150), Point(x: 260, y: 110), Point(x: -1, y: -1)]
        let world = scene.store.referenceWorldTransforms()
        XCTAssertEqual(
            scene.store.hitTest(points: points, in: world, options: .serial(.scalar)),
            [scene.inside, scene.parent, scene.outside, nil])
    }
}
