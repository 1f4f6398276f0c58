import XCTest

@_spi(Testing) @testable import BatchGeometry

/// World rects (GEOMETRY.md section 5) in 2D; perspective cases are in PerspectiveTests.
final class WorldRectTests: XCTestCase {
    func testPlainNestedLayers() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 10, y: 20, width: 300, height: 300))
        let child = store.addViewWithFrame(Rect(x: 5, y: 6, width: 30, height: 40), parent: root)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.worldRect(of: root, in: world).rect, Rect(x: 10, y: 20, width: 300, height: 300))
        XCTAssertEqual(store.worldRect(of: child, in: world).rect, Rect(x: 15, y: 26, width: 30, height: 40))
        XCTAssertEqual(
            store.worldRects(in: world).map(\.rect),
            [
                Rect(x: 10, y: 20, width: 300, height: 300),
                Rect(x: 15, y: 26, width: 30, height: 40),
            ])
    }

    /// A scaled parent scales its sublayer's world rect (seed 001 Q1: view2 at frame
    /// (50,50,50,50) inside view1 scaled 2× about its centre (150,150) lands at
    /// (150,150,100,100)).
    func testScaledParent() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100))
        let view2 = store.addViewWithFrame(Rect(x: 50, y: 50, width: 50, height: 50), parent: view1)
        store.setAffineTransform(.scale(x: 2, y: 2), of: view1)
        let world = store.referenceWorldTransforms()
        XCTAssertEqual(store.worldRect(of: view1, in: world).rect, Rect(x: 50, y: 50, width: 200, height: 200))
        XCTAssertEqual(store.worldRect(of: view2, in: world).rect, Rect(x: 150, y: 150, width: 100, height: 100))
    }

    /// A root's world rect is its frame when the transform is 2D; rotated 30° inside a
    /// rotated parent it is the box of the four corners the point walk gives.
    func testRotatedLayersAreTheBoxOfTheCorners() {
        var store = LayerStore()
        let parent = store.addViewWithFrame(Rect(x: 50, y: 60, width: 200, height: 100))
        store.setAffineTransform(.rotation(radians: .pi / 6), of: parent)
        let child = store.addViewWithFrame(Rect(x: 20, y: 10, width: 80, height: 30), parent: parent)
        store.setAffineTransform(.rotation(radians: -0.2), of: child)
        store.setBounds(Rect(x: 4, y: -3, width: 80, height: 30), of: child)
        let world = store.referenceWorldTransforms()
        assertGeometryClose(store.worldRect(of: parent, in: world), store.frame(of: parent).edges)
        let bounds = store.bounds(of: child)
        let corners = [
            (bounds.minX, bounds.minY), (bounds.minX, bounds.maxY), (bounds.maxX, bounds.minY),
            (bounds.maxX, bounds.maxY),
        ]
        .map { referenceWorldPoint(store, layer: child, $0.0, $0.1).projected }
        let expected = RectEdges(
            minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
            maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
        assertGeometryClose(store.worldRect(of: child, in: world), expected)
    }

    /// An exact quarter turn of a 100×50 layer centred at (200,100): (175,50,50,100).
    func testQuarterTurn() {
        var store = LayerStore()
        let layer = store.addViewWithFrame(Rect(x: 150, y: 75, width: 100, height: 50))
        store.setAffineTransform(.rotation(radians: .pi / 2), of: layer)
        XCTAssertEqual(
            store.worldRect(of: layer, in: store.referenceWorldTransforms()).rect,
            Rect(x: 175, y: 50, width: 50, height: 100))
    }

    /// Every layer of the feature scene: the world rect is the box of the point walk's
    /// projected corners (all in front of the eye there).
    func testFeatureSceneAgainstThePointWalk() {
        let store = WorldTransformTests.featureScene()
        let rects = store.worldRects(in: store.referenceWorldTransforms())
        for layer in 0..<store.count {
            let b = store.bounds(of: layer)
            let corners = [(b.minX, b.minY), (b.minX, b.maxY), (b.maxX, b.minY), (b.maxX, b.maxY)]
                .map { referenceWorldPoint(store, layer: layer, $0.0, $0.1).projected }
            let expected = RectEdges(
                minX: corners.map(\.x).min()!, minY: corners.map(\.y).min()!,
                maxX: corners.map(\.x).max()!, maxY: corners.map(\.y).max()!)
            assertGeometryClose(rects[layer], expected, tolerance: 1e-11, "layer \(layer)")
        }
    }
}
