import Foundation
import XCTest

@testable import BatchGeometry

/// The setters of GEOMETRY.md section 4: frame (under every kind of transform),
/// anchorPoint, bounds, contentOffset. Expectations from the seed device logs, by hand,
/// or from the spec's formula written out in the test.
final class FrameSetterTests: XCTestCase {
    func makeLayer(
        anchor: Point = Point(x: 0.5, y: 0.5), boundsOrigin: Point = .zero,
        transform: BatchGeometry.AffineTransform = .identity
    ) -> Fixture<LayerHandle> {
        var store = LayerStore()
        let layer = try! store.addLayer()
        store.setAnchorPoint(anchor, of: layer)
        store.setBounds(Rect(x: boundsOrigin.x, y: boundsOrigin.y, width: 40, height: 30), of: layer)
        store.setAffineTransform(transform, of: layer)
        return Fixture(store: store, handles: layer)
    }

    /// Identity: bounds.size = (w, h), position = x + ax*w (Core Animation's documented
    /// rule), bit for bit, for awkward fractions too; bounds.origin kept.
    func testIdentityUsesTheDocumentedRule() {
        let storeFixture = makeLayer(anchor: Point(x: 0.7, y: 0.35), boundsOrigin: Point(x: 5, y: -6))
        let layer = storeFixture.handles
        var store = storeFixture.store
        store.setFrame(Rect(x: 0.1, y: 0.2, width: 0.3, height: 1.7), of: layer)
        XCTAssertEqual(store.bounds(of: layer), Rect(x: 5, y: -6, width: 0.3, height: 1.7))
        assertSameBits(store.position(of: layer).x, 0.1 + 0.7 * 0.3)
        assertSameBits(store.position(of: layer).y, 0.2 + 0.35 * 1.7)
        store.setFrame(Rect(x: 10, y: 20, width: 100, height: 50), of: layer)
        XCTAssertEqual(store.position(of: layer), Point(x: 80, y: 37.5))
        XCTAssertEqual(store.frame(of: layer), Rect(x: 10, y: 20, width: 100, height: 50))
    }

    /// Seed 001 Q3 (device log): after scale(2,2), frame (50,50,100,100) gives bounds
    /// (0,0,50,50), position (100,100), and reads back (50,50,100,100).
    func testSeed001FrameAfterScale() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100))
        store.setAffineTransform(.scale(x: 2, y: 2), of: view1)
        store.setFrame(Rect(x: 50, y: 50, width: 100, height: 100), of: view1)
        XCTAssertEqual(store.bounds(of: view1), Rect(x: 0, y: 0, width: 50, height: 50))
        XCTAssertEqual(store.position(of: view1), Point(x: 100, y: 100))
        XCTAssertEqual(store.frame(of: view1), Rect(x: 50, y: 50, width: 100, height: 100))
    }

    /// Seed 001 Q8 and Q9: a subview's frame set inside a scaled view; anchorPoint (0,0),
    /// frame (200,200,200,200), then scale(2,2) reads (200,200,400,400).
    func testSeed001AnchorThenFrameThenScale() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100))
        let view2 = store.addViewWithFrame(Rect(x: 50, y: 50, width: 50, height: 50), parent: view1)
        store.setAnchorPoint(Point(x: 0, y: 0), of: view1)
        store.setFrame(Rect(x: 200, y: 200, width: 200, height: 200), of: view1)
        store.setAffineTransform(.scale(x: 2, y: 2), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 200, y: 200, width: 400, height: 400))
        XCTAssertEqual(store.bounds(of: view1), Rect(x: 0, y: 0, width: 200, height: 200))
        store.setFrame(Rect(x: 10, y: 10, width: 150, height: 150), of: view2)
        XCTAssertEqual(store.frame(of: view2), Rect(x: 10, y: 10, width: 150, height: 150))
        XCTAssertEqual(store.bounds(of: view2), Rect(x: 0, y: 0, width: 150, height: 150))
    }

    /// GEOMETRY.md section 9, X1 (an iOS log, Stack Overflow question 5802830): a 100×100
    /// view at (20, 20) rotated by 0.1 rad and given the same frame again reads back
    /// (11.063205, 20, 117.873589, 100) (the log prints six decimals). The old bounding-box
    /// rule gave (20, 20, 119.87, 119.87). The device of 2011 computed in 32-bit floats
    /// (CGFloat was float), so the log agrees to float precision: 1e-5 at these sizes.
    func testRotatedFrameSetterMatchesTheDeviceLog() {
        var store = LayerStore()
        let superview = store.addViewWithFrame(Rect(x: 0, y: 0, width: 320, height: 460))
        let view = store.addViewWithFrame(Rect(x: 20, y: 20, width: 100, height: 100), parent: superview)
        store.setAffineTransform(.rotation(radians: 0.1), of: view)
        store.setFrame(Rect(x: 20, y: 20, width: 100, height: 100), of: view)
        let frame = store.frame(of: view)
        XCTAssertEqual(frame.x, 11.063205, accuracy: 1e-5)
        XCTAssertEqual(frame.y, 20, accuracy: 1e-5)
        XCTAssertEqual(frame.width, 117.873589, accuracy: 1e-5)
        XCTAssertEqual(frame.height, 100, accuracy: 1e-5)
        XCTAssertEqual(store.position(of: view), Point(x: 70, y: 70))
    }

    /// GEOMETRY.md section 9, X1: GNUstep's CALayer geometry tests, checked against
    /// Apple's QuartzCore. setFrame (10, 20, 100, 50) under scale(2, 4) gives bounds
    /// 50×12.5 and position (60, 45); under translate(10, 20) bounds 100×50 and
    /// position (50, 25) (the translation is taken off the position).
    func testQuartzCoreScaleAndTranslationValues() {
        var store = LayerStore()
        let root = store.addViewWithFrame(Rect(x: 0, y: 0, width: 400, height: 400))
        let scaled = try! store.addLayer(superlayer: root)
        store.setTransform(Transform3D(rowMajor: [2, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), of: scaled)
        store.setFrame(Rect(x: 10, y: 20, width: 100, height: 50), of: scaled)
        XCTAssertEqual(store.bounds(of: scaled), Rect(x: 0, y: 0, width: 50, height: 12.5))
        XCTAssertEqual(store.position(of: scaled), Point(x: 60, y: 45))
        let moved = try! store.addLayer(superlayer: root)
        store.setAffineTransform(.translation(x: 10, y: 20), of: moved)
        store.setFrame(Rect(x: 10, y: 20, width: 100, height: 50), of: moved)
        XCTAssertEqual(store.bounds(of: moved), Rect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(store.position(of: moved), Point(x: 50, y: 25))
        XCTAssertEqual(store.frame(of: moved), Rect(x: 10, y: 20, width: 100, height: 50))
    }

    /// The size goes through the inverse 2×2 part as a signed vector, so flips and
    /// quarter turns give negative sizes: a quarter turn (x, y) -> (-y, x) turns the
    /// asked 30×40 into bounds 40×-30. Under scales, flips and translations the frame
    /// reads back exactly for every anchor (dyadic values keep the arithmetic exact).
    /// This replaces the old rule's "reads back under any rotation" (bounding-box sizes,
    /// always positive): devices do not do that (GEOMETRY.md section 9, X1).
    func testSignedSizesAndReadBackUnderScalesFlipsAndTranslations() {
        let transforms: [(String, BatchGeometry.AffineTransform, Size)] = [
            (
                "quarter turn", BatchGeometry.AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0),
                Size(width: 40, height: -30)
            ),
            (
                "minus quarter turn", BatchGeometry.AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 3, ty: -4),
                Size(width: -40, height: 30)
            ),
            (
                "half turn", BatchGeometry.AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 0, ty: 0),
                Size(width: -30, height: -40)
            ),
            ("horizontal flip", .scale(x: -1, y: 1), Size(width: -30, height: 40)),
            ("vertical flip", .scale(x: 1, y: -1), Size(width: 30, height: -40)),
            ("scale 2 and flip", .scale(x: -2, y: 0.5), Size(width: -15, height: 80)),
            ("translation", .translation(x: 12.5, y: -7), Size(width: 30, height: 40)),
        ]
        let anchors = [Point(x: 0.5, y: 0.5), Point(x: 0, y: 0), Point(x: 1, y: 0.25), Point(x: -1.5, y: 2.75)]
        let requested = Rect(x: 10, y: 20, width: 30, height: 40)
        for (name, transform, expectedSize) in transforms {
            for anchor in anchors {
                let storeFixture = makeLayer(anchor: anchor, boundsOrigin: Point(x: 3, y: 9), transform: transform)
                let layer = storeFixture.handles
                var store = storeFixture.store
                store.setFrame(requested, of: layer)
                XCTAssertEqual(
                    store.bounds(of: layer),
                    Rect(
                        x: 3, y: 9, width: expectedSize.width,
                        height: expectedSize.height), "\(name), anchor \(anchor)")
                XCTAssertEqual(
                    store.position(of: layer),
                    Point(
                        x: 10 + anchor.x * 30 - transform.tx,
                        y: 20 + anchor.y * 40 - transform.ty))
                // A half turn is a scale by -1: it reads back too. Quarter turns: below.
                if !name.contains("quarter") {
                    assertSameBits(store.frame(of: layer), requested, "\(name), anchor \(anchor)")
                }
            }
        }
    }

    /// Under a quarter turn the anchor point lands where the asked rect's anchor is, but
    /// the turned box puts it elsewhere: worked by hand, the frame is
    /// (x + (ax - ay)·W, y + (ay - ax)·H, W, H), so it reads back only when ax == ay.
    func testQuarterTurnReadsBackOnlyForDiagonalAnchors() {
        let quarterTurn = BatchGeometry.AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        for anchor in [Point(x: 0.5, y: 0.5), Point(x: 0, y: 0), Point(x: 1, y: 0.25), Point(x: -1.5, y: 2.75)] {
            let storeFixture = makeLayer(anchor: anchor, transform: quarterTurn)
            let layer = storeFixture.handles
            var store = storeFixture.store
            store.setFrame(Rect(x: 10, y: 20, width: 30, height: 40), of: layer)
            let expected = Rect(
                x: 10 + (anchor.x - anchor.y) * 30, y: 20 + (anchor.y - anchor.x) * 40, width: 30, height: 40)
            assertSameBits(store.frame(of: layer), expected, "anchor \(anchor)")
        }
    }

    /// 30°: bounds.size is (0,0,w,h)'s far corner under the inverse 2×2 part (a signed
    /// vector), position = (x + ax·w - tx, y + ay·h - ty), both written out here in the
    /// spec's operation order and compared bit for bit.
    func testThirtyDegreesFollowsTheSpecDefinition() {
        let storeFixture = makeLayer(anchor: Point(x: 0.25, y: 0.5), transform: .rotation(radians: .pi / 6))
        let layer = storeFixture.handles
        var store = storeFixture.store
        let requested = Rect(x: 10, y: 20, width: 100, height: 50)
        store.setFrame(requested, of: layer)

        let t = store.affineTransform(of: layer)
        let det = t.a * t.d - t.b * t.c
        let ia = t.d / det
        let ib = -t.b / det
        let ic = -t.c / det
        let id = t.a / det
        let bounds = store.bounds(of: layer)
        assertSameBits(bounds.width, ia * 100 + ic * 50)
        assertSameBits(bounds.height, ib * 100 + id * 50)
        XCTAssertEqual(bounds.origin, .zero)
        assertSameBits(store.position(of: layer).x, 10 + 0.25 * 100 - t.tx)
        assertSameBits(store.position(of: layer).y, 20 + 0.5 * 50 - t.ty)
    }

    /// A rotation close to a quarter turn makes one dimension negative, and a shear that
    /// maps the asked size onto an axis makes one exactly zero; both are kept as they come.
    func testNegativeAndZeroSizesAreKept() {
        let storeFixture = makeLayer(transform: .rotation(radians: 1.5))
        let layer = storeFixture.handles
        var store = storeFixture.store
        store.setFrame(Rect(x: 0, y: 0, width: 10, height: 100), of: layer)
        let c = cos(1.5)
        let s = sin(1.5)
        let det = c * c - s * -s
        assertSameBits(store.bounds(of: layer).width, (c / det) * 10 + (s / det) * 100)
        assertSameBits(store.bounds(of: layer).height, (-s / det) * 10 + (c / det) * 100)
        XCTAssertLessThan(store.bounds(of: layer).height, 0)
        // Shear (1, 0, 1, 1): inverse (1, 0, -1, 1); (w, h) = (10, 10) -> (10 - 10, 10) = (0, 10).
        let shear = BatchGeometry.AffineTransform(a: 1, b: 0, c: 1, d: 1, tx: 0, ty: 0)
        let shearedFixture = makeLayer(transform: shear)
        let shearedLayer = shearedFixture.handles
        var sheared = shearedFixture.store
        sheared.setFrame(Rect(x: 0, y: 0, width: 10, height: 10), of: shearedLayer)
        XCTAssertEqual(sheared.bounds(of: shearedLayer).size, Size(width: 0, height: 10))
    }

    /// A singular 2×2 part (scale(0, 2)): bounds.size stays (40, 30); the position is
    /// still (x + ax·w, y + ay·h) = (60, 70), so the frame is x in {60}, y in 70 ± 30.
    func testSingularTransformKeepsTheBoundsSize() {
        let storeFixture = makeLayer(boundsOrigin: Point(x: 1, y: 2), transform: .scale(x: 0, y: 2))
        let layer = storeFixture.handles
        var store = storeFixture.store
        store.setFrame(Rect(x: 10, y: 20, width: 100, height: 100), of: layer)
        XCTAssertEqual(store.bounds(of: layer), Rect(x: 1, y: 2, width: 40, height: 30))
        XCTAssertEqual(store.position(of: layer), Point(x: 60, y: 70))
        XCTAssertEqual(store.frame(of: layer), Rect(x: 60, y: 40, width: 0, height: 60))
    }

    /// A negative width or height is standardized first: (110, 70, -100, -50) is the
    /// rect (10, 20, 100, 50).
    func testNegativeSizeIsStandardized() {
        for transform in [BatchGeometry.AffineTransform.identity, .scale(x: 2, y: 2)] {
            let storeFixture = makeLayer(anchor: Point(x: 0, y: 1), transform: transform)
            let layer = storeFixture.handles
            var store = storeFixture.store
            store.setFrame(Rect(x: 110, y: 70, width: -100, height: -50), of: layer)
            XCTAssertEqual(store.frame(of: layer), Rect(x: 10, y: 20, width: 100, height: 50), "\(transform)")
            XCTAssertEqual(
                store.bounds(of: layer).size,
                transform.isIdentity
                    ? Size(width: 100, height: 50)
                    : Size(width: 50, height: 25))
        }
    }

    /// Seed 001 Q6: anchorPoint (0,0) keeps position (150,150), so a (100,100,100,100)
    /// view moves to frame (150,150,100,100); scale(2,2) then grows it from that corner.
    func testAnchorPointSetterMovesTheFrame() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100))
        XCTAssertEqual(store.position(of: view1), Point(x: 150, y: 150))
        store.setAnchorPoint(Point(x: 0, y: 0), of: view1)
        XCTAssertEqual(store.position(of: view1), Point(x: 150, y: 150))
        XCTAssertEqual(store.frame(of: view1), Rect(x: 150, y: 150, width: 100, height: 100))
        store.setAffineTransform(.scale(x: 2, y: 2), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 150, y: 150, width: 200, height: 200))
    }

    /// Seed 000: bounds larger than the frame grow it about the centre:
    /// new x = old x - (bounds.w - old w) / 2. Seed 001 Q7: a 50×50 subview at (50,50)
    /// given bounds 150×150 reads frame (0,0,150,150).
    func testBoundsSetterGrowsAboutTheAnchor() {
        var store = LayerStore()
        let view = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100))
        store.setBounds(Rect(x: 0, y: 0, width: 200, height: 150), of: view)
        XCTAssertEqual(
            store.frame(of: view),
            Rect(
                x: 100 - (200 - 100) / 2, y: 100 - (150 - 100) / 2,
                width: 200, height: 150))
        let subview = store.addViewWithFrame(Rect(x: 50, y: 50, width: 50, height: 50), parent: view)
        store.setBounds(Rect(x: 0, y: 0, width: 150, height: 150), of: subview)
        XCTAssertEqual(store.frame(of: subview), Rect(x: 0, y: 0, width: 150, height: 150))
        // About anchor (0, 0) the top-left corner stays.
        store.setAnchorPoint(Point(x: 0, y: 0), of: subview)
        let corner = store.frame(of: subview).origin
        store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: subview)
        XCTAssertEqual(store.frame(of: subview), Rect(x: corner.x, y: corner.y, width: 10, height: 10))
    }

    /// contentOffset is bounds.origin: it changes neither the size nor the frame.
    func testContentOffsetSetsTheBoundsOrigin() {
        var store = LayerStore()
        let view = store.addViewWithFrame(Rect(x: 0, y: 400, width: 375, height: 300))
        store.setContentOffset(Point(x: 0, y: 250), of: view)
        XCTAssertEqual(store.bounds(of: view), Rect(x: 0, y: 250, width: 375, height: 300))
        XCTAssertEqual(store.contentOffset(of: view), Point(x: 0, y: 250))
        XCTAssertEqual(store.frame(of: view), Rect(x: 0, y: 400, width: 375, height: 300))
        // Setting the frame afterwards keeps the offset.
        store.setFrame(Rect(x: 5, y: 5, width: 100, height: 100), of: view)
        XCTAssertEqual(store.contentOffset(of: view), Point(x: 0, y: 250))
    }

    /// `center` is `position`.
    func testCenterIsPosition() {
        var store = LayerStore()
        let view = store.addViewWithFrame(Rect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(store.center(of: view), Point(x: 25, y: 40))
        store.setCenter(Point(x: 0, y: 0), of: view)
        XCTAssertEqual(store.frame(of: view), Rect(x: -15, y: -20, width: 30, height: 40))
    }
}
