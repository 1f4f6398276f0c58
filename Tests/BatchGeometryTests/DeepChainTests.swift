import XCTest

@_spi(Testing) @testable import BatchGeometry

/// A chain of 300,000 layers (`LimitsTests.depth`, where the reasoning is: past the
/// 262,144 levels at which a recursion fills the debug build's 8 MiB main-thread stack;
/// it was 1,000,000), each the only sublayer of the previous one. Every query must work
/// without recursion (a recursive walk would overflow the stack and crash the test
/// process) and in linear time.
final class DeepChainTests: XCTestCase {
    static let depth = LimitsTests.depth

    /// Layer k sits at frame (1, 2, 10, 10) inside layer k-1, so its world origin is
    /// (k, 2k) and every number stays an exact small integer.
    static let chain: LayerStore = {
        var store = LayerStore(minimumCapacity: depth)
        var parent: Int? = nil
        for k in 0..<depth {
            let layer = try! store.addLayer(superlayer: parent)
            store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: layer)
            store.setPosition(k == 0 ? Point(x: 5, y: 5) : Point(x: 6, y: 7), of: layer)
            parent = layer
        }
        return store
    }()

    /// Computed once and shared: each pass over a million layers takes a while in a
    /// debug build.
    static let world: WorldTransforms = chain.referenceWorldTransforms()

    var store: LayerStore { _read { yield Self.chain } }
    var deepest: Int { Self.depth - 1 }

    func testFramesOfTheWholeChain() {
        let frames = store.frames(options: .serial(.scalar))
        XCTAssertEqual(frames.count, Self.depth)
        XCTAssertEqual(frames[0], Rect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(frames[deepest], Rect(x: 1, y: 2, width: 10, height: 10))
        XCTAssertEqual(store.frame(of: deepest), Rect(x: 1, y: 2, width: 10, height: 10))
    }

    func testWorldTransformsAccumulateTheOffsets() {
        let world = Self.world
        XCTAssertEqual(world.count, Self.depth)
        let last = world[deepest]
        XCTAssertEqual(last.m41, Double(deepest))
        XCTAssertEqual(last.m42, Double(2 * deepest))
        XCTAssertEqual(last.m11, 1)
        XCTAssertEqual(last.m22, 1)
        XCTAssertEqual(last.m44, 1)
        // The walk up the parents (O(depth), no recursion) agrees with the one pass.
        XCTAssertEqual(store.worldTransform(of: deepest), last)
    }

    func testWorldRectHitTestAndConversionAtTheBottom() {
        let world = Self.world
        let d = Double(deepest)
        XCTAssertEqual(store.worldRect(of: deepest, in: world).rect, Rect(x: d, y: 2 * d, width: 10, height: 10))
        // (d + 0.5, 2d + 0.5) lies in the deepest layer and (further up) in its ancestors
        // up to the ones 9 steps above; the deepest is in front.
        XCTAssertEqual(store.hitTestIndex(Point(x: d + 0.5, y: 2 * d + 0.5), in: world), deepest)
        XCTAssertEqual(
            store.hitTest(Point(x: d + 0.5, y: 2 * d + 0.5), in: world, rule: .view), nil,
            "the view rule stops at the root, which does not contain the point")
        XCTAssertEqual(store.hitTestIndex(Point(x: 0.5, y: 0.5), in: world, rule: .view), 0)
        XCTAssertEqual(
            store.convert(Point(x: 3, y: 4), from: deepest, to: nil, in: world), Point(x: d + 3, y: 2 * d + 4))
        XCTAssertEqual(store.convert(Point(x: 3, y: 4), from: deepest, to: 0, in: world), Point(x: d + 3, y: 2 * d + 4))
        XCTAssertEqual(store.convert(Point(x: 0, y: 0), from: 0, to: deepest, in: world), Point(x: -d, y: -2 * d))
    }

    func testClipsVisibilityAndDrawOrder() {
        var masked = store.copy()
        masked.setMasksToBounds(true, of: 0)  // masking does not change world transforms
        let world = Self.world
        let rects = masked.worldRects(in: world)
        let clips = masked.clipRects(worldRects: rects)
        XCTAssertEqual(clips[deepest]?.rect, Rect(x: 0, y: 0, width: 10, height: 10))
        let visible = masked.visibility(worldRects: rects, clipRects: clips, viewport: nil)
        // Layer k's world rect starts at (k, 2k): it meets the root's 10×10 clip for k <= 4.
        XCTAssertEqual(visible.prefix(6), [true, true, true, true, true, false])
        XCTAssertFalse(visible[deepest])

        let order = store.drawOrder()
        XCTAssertEqual(order.count, Self.depth)
        XCTAssertTrue(order.map(\.index).elementsEqual(0..<Self.depth))
        masked.setHidden(true, of: 1)
        XCTAssertEqual(masked.drawOrderIndices(), [0])
    }
}
