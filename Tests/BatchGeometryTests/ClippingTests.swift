import XCTest

@_spi(Testing) @testable import BatchGeometry

/// clipRect and visible (GEOMETRY.md section 6), by hand.
final class ClippingTests: XCTestCase {
    struct Evaluation {
        var rects: [RectEdges]
        var clips: [RectEdges?]
        var visible: [Bool]
    }

    func evaluate(_ store: borrowing LayerStore, viewport: Rect? = nil) -> Evaluation {
        let rects = store.worldRects(in: store.referenceWorldTransforms())
        let clips = store.clipRects(worldRects: rects)
        return Evaluation(
            rects: rects, clips: clips,
            visible: store.visibility(worldRects: rects, clipRects: clips, viewport: viewport))
    }

    /// A (0,0,100,100) masks; B inside it at (50,50,100,100) masks; C inside B spans
    /// (50,50,200,200) in the world. C's clip is A ∩ B = (50,50,50,50); B's is A; A has
    /// none: its own masksToBounds does not clip itself.
    func testMaskingAncestorsIntersect() {
        var store = LayerStore()
        let a = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let b = store.addViewWithFrame(Rect(x: 50, y: 50, width: 100, height: 100), parent: a)
        let c = store.addViewWithFrame(Rect(x: 0, y: 0, width: 200, height: 200), parent: b)
        store.setMasksToBounds(true, of: a)
        store.setMasksToBounds(true, of: b)
        let result = evaluate(store)
        XCTAssertNil(result.clips[a])
        XCTAssertEqual(result.clips[b]?.rect, Rect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(result.clips[c]?.rect, Rect(x: 50, y: 50, width: 50, height: 50))
        XCTAssertEqual(result.visible, [true, true, true])
        // Without masking nothing clips.
        store.setMasksToBounds(false, of: a)
        store.setMasksToBounds(false, of: b)
        XCTAssertEqual(evaluate(store).clips.map { $0 == nil }, [true, true, true])
    }

    /// A non-masking layer between masking ones passes the clip down unchanged; a
    /// sublayer outside every masking ancestor is clipped away (not visible).
    func testClipPassesThroughAndHidesOutsideLayers() {
        var store = LayerStore()
        let a = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        store.setMasksToBounds(true, of: a)
        let middle = store.addViewWithFrame(Rect(x: 0, y: 0, width: 10, height: 10), parent: a)
        let outside = store.addViewWithFrame(Rect(x: 200, y: 0, width: 10, height: 10), parent: middle)
        let touching = store.addViewWithFrame(Rect(x: 100, y: 0, width: 10, height: 10), parent: middle)
        let result = evaluate(store)
        XCTAssertEqual(result.clips[outside]?.rect, Rect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertFalse(result.visible[outside])
        XCTAssertFalse(result.visible[touching], "sharing only an edge is zero area")
        XCTAssertTrue(result.visible[middle])
    }

    /// Disjoint masking ancestors: the clip is the null rect (+inf, +inf, 0, 0).
    func testDisjointMasksGiveTheNullRect() {
        var store = LayerStore()
        let a = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let b = store.addViewWithFrame(Rect(x: 200, y: 0, width: 100, height: 100), parent: a)
        let c = store.addViewWithFrame(Rect(x: 0, y: 0, width: 10, height: 10), parent: b)
        store.setMasksToBounds(true, of: a)
        store.setMasksToBounds(true, of: b)
        let result = evaluate(store)
        XCTAssertEqual(result.clips[c]?.isNull, true)
        XCTAssertEqual(result.clips[c]?.rect, Rect.null)
        XCTAssertFalse(result.visible[c])
    }

    /// A masking ancestor entirely behind the eye clips everything below it.
    func testMaskingAncestorBehindTheEyeClipsEverything() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 500, height: 500))
        let masking = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100), parent: root)
        var behind = Transform3D.identity
        behind.m44 = -1
        store.setTransform(behind, of: masking)
        store.setMasksToBounds(true, of: masking)
        store.setTransformLayer(true, of: masking)
        let child = store.addViewWithFrame(Rect(x: 0, y: 0, width: 10, height: 10), parent: masking)
        store.setTransform(behind, of: child)  // W = (-1)(-1) = 1: the child itself is in front
        let result = evaluate(store)
        XCTAssertTrue(result.rects[masking].isNull)
        XCTAssertFalse(result.rects[child].isNull)
        XCTAssertEqual(result.clips[child]?.isNull, true)
        XCTAssertEqual(result.visible, [true, false, false])
    }

    /// Hidden hides the subtree; zero-size layers are not visible.
    func testHiddenSubtreesAndZeroSizeLayers() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 100, height: 100))
        let hidden = store.addViewWithFrame(Rect(x: 0, y: 0, width: 50, height: 50), parent: root)
        let inHidden = store.addViewWithFrame(Rect(x: 0, y: 0, width: 10, height: 10), parent: hidden)
        let thin = store.addViewWithFrame(Rect(x: 60, y: 60, width: 0, height: 20), parent: root)
        let inThin = store.addViewWithFrame(Rect(x: 0, y: 0, width: 5, height: 5), parent: thin)
        store.setHidden(true, of: hidden)
        let result = evaluate(store)
        XCTAssertEqual(result.visible, [true, false, false, false, true])
        XCTAssertEqual(inThin.index, 4)
        XCTAssertEqual(inHidden.index, 2)
    }

    /// The viewport (world space) intersects too: partly inside is visible, outside or
    /// touching is not.
    func testViewport() {
        var store = LayerStore()
        store.addViewWithFrame(Rect(x: 0, y: 0, width: 10, height: 10))
        store.addViewWithFrame(Rect(x: 370, y: 800, width: 10, height: 20))
        store.addViewWithFrame(Rect(x: 375, y: 0, width: 10, height: 10))
        store.addViewWithFrame(Rect(x: -10, y: -10, width: 5, height: 5))
        let viewport = Rect(x: 0, y: 0, width: 375, height: 812)
        XCTAssertEqual(evaluate(store, viewport: viewport).visible, [true, true, false, false])
        XCTAssertEqual(evaluate(store).visible, [true, true, true, true])
    }
}
