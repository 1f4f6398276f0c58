import BatchGeometry
import XCTest

/// The Swift example of README.md, line for line, with its comments as assertions, so
/// the README cannot drift from what the package does.
final class ReadmeExampleTests: XCTestCase {
    func testTheReadmeExample() throws {
        var store = LayerStore()
        let window = try store.addLayer()  // a root
        store.setFrame(Rect(0, 0, 375, 812), of: window)
        let card = try store.addLayer(superlayer: window)  // last sublayer of window
        store.setFrame(Rect(100, 100, 100, 100), of: card)
        store.setAffineTransform(.scale(x: 2, y: 2), of: card)
        XCTAssertEqual(store.frame(of: card), Rect(50, 50, 200, 200))  // as on iOS (seed 001, Q1)
        XCTAssertEqual(store.bounds(of: card), Rect(0, 0, 100, 100))

        let frames = store.frames()  // every layer, batch kernel
        XCTAssertEqual(frames[card], Rect(50, 50, 200, 200))
        let world = store.updateWorld()  // ToWorld of every layer, cached
        // (60, 60) lies inside the scaled card, which now covers (50, 50)...(250, 250).
        XCTAssertEqual(store.hitTest(Point(60, 60), in: world), card)
        XCTAssertEqual(store.hitTest(Point(20, 20), in: world), window)
        // The card's bounds origin (0, 0) is its frame's top-left corner in the window.
        XCTAssertEqual(store.convert(Point(0, 0), from: card, to: nil, in: world), Point(50, 50))
        // The card's centre (50, 50) in its own space is its position.
        XCTAssertEqual(store.convert(Point(50, 50), from: card, to: window, in: world), Point(150, 150))

        // Device behaviour the store follows.
        try store.setDisplayScale(3)
        store.setContentOffset(Point(0, -187.5), of: card)
        XCTAssertEqual(store.bounds(of: card).origin, Point(0, -187.33333333333334))
        store.setAutoresizingMask([.flexibleWidth, .flexibleHeight], of: card)
        store.setBounds(Rect(0, 0, 750, 812), of: window)
        // The card's untransformed width (100, its only flexible part across) takes the
        // whole difference, 375: 475 wide; its left margin stays 100, so its position is
        // (0 + 100) + 0.5 * 475. The height did not change.
        XCTAssertEqual(store.bounds(of: card).size, Size(width: 475, height: 100))
        XCTAssertEqual(store.position(of: card), Point(337.5, 150))
    }

    /// The README's frame-query example, on the store of the first example.
    func testTheFrameQueryExample() throws {
        var store = LayerStore()
        let window = try store.addLayer()
        store.setFrame(Rect(0, 0, 375, 812), of: window)
        let card = try store.addLayer(superlayer: window)
        store.setFrame(Rect(100, 100, 100, 100), of: card)
        store.setAffineTransform(.scale(x: 2, y: 2), of: card)

        var drawn: [(LayerHandle, Transform3D, RectEdges?)] = []
        func draw(_ layer: LayerHandle, _ transform: Transform3D, clip: RectEdges?) {
            drawn.append((layer, transform, clip))
        }
        var visible = VisibleLayers()  // keep it: its storage is reused
        store.visibleLayers(in: Rect(0, 0, 375, 812), into: &visible)
        for k in 0..<visible.count {  // back to front
            draw(visible.layers[k], visible.worldTransforms[k], clip: visible.clipRects[k])
        }
        let touched = store.hitTest(Point(120, 200))  // card: the frontmost layer there
        XCTAssertEqual(drawn.map(\.0), [window, card])
        // The card's world transform: scale 2 about its centre (150, 150): x -> 2x - 50.
        XCTAssertEqual(drawn[1].1.projectPoint(Point(0, 0)), Point(50, 50))
        XCTAssertEqual(drawn.map(\.2), [nil, nil])
        XCTAssertEqual(touched, card)
        XCTAssertEqual(store.hitTest(Point(20, 20)), window)
    }
}
