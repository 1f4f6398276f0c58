import XCTest

@testable import BatchGeometry

/// The frame getter, GEOMETRY.md section 3: hand-derived values, the seed 001 device
/// logs, and bit-exact agreement with the spec's operation order written out here.
final class FrameGetterTests: XCTestCase {
    /// The spec's sequence of operations, written independently in the test: corners
    /// (rx,ry) (rx,ry+h) (rx+w,ry) (rx+w,ry+h), `X = a*x + c*y + tx`, min/max by plain
    /// comparisons (the inputs below are finite, so no NaN question arises).
    static func specFrame(
        w: Double, h: Double, ax: Double, ay: Double, t: BatchGeometry.AffineTransform,
        px: Double, py: Double
    ) -> Rect {
        let rx = -w * ax
        let ry = -h * ay
        let xs = [rx, rx, rx + w, rx + w]
        let ys = [ry, ry + h, ry, ry + h]
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for k in 0..<4 {
            let axTerm = t.a * xs[k]
            let cy = t.c * ys[k]
            let x = axTerm + cy + t.tx
            let bx = t.b * xs[k]
            let dy = t.d * ys[k]
            let y = bx + dy + t.ty
            if x < minX { minX = x }
            if x > maxX { maxX = x }
            if y < minY { minY = y }
            if y > maxY { maxY = y }
        }
        return Rect(x: minX + px, y: minY + py, width: maxX - minX, height: maxY - minY)
    }

    func layer(
        bounds: Rect, position: Point, anchor: Point = Point(x: 0.5, y: 0.5),
        transform: BatchGeometry.AffineTransform = .identity
    ) -> Fixture<LayerHandle> {
        var store = LayerStore()
        let layer = try! store.addLayer()
        store.setBounds(bounds, of: layer)
        store.setPosition(position, of: layer)
        store.setAnchorPoint(anchor, of: layer)
        store.setAffineTransform(transform, of: layer)
        return Fixture(store: store, handles: layer)
    }

    func testIdentityPlacesTheBoundsAroundTheAnchor() {
        let storeFixture = layer(bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 60, y: 45))
        let layer = storeFixture.handles
        let store = storeFixture.store
        XCTAssertEqual(store.frame(of: layer), Rect(x: 10, y: 20, width: 100, height: 50))
    }

    func testBoundsOriginDoesNotAffectTheFrame() {
        let storeFixture = layer(bounds: Rect(x: -37, y: 1000, width: 100, height: 50), position: Point(x: 60, y: 45))
        let layer = storeFixture.handles
        let store = storeFixture.store
        XCTAssertEqual(store.frame(of: layer), Rect(x: 10, y: 20, width: 100, height: 50))
    }

    func testTranslationMovesTheFrame() {
        let storeFixture = layer(
            bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 60, y: 45),
            transform: .translation(x: 7, y: -5))
        let layer = storeFixture.handles
        let store = storeFixture.store
        XCTAssertEqual(store.frame(of: layer), Rect(x: 17, y: 15, width: 100, height: 50))
    }

    /// Seed 001 Q1 and Q2 (device log): scale(2,2) on a (100,100,100,100) view reads
    /// frame (50,50,200,200), bounds unchanged; the subview's frame does not change; a
    /// scaled (50,50,50,50) subview reads (25,25,100,100).
    func testSeed001ScaleAboutTheCentre() {
        var store = LayerStore()
        let window = store.addViewWithFrame(Rect(x: 0, y: 0, width: 375, height: 812))
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100), parent: window)
        let view2 = store.addViewWithFrame(Rect(x: 50, y: 50, width: 50, height: 50), parent: view1)
        store.setAffineTransform(.scale(x: 2, y: 2), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 50, y: 50, width: 200, height: 200))
        XCTAssertEqual(store.bounds(of: view1), Rect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertEqual(store.frame(of: view2), Rect(x: 50, y: 50, width: 50, height: 50))
        store.setAffineTransform(.scale(x: 2, y: 2), of: view2)
        XCTAssertEqual(store.frame(of: view2), Rect(x: 25, y: 25, width: 100, height: 100))
        XCTAssertEqual(store.bounds(of: view2), Rect(x: 0, y: 0, width: 50, height: 50))
    }

    /// Seed 001 Q4 and Q5: after scale(2,2), bounds (0,0,150,150) reads frame
    /// (0,0,300,300); bounds (-100,-100,150,150) the same (the origin does not matter);
    /// without the scale, (75,75,150,150).
    func testSeed001BoundsAfterScale() {
        var store = LayerStore()
        let view1 = store.addViewWithFrame(Rect(x: 100, y: 100, width: 100, height: 100))
        store.setBounds(Rect(x: -100, y: -100, width: 150, height: 150), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 75, y: 75, width: 150, height: 150))
        store.setAffineTransform(.scale(x: 2, y: 2), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 0, y: 0, width: 300, height: 300))
        store.setBounds(Rect(x: 0, y: 0, width: 150, height: 150), of: view1)
        XCTAssertEqual(store.frame(of: view1), Rect(x: 0, y: 0, width: 300, height: 300))
    }

    /// An exact quarter turn (a=0 b=1 c=-1 d=0): x' = -y, y' = x. The 100×50 bounds around
    /// the centre span x in [-50, 50], y in [-25, 25], so the frame spans x' in [-25, 25],
    /// y' in [-50, 50], moved by the position (200, 100).
    func testExactQuarterTurnSwapsWidthAndHeight() {
        let quarter = BatchGeometry.AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        let storeFixture = layer(
            bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 100),
            transform: quarter)
        let layer = storeFixture.handles
        let store = storeFixture.store
        assertSameBits(store.frame(of: layer), Rect(x: 175, y: 50, width: 50, height: 100))
        // `rotation(radians: .pi / 2)` is that exact matrix (see TransformModelTests).
        let rotatedFixture = self.layer(
            bounds: Rect(x: 0, y: 0, width: 100, height: 50),
            position: Point(x: 200, y: 100), transform: .rotation(radians: .pi / 2))
        let rotatedLayer = rotatedFixture.handles
        let rotated = rotatedFixture.store
        assertSameBits(rotated.frame(of: rotatedLayer), Rect(x: 175, y: 50, width: 50, height: 100))
    }

    /// 30°: the frame is the spec's operations on the stored matrix, bit for bit; and it
    /// agrees with the closed form (w cos + h sin, w sin + h cos) to rounding.
    func testThirtyDegreeRotation() {
        let storeFixture = layer(
            bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 200, y: 100),
            anchor: Point(x: 0.25, y: 0.75), transform: .rotation(radians: .pi / 6))
        let layer = storeFixture.handles
        let store = storeFixture.store
        let t = store.affineTransform(of: layer)
        let expected = Self.specFrame(w: 100, h: 50, ax: 0.25, ay: 0.75, t: t, px: 200, py: 100)
        assertSameBits(store.frame(of: layer), expected)
        let cos30 = 3.0.squareRoot() / 2
        let sin30 = 0.5
        assertGeometryClose(store.frame(of: layer).width, 100 * cos30 + 50 * sin30)
        assertGeometryClose(store.frame(of: layer).height, 100 * sin30 + 50 * cos30)
    }

    /// Negative bounds sizes: rx = -w*ax is then positive; the frame is the standardized
    /// box: bounds (0,0,-100,-50) about the centre spans [-50, 50] × [-25, 25].
    func testNegativeBoundsSize() {
        let storeFixture = layer(bounds: Rect(x: 0, y: 0, width: -100, height: -50), position: Point(x: 0, y: 0))
        let layer = storeFixture.handles
        let store = storeFixture.store
        assertSameBits(store.frame(of: layer), Rect(x: -50, y: -25, width: 100, height: 50))
    }

    /// anchorPoint (2, -1) on 10×20 bounds: rx = -20, ry = 20; position (100, 100).
    func testAnchorPointOutsideTheUnitSquare() {
        let storeFixture = layer(
            bounds: Rect(x: 0, y: 0, width: 10, height: 20), position: Point(x: 100, y: 100),
            anchor: Point(x: 2, y: -1))
        let layer = storeFixture.handles
        let store = storeFixture.store
        XCTAssertEqual(store.frame(of: layer), Rect(x: 80, y: 120, width: 10, height: 20))
        // The same anchor with scale(2, 3): x in [-40, -20], y in [60, 120].
        let scaledFixture = self.layer(
            bounds: Rect(x: 0, y: 0, width: 10, height: 20),
            position: Point(x: 100, y: 100), anchor: Point(x: 2, y: -1),
            transform: .scale(x: 2, y: 3))
        let scaledLayer = scaledFixture.handles
        let scaled = scaledFixture.store
        XCTAssertEqual(scaled.frame(of: scaledLayer), Rect(x: 60, y: 160, width: 20, height: 60))
    }

    /// A horizontal flip about anchor x = 0.25: bounds x in [-25, 75] maps to [-75, 25].
    func testFlipAboutAnOffCentreAnchor() {
        let storeFixture = layer(
            bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 0, y: 0),
            anchor: Point(x: 0.25, y: 0), transform: .scale(x: -1, y: 1))
        let layer = storeFixture.handles
        let store = storeFixture.store
        XCTAssertEqual(store.frame(of: layer), Rect(x: -75, y: 0, width: 100, height: 50))
    }

    /// The 3D parts (m34, m43, zPosition, anchorPointZ) do not enter the frame.
    func testThreeDimensionalPartsAreIgnored() {
        let storeFixture = layer(bounds: Rect(x: 0, y: 0, width: 100, height: 50), position: Point(x: 60, y: 45))
        let layer = storeFixture.handles
        var store = storeFixture.store
        var transform = Transform3D.perspective(distance: 500)
        transform.m43 = 80
        transform.m13 = 0.5
        store.setTransform(transform, of: layer)
        store.setZPosition(30, of: layer)
        store.setAnchorPointZ(-12, of: layer)
        XCTAssertEqual(store.frame(of: layer), Rect(x: 10, y: 20, width: 100, height: 50))
    }

    /// Many awkward finite inputs (fractions, skews, large and small magnitudes): the
    /// getter matches the spec's operations bit for bit, and the batch scalar pass
    /// matches the per-layer getter.
    func testBitExactAgainstTheSpecOperationOrder() {
        var generator = SplitMix64(seed: 42)
        var store = LayerStore()
        var expected: [Rect] = []
        for _ in 0..<2000 {
            let w = generator.value(in: -300...300)
            let h = generator.value(in: -300...300)
            let ax = generator.value(in: -1...2)
            let ay = generator.value(in: -1...2)
            let t = BatchGeometry.AffineTransform(
                a: generator.value(in: -3...3), b: generator.value(in: -3...3),
                c: generator.value(in: -3...3), d: generator.value(in: -3...3),
                tx: generator.value(in: -1e3...1e3), ty: generator.value(in: -1e3...1e3))
            let px = generator.value(in: -1e4...1e4)
            let py = generator.value(in: -1e4...1e4)
            let layer = try! store.addLayer()
            store.setBounds(Rect(x: generator.value(in: -5...5), y: 0, width: w, height: h), of: layer)
            store.setAnchorPoint(Point(x: ax, y: ay), of: layer)
            store.setAffineTransform(t, of: layer)
            store.setPosition(Point(x: px, y: py), of: layer)
            expected.append(Self.specFrame(w: w, h: h, ax: ax, ay: ay, t: t, px: px, py: py))
        }
        let batch = store.frames(options: .serial(.scalar))
        for layer in 0..<store.count {
            assertSameBits(store.frame(of: layer), expected[layer], "layer \(layer)")
            assertSameBits(batch[layer], expected[layer], "batch, layer \(layer)")
        }
    }
}
