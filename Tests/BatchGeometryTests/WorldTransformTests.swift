import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `ToWorld` (GEOMETRY.md section 5): the seed 000 worked examples by hand, the
/// sublayerTransform pivot, flattening, and agreement with the test's point walk.
final class WorldTransformTests: XCTestCase {
    /// Maps a point with the library's world matrix and projects it.
    func world(_ store: borrowing LayerStore, _ layer: LayerHandle, _ x: Double, _ y: Double) -> Point {
        store.referenceWorldTransforms()[layer].projectPoint(Point(x: x, y: y))
    }

    /// Seed 000: a view at frame (100,100,200,200) whose bounds become (-20,-20,200,200)
    /// shows its subview at frame (0,0,100,100) at world (120,120); frames do not change.
    func testBoundsOriginIsAScrollOffset() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 200, height: 200))
        let view2 = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: view1)
        store.setBounds(Rect(x: -20, y: -20, width: 200, height: 200), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 100, y: 100, width: 200, height: 200))
        XCTAssertEqual(store.frame(of: view2), Rect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(world(store, view2, 0, 0), Point(x: 120, y: 120))
        let worlds = store.referenceWorldTransforms()
        XCTAssertEqual(store.worldRect(of: view2, in: worlds).rect, Rect(x: 120, y: 120, width: 100, height: 100))
    }

    /// Seed 000: view1.bounds = view2.bounds = (0,100,100,100) move a view3 at frame
    /// (0,0,100,100) inside them 200 points up.
    func testBoundsOriginsAccumulate() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let view2 = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: view1)
        let view3 = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: view2)
        XCTAssertEqual(world(store, view3, 0, 0), Point(x: 0, y: 0))
        store.setBounds(Rect(x: 0, y: 100, width: 100, height: 100), of: view1)
        store.setBounds(Rect(x: 0, y: 100, width: 100, height: 100), of: view2)
        XCTAssertEqual(world(store, view3, 0, 0), Point(x: 0, y: -200))
        XCTAssertEqual(store.frame(of: view3), Rect(x: 0, y: 0, width: 100, height: 100))
    }

    /// The sublayerTransform pivots about the anchor point's location in bounds space,
    /// bounds.origin included: parent bounds (10,20,100,50), anchor (0.5,0.5) → pivot
    /// (60,45). With scale(2,2) a child point at parent-space (70,55) goes to
    /// (60 + 2*10, 45 + 2*10) = (80,65); the parent's Local moves its pivot (60,45) to its
    /// position (200,100): world (220,120).
    func testSublayerTransformPivotsAboutTheAnchorIncludingTheBoundsOrigin() {
        var store = LayerStore()
        let parent = try! store.addLayer()
        store.setBounds(Rect(x: 10, y: 20, width: 100, height: 50), of: parent)
        store.setPosition(Point(x: 200, y: 100), of: parent)
        store.setSublayerTransform(.scale(x: 2, y: 2), of: parent)
        let child = store.addViewWithFrame(Rect(x: 60, y: 45, width: 10, height: 10), parent: parent)
        XCTAssertEqual(world(store, child, 10, 10), Point(x: 220, y: 120))
        XCTAssertEqual(world(store, child, 0, 0), Point(x: 200, y: 100), "the pivot itself stays")
        // The parent's own geometry is unaffected by its sublayerTransform.
        XCTAssertEqual(world(store, parent, 10, 20), Point(x: 150, y: 75))
    }

    /// Flattening: a sublayer's own z is dropped in every non-transform superlayer, so
    /// below a flattening root the child's world third column is the root's plane:
    /// m13 = m23 = m33 = 0 and m43 = the root's zPosition (7), whatever the child's own
    /// zPosition (5); a root keeps its own (m33 = 1, m43 = zPosition).
    func testFlatteningZeroesTheThirdColumn() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        store.setZPosition(7, of: root)
        let child = store.addViewWithFrame(Rect(x: 10, y: 10, width: 10, height: 10), parent: root)
        store.setZPosition(5, of: child)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(world[root].m33, 1)
        XCTAssertEqual(world[root].m43, 7)
        XCTAssertEqual([world[child].m13, world[child].m23, world[child].m33, world[child].m43], [0, 0, 0, 7])
        store.setTransformLayer(true, of: root)
        let kept = store.referenceWorldTransforms()
        XCTAssertEqual(kept[child].m33, 1)
        XCTAssertEqual(kept[child].m43, 12, "z = 5 in the root's space, then the root's zPosition 7")
    }

    /// Root layers share the world space and are independent of each other.
    func testRootsShareTheWorldSpace() {
        var store = LayerStore()
        let a = store.addViewWithFrame(Rect(x: 10, y: 10, width: 10, height: 10))
        let b = store.addViewWithFrame(Rect(x: 50, y: 60, width: 10, height: 10))
        XCTAssertEqual(world(store, a, 0, 0), Point(x: 10, y: 10))
        XCTAssertEqual(world(store, b, 0, 0), Point(x: 50, y: 60))
    }

    /// A scene using every input (transforms with rotation and skew, sublayer transforms,
    /// flips, bounds origins, anchors, z, transform layers, perspective): the library's
    /// world matrices (one pass, and the walk up for one layer) map points where the
    /// test's step-by-step point walk does, to 1e-12 relative; the pass is also
    /// independent of the order layers were added in.
    func testEveryFeatureAgainstThePointWalk() {
        let store = Self.featureScene()
        let world = store.referenceWorldTransforms()
        for layer in 0..<store.count {
            let walked = store.worldTransform(of: layer)
            for (x, y) in [(0.0, 0.0), (13.5, -7.25), (100, 40)] {
                let expected = referenceWorldPoint(store, layer: layer, x, y)
                XCTAssertGreaterThan(expected.w, 0, "the scene keeps every point in front of the eye")
                assertGeometryClose(
                    world[layer].projectPoint(Point(x: x, y: y)), expected.projected, tolerance: 1e-11,
                    "layer \(layer)")
                assertGeometryClose(
                    walked.projectPoint(Point(x: x, y: y)), expected.projected, tolerance: 1e-11,
                    "walk, layer \(layer)")
            }
        }
    }

    /// The same scene with the hierarchy built in a different index order (parents
    /// after children): the pass must still visit superlayers first.
    func testSuperlayersAddedAfterSublayers() throws {
        var store = LayerStore()
        let child = store.addViewWithFrame(Rect(x: 5, y: 5, width: 10, height: 10))
        let parent = store.addViewWithFrame(Rect(x: 100, y: 200, width: 50, height: 50))
        store.setAffineTransform(.rotation(radians: 0.3), of: parent)
        try store.insertSublayer(child, into: parent)
        let world = store.referenceWorldTransforms()
        let expected = referenceWorldPoint(store, layer: child, 3, 4)
        assertGeometryClose(world[child].projectPoint(Point(x: 3, y: 4)), expected.projected)
    }

    /// Layers 0 … 11 exercising every property; used by several test files.
    static func featureScene() -> LayerStore {
        var store = LayerStore()
        let window = store.addViewWithFrame(Rect(x: 0, y: 0, width: 375, height: 812))
        let card = store.addViewWithFrame(Rect(x: 20, y: 40, width: 200, height: 120), parent: window)
        store.setAffineTransform(
            BatchGeometry.AffineTransform(a: 1.2, b: 0.3, c: -0.2, d: 0.9, tx: 4, ty: -3), of: card)
        store.setBounds(Rect(x: -7, y: 11, width: 200, height: 120), of: card)
        store.setAnchorPoint(Point(x: 0.2, y: 0.9), of: card)
        store.setSublayerTransform(.rotation(radians: 0.4, x: 0, y: 0, z: 1), of: card)
        let flipped = store.addViewWithFrame(Rect(x: 10, y: 20, width: 80, height: 60), parent: card)
        store.setGeometryFlipped(true, of: flipped)
        store.setBounds(Rect(x: 3, y: -9, width: 80, height: 60), of: flipped)
        let inFlipped = store.addViewWithFrame(Rect(x: 5, y: 6, width: 20, height: 10), parent: flipped)
        store.setSublayerTransform(.scale(x: 1.5, y: 0.5), of: flipped)
        store.setZPosition(12, of: inFlipped)
        let stage = store.addViewWithFrame(Rect(x: 100, y: 300, width: 200, height: 200), parent: window)
        var perspective = Transform3D.perspective(distance: 500)
        perspective.m41 = 0
        store.setSublayerTransform(perspective, of: stage)
        store.setTransformLayer(true, of: stage)
        let tilted = store.addViewWithFrame(Rect(x: 20, y: 20, width: 100, height: 80), parent: stage)
        store.setTransform(.rotation(radians: 0.5, x: 0, y: 1, z: 0), of: tilted)
        store.setAnchorPointZ(15, of: tilted)
        store.setZPosition(-20, of: tilted)
        store.setTransformLayer(true, of: tilted)
        let inTilted = store.addViewWithFrame(Rect(x: 10, y: 10, width: 30, height: 30), parent: tilted)
        store.setTransform(.rotation(radians: -0.3, x: 1, y: 0, z: 0), of: inTilted)
        store.setZPosition(25, of: inTilted)
        let flat = store.addViewWithFrame(Rect(x: 150, y: 20, width: 40, height: 40), parent: stage)
        store.setTransform(.rotation(radians: 0.7, x: 1, y: 1, z: 0), of: flat)
        let inFlat = store.addViewWithFrame(Rect(x: 1, y: 2, width: 10, height: 10), parent: flat)
        store.setZPosition(40, of: inFlat)
        let scroller = store.addViewWithFrame(Rect(x: 0, y: 600, width: 375, height: 200), parent: window)
        store.setContentOffset(Point(x: 0, y: 130), of: scroller)
        store.addViewWithFrame(Rect(x: 0, y: 100, width: 375, height: 50), parent: scroller)
        let secondRoot = store.addViewWithFrame(Rect(x: 400, y: 0, width: 100, height: 100))
        store.setAffineTransform(.scale(x: -1, y: 2), of: secondRoot)
        return store
    }
}
