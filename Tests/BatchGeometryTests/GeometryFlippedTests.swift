import XCTest

@_spi(Testing) @testable import BatchGeometry

/// geometryFlipped (GEOMETRY.md section 5): sublayers' y mirrored about the middle of the
/// superlayer's bounds, bounds.origin included, applied before the sublayerTransform.
final class GeometryFlippedTests: XCTestCase {
    /// A root with bounds (0,10,100,50) at position (50,35): its Local is the identity
    /// (bounds point (0,10) sits at world (0,10)). Flipped, y maps to (2*10 + 50) - y.
    func flippedParent() -> Fixture<(LayerHandle, LayerHandle)> {
        var store = LayerStore()
        let parent = try! store.addLayer()
        store.setBounds(Rect(x: 0, y: 10, width: 100, height: 50), of: parent)
        store.setPosition(Point(x: 50, y: 35), of: parent)
        store.setGeometryFlipped(true, of: parent)
        let child = store.addViewWithFrame(Rect(x: 0, y: 10, width: 20, height: 5), parent: parent)
        return Fixture(store: store, handles: (parent, child))
    }

    /// The child spans y in [10, 15] of the parent's bounds space: flipped, [55, 60].
    func testFlipMirrorsAboutTheBoundsMidLineIncludingTheOrigin() {
        let storeFixture = flippedParent()
        let (parent, child) = storeFixture.handles
        var store = storeFixture.store
        var world = store.referenceWorldTransforms()
        XCTAssertEqual(store.worldRect(of: child, in: world).rect, Rect(x: 0, y: 55, width: 20, height: 5))
        XCTAssertEqual(
            store.worldRect(of: parent, in: world).rect, Rect(x: 0, y: 10, width: 100, height: 50),
            "a layer's own flip does not move it")
        XCTAssertEqual(store.frame(of: child), Rect(x: 0, y: 10, width: 20, height: 5), "nor its sublayers' frames")
        store.setGeometryFlipped(false, of: parent)
        world = store.referenceWorldTransforms()
        XCTAssertEqual(store.worldRect(of: child, in: world).rect, Rect(x: 0, y: 10, width: 20, height: 5))
    }

    /// Flip, then sublayerTransform: child point (0,0) is parent (0,10); flipped to 60,
    /// then translated by 7: 67 (the other order would give 70 - 17 = 53).
    func testFlipComesBeforeTheSublayerTransform() {
        let storeFixture = flippedParent()
        let (_, child) = storeFixture.handles
        var store = storeFixture.store
        store.setSublayerTransform(.translation(x: 0, y: 7), of: store.superlayer(of: child)!)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(world[child].projectPoint(Point(x: 0, y: 0)), Point(x: 0, y: 67))
        XCTAssertEqual(referenceWorldPoint(store, layer: child, 0, 0).projected, Point(x: 0, y: 67))
    }

    /// Two flips cancel: a flipped child of a flipped parent places its own sublayers
    /// unflipped relative to itself.
    func testNestedFlipsCompose() {
        let storeFixture = flippedParent()
        let (_, child) = storeFixture.handles
        var store = storeFixture.store
        store.setGeometryFlipped(true, of: child)
        let grandchild = store.addViewWithFrame(Rect(x: 0, y: 0, width: 4, height: 1), parent: child)
        let world = store.referenceWorldTransforms()
        // In the child's bounds (0,0,20,5), flipped: y in [0,1] → [4,5]; child's bounds
        // y 4 … 5 sit at parent y 14 … 15, flipped to 56 … 55.
        XCTAssertEqual(store.worldRect(of: grandchild, in: world).rect, Rect(x: 0, y: 55, width: 4, height: 1))
    }

    /// Hit testing follows the flip: world y 57 is in the child; y 12 only in the parent.
    func testHitTestingFollowsTheFlip() {
        let storeFixture = flippedParent()
        let (parent, child) = storeFixture.handles
        let store = storeFixture.store
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.hitTest(Point(x: 10, y: 57), in: world), child)
        XCTAssertEqual(store.hitTest(Point(x: 10, y: 12), in: world), parent)
        // World y 57 is parent y 70 - 57 = 13, child y 13 - 10 = 3.
        assertGeometryClose(store.convert(Point(x: 10, y: 57), from: nil, to: child, in: world), Point(x: 10, y: 3))
    }

    /// With a scaling sublayerTransform about an anchor away from the centre and a
    /// non-zero bounds origin, the library agrees with the point walk.
    func testFlipWithSublayerTransformAgainstThePointWalk() {
        let storeFixture = flippedParent()
        let (parent, child) = storeFixture.handles
        var store = storeFixture.store
        store.setAnchorPoint(Point(x: 0.25, y: 0.8), of: parent)
        store.setSublayerTransform(
            Transform3D(BatchGeometry.AffineTransform(a: 2, b: 0.5, c: 0, d: 1.5, tx: 3, ty: -1)),
            of: parent)
        let world = store.referenceWorldTransforms()
        for (x, y) in [(0.0, 0.0), (20.0, 5.0), (7.5, 2.5)] {
            assertGeometryClose(
                world[child].projectPoint(Point(x: x, y: y)), referenceWorldPoint(store, layer: child, x, y).projected)
        }
    }
}
