import XCTest

@_spi(Testing) @testable import BatchGeometry

/// 3D: perspective (m34 = -1/500), zPosition and anchorPointZ, transform layers versus
/// flattening, and what lies behind the eye. Hand-derived values.
final class PerspectiveTests: XCTestCase {
    /// A 1000×1000 root whose Local is the identity (bounds = world), with a perspective
    /// sublayerTransform about its centre (500, 500): a point at depth z in its space
    /// projects to `500 + (x - 500) / (1 - z/500)`.
    func stage() -> Fixture<LayerHandle> {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 1000, height: 1000))
        store.setSublayerTransform(.perspective(distance: 500), of: root)
        return Fixture(store: store, handles: root)
    }

    /// zPosition 100 in a container: kept by a transform layer (the point comes 1/0.8
    /// closer to the eye: (600,500) → (625,500)); flattened by an ordinary layer.
    func testTransformLayerKeepsZAndAnOrdinaryLayerFlattens() {
        for isTransformLayer in [true, false] {
            let storeFixture = stage()
            let root = storeFixture.handles
            var store = storeFixture.store
            let container = store.addViewWithFrame(Rect(x: 0, y: 0, width: 1000, height: 1000), parent: root)
            store.setTransformLayer(isTransformLayer, of: container)
            let layer = store.addViewWithFrame(Rect(x: 600, y: 500, width: 100, height: 100), parent: container)
            store.setZPosition(100, of: layer)
            let world = store.referenceWorldTransforms()
            let expected = isTransformLayer ? Point(x: 625, y: 500) : Point(x: 600, y: 500)
            assertGeometryClose(
                world[layer].projectPoint(Point(x: 0, y: 0)), expected, "transform layer: \(isTransformLayer)")
            assertGeometryClose(referenceWorldPoint(store, layer: layer, 0, 0).projected, expected, "point walk")
        }
    }

    /// A direct sublayer's z meets the superlayer's sublayerTransform before flattening:
    /// zPosition 100 → (625, 500); anchorPointZ 100 moves the plane to z = -100 instead:
    /// 500 + 100 / 1.2.
    func testZPositionAndAnchorPointZUnderPerspective() {
        let storeFixture = stage()
        let root = storeFixture.handles
        var store = storeFixture.store
        let near = store.addViewWithFrame(Rect(x: 600, y: 500, width: 100, height: 100), parent: root)
        store.setZPosition(100, of: near)
        let far = store.addViewWithFrame(Rect(x: 600, y: 500, width: 100, height: 100), parent: root)
        store.setAnchorPointZ(100, of: far)
        let world = store.referenceWorldTransforms()
        assertGeometryClose(world[near].projectPoint(Point(x: 0, y: 0)), Point(x: 625, y: 500))
        assertGeometryClose(world[far].projectPoint(Point(x: 0, y: 0)), Point(x: 500 + 100 / 1.2, y: 500))
        // The frame ignores both.
        XCTAssertEqual(store.frame(of: near), Rect(x: 600, y: 500, width: 100, height: 100))
        XCTAssertEqual(store.frame(of: far), Rect(x: 600, y: 500, width: 100, height: 100))
    }

    /// A 60° turn about y (CATransform3DMakeRotation: m11 = cos, m13 = -sin) of a
    /// 200×100 layer centred at (600, 500): its right-middle point, 100 from the anchor,
    /// goes to x = 100 cos, z = -100 sin, then projects to
    /// 500 + (100 + 100 cos) / (1 + 100 sin / 500).
    func testRotationAboutYUnderPerspective() {
        let storeFixture = stage()
        let root = storeFixture.handles
        var store = storeFixture.store
        let layer = store.addViewWithFrame(Rect(x: 500, y: 450, width: 200, height: 100), parent: root)
        let angle = Double.pi / 3
        store.setTransform(.rotation(radians: angle, x: 0, y: 1, z: 0), of: layer)
        let world = store.referenceWorldTransforms()
        let expectedX = 500 + (100 + 100 * cos(angle)) / (1 + 100 * sin(angle) / 500)
        assertGeometryClose(world[layer].projectPoint(Point(x: 200, y: 50)), Point(x: expectedX, y: 500))
        // The left-middle point moves away from the eye: 500 + (100 - 100 cos) / (1 - 100 sin / 500).
        let expectedLeft = 500 + (100 - 100 * cos(angle)) / (1 - 100 * sin(angle) / 500)
        assertGeometryClose(world[layer].projectPoint(Point(x: 0, y: 50)), Point(x: expectedLeft, y: 500))
        // The frame sees only the affine part: x scaled by cos 60° = 1/2.
        assertGeometryClose(store.frame(of: layer).width, 100)
    }

    /// A layer whose own matrix makes W = 1 - x/100 (m14 = -0.01; anchor (0,0) at the
    /// world origin, so ToWorld is that matrix): x in [0, 100) is in front of the eye,
    /// x > 100 behind it.
    func halfBehindTheEye() -> Fixture<LayerHandle> {
        var store = LayerStore()
        let layer = try! store.addLayer()
        store.setAnchorPoint(Point(x: 0, y: 0), of: layer)
        store.setBounds(Rect(x: 0, y: 0, width: 200, height: 100), of: layer)
        var transform = Transform3D.identity
        transform.m14 = -0.01
        store.setTransform(transform, of: layer)
        return Fixture(store: store, handles: layer)
    }

    /// Corners (0,0) and (0,100) are in front (W = 1); (200,0) and (200,100) behind
    /// (W = -1). Both crossing edges meet W = 0 at t = 1/2, at X = 100 > 0 (→ maxX = +inf);
    /// the top one at Y = 0 (adds nothing), the bottom one at Y = 100 > 0 (→ maxY = +inf).
    func testWorldRectClipsCornersBehindTheEye() {
        let storeFixture = halfBehindTheEye()
        let layer = storeFixture.handles
        let store = storeFixture.store
        let rect = store.worldRect(of: layer, in: store.referenceWorldTransforms())
        XCTAssertEqual(rect, RectEdges(minX: 0, minY: 0, maxX: .infinity, maxY: .infinity))
    }

    /// Mirrored: m14 = +0.01 over bounds (-200,-100,200,100) with anchor (1,1) (so the
    /// local coordinates are the bounds coordinates): W = 1 + x/100 runs from -1 (x = -200,
    /// behind) to 1 (x = 0). Visible corners (0,-100) and (0,0); the top edge crosses at
    /// (-100, -100) (→ minX = minY = -inf), the bottom edge at (-100, 0) (→ minX = -inf).
    func testWorldRectReachesNegativeInfinity() {
        var store = LayerStore()
        let layer = try! store.addLayer()
        store.setAnchorPoint(Point(x: 1, y: 1), of: layer)
        store.setBounds(Rect(x: -200, y: -100, width: 200, height: 100), of: layer)
        var transform = Transform3D.identity
        transform.m14 = 0.01
        store.setTransform(transform, of: layer)
        let rect = store.worldRect(of: layer, in: store.referenceWorldTransforms())
        XCTAssertEqual(rect, RectEdges(minX: -.infinity, minY: -.infinity, maxX: 0, maxY: 0))
        // With the anchor at (0,0) the local coordinates are (x + 200, y + 100): W in
        // [1, 3], no clipping; corners (0,0) (0,100) (200/3, 0) (200/3, 100/3).
        store.setAnchorPoint(Point(x: 0, y: 0), of: layer)
        let inFront = store.worldRect(of: layer, in: store.referenceWorldTransforms())
        assertGeometryClose(inFront, RectEdges(minX: 0, minY: 0, maxX: 200 / 3.0, maxY: 100))
    }

    /// Every corner behind the eye (m44 = -1, so W = -1): the null rect, never visible.
    func testAllCornersBehindTheEyeIsNull() {
        var store = LayerStore()
        let layer = store.addViewWithFrame(Rect(x: 0, y: 0, width: 10, height: 10))
        var transform = Transform3D.identity
        transform.m44 = -1
        store.setTransform(transform, of: layer)
        let world = store.referenceWorldTransforms()
        let rects = store.worldRects(in: world)
        XCTAssertTrue(rects[layer].isNull)
        XCTAssertEqual(rects[layer].rect, Rect.null)
        let clips = store.clipRects(worldRects: rects)
        XCTAssertEqual(store.visibility(worldRects: rects, clipRects: clips, viewport: nil), [false])
    }

    /// Hit testing: world (50, 20) lies on the front part (plane point (100/3, 40/3),
    /// W = 2/3): a hit. World (-300, -20) unprojects to plane point (150, 10), inside the
    /// bounds but at W = -1/2, behind the eye, where nothing is drawn: a miss.
    func testHitTestingMissesThePartBehindTheEye() {
        let storeFixture = halfBehindTheEye()
        let layer = storeFixture.handles
        let store = storeFixture.store
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.hitTest(Point(x: 50, y: 20), in: world), layer)
        assertGeometryClose(
            store.convert(Point(x: -300, y: -20), from: nil, to: layer, in: world), Point(x: 150, y: 10))
        XCTAssertNil(store.hitTest(Point(x: -300, y: -20), in: world))
        XCTAssertNil(store.hitTest(Point(x: -300, y: -20), in: world, rule: .view))
    }

    /// The batch entry point (which inverts each layer's homography once per batch)
    /// gives the same answers as the single-point one, behind-the-eye misses included,
    /// on every backend and thread count.
    func testBatchHitTestingMissesThePartBehindTheEyeToo() {
        let storeFixture = halfBehindTheEye()
        let layer = storeFixture.handles
        let store = storeFixture.store
        let world = store.referenceWorldTransforms()
        // Enough points for the batch path's per-layer table (it starts at 4 points).
        let points = [
            Point(x: 50, y: 20), Point(x: -300, y: -20), Point(x: 10, y: 10), Point(x: -300, y: -20),
            Point(x: 99, y: 99), Point(x: 250, y: 50),
        ]
        for rule in HitTestRule.allCases {
            let expected = points.map { store.hitTest($0, in: world, rule: rule) }
            XCTAssertEqual(expected[0], layer)
            XCTAssertNil(expected[1])
            for backend in Backend.allCases {
                for threads in 1...3 {
                    let batch = store.hitTest(
                        points: points, in: world, rule: rule,
                        options: KernelOptions(backend: backend, threads: threads))
                    XCTAssertEqual(batch, expected, "\(rule) \(backend) \(threads) threads")
                }
            }
        }
    }
}
