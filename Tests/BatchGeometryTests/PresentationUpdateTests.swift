import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `updatePresentation(from:to:model:)` (restore and apply in one pass) against an
/// independent presentation store driven by `restoreModelValues` then `applyPresentation`:
/// random animations of every key path appearing and ending, host edits between frames
/// (given to both presentation stores, as the frame loop's rule says), layers destroyed
/// and slots reused. After every frame both stores hold the same columns, answer the frame
/// query and hit tests alike (and as their full passes do), and keep their invariants.
final class PresentationUpdateTests: XCTestCase {
    /// The model and the two presentation stores, edited alike.
    struct Stores: ~Copyable {
        var model = LayerStore()
        var fused = LayerStore()
        var reference = LayerStore()
        /// The live layers (a destroyed one is dropped; its slot may come back).
        var layers: [LayerHandle] = []
        let viewport = Rect(0, 0, 400, 600)

        /// A window, a masking list of 80 cards (indexed, so its cards park with drift
        /// references) with a badge on every fourth, and a few loose layers.
        init(_ random: inout SplitMix64) {
            let window = model.addViewWithFrame(Rect(0, 0, 900, 600))
            let list = model.addViewWithFrame(Rect(0, 0, 400, 600), parent: window)
            model.setMasksToBounds(true, of: list)
            layers = [window, list]
            for n in 0..<80 {
                let card = model.addViewWithFrame(Rect(5, Double(n) * 40, 390, 34), parent: list)
                layers.append(card)
                if n % 4 == 0 { layers.append(model.addViewWithFrame(Rect(350, 4, 26, 26), parent: card)) }
            }
            for _ in 0..<12 {
                let frame = Rect(random.unit() * 800, random.unit() * 500, 20 + random.unit() * 80, 30)
                layers.append(model.addViewWithFrame(frame, parent: window))
            }
            fused = model.copy()
            reference = model.copy()
        }

        /// One host edit, made to all three stores (the numbers drawn once).
        mutating func edit(_ random: inout SplitMix64) throws {
            let layer = layers[random.below(layers.count)]
            let (u, v) = (random.unit(), random.unit())
            switch random.below(9) {
            case 0: each { $0.setPosition(Point(x: u * 400, y: v * 3_000), of: layer) }
            case 1:
                let transform = PresentationRestoreTests.randomTransform(&random)
                each { $0.setTransform(transform, of: layer) }
            case 2: each { $0.setOpacity(Float(u), of: layer) }
            case 3: each { $0.setBounds(Rect(0, 0, 10 + u * 300, 10 + v * 60), of: layer) }
            case 4: each { $0.setAnchorPoint(Point(x: u, y: v), of: layer) }
            case 5: each { $0.setZPosition(u * 4 - 2, of: layer) }
            case 6: each { $0.setHidden(u < 0.25, of: layer) }
            case 7:
                guard layer.index > 1 else { return }  // keep the window and the list
                try model.destroyLayer(layer)
                try fused.destroyLayer(layer)
                try reference.destroyLayer(layer)
                layers.removeAll { !model.contains($0) }
            default:
                let superlayer = layers[random.below(Swift.min(layers.count, 20))]
                let added = try model.addLayer(superlayer: superlayer)
                XCTAssertEqual(try fused.addLayer(superlayer: superlayer), added)
                XCTAssertEqual(try reference.addLayer(superlayer: superlayer), added)
                each { $0.setFrame(Rect(u * 300, v * 300, 40, 30), of: added) }
                layers.append(added)
            }
        }

        /// `change` made to the three stores.
        private mutating func each(_ change: (inout LayerStore) -> Void) {
            change(&model)
            change(&fused)
            change(&reference)
        }
    }

    func testTheFusedUpdateEqualsRestoreThenApply() throws {
        for seed in UInt64(0)..<3 {
            var random = SplitMix64(seed: 2300 + seed)
            var stores = Stores(&random)
            var animations = AnimationStore()
            var values = PresentationValues()
            var previous = PresentationValues()
            for frame in 0..<60 {
                let label = "seed \(seed) frame \(frame)"
                stores.reference.restoreModelValues(of: values, from: stores.model)
                for _ in 0..<random.below(4) { try stores.edit(&random) }
                for _ in 0..<random.below(frame == 0 ? 30 : 4) {
                    let layer = stores.layers[random.below(stores.layers.count)]
                    try animations.add(
                        Self.randomAnimation(&random, at: Double(frame) / 30), to: layer, in: stores.model)
                }
                swap(&previous, &values)
                try animations.sample(at: Double(frame) / 30, model: stores.model, into: &values)
                stores.reference.applyPresentation(values)
                stores.fused.updatePresentation(from: previous, to: values, model: stores.model)
                try Self.assertSame(&stores, &random, label)
            }
        }
    }
}

extension PresentationUpdateTests {
    /// Both presentation stores hold the same animatable columns on every live slot
    /// (compared with `==`, as the writes are: one pass may keep a 0 where the other
    /// wrote a −0), the same frame query and hit tests (each also equal to its own
    /// full passes), and keep their invariants.
    static func assertSame(_ stores: inout Stores, _ random: inout SplitMix64, _ label: String) throws {
        XCTAssertEqual(stores.fused.count, stores.reference.count, label)
        for slot in 0..<stores.fused.count where stores.fused.isLiveSlot(slot) {
            XCTAssertTrue(stores.reference.isLiveSlot(slot), label)
            XCTAssertEqual(columns(stores.fused, slot), columns(stores.reference, slot), "\(label) slot \(slot)")
        }
        var fused = VisibleLayers()
        var reference = VisibleLayers()
        stores.fused.visibleLayers(in: stores.viewport, into: &fused)
        stores.reference.visibleLayers(in: stores.viewport, into: &reference)
        FrameQueryTests.assertMatches(
            fused, FrameQueryTests.expectedVisible(stores.fused, viewport: stores.viewport), label + " (fused)")
        XCTAssertEqual(fused.layers, reference.layers, label)
        if fused.count == reference.count {
            for k in 0..<fused.count {
                XCTAssertEqual(fused.worldTransforms[k].rowMajor, reference.worldTransforms[k].rowMajor, label)
                XCTAssertEqual(fused.worldRects[k], reference.worldRects[k], label)
                XCTAssertEqual(fused.clipRects[k], reference.clipRects[k], label)
                XCTAssertEqual(fused.worldOpacities[k], reference.worldOpacities[k], label)
            }
        }
        let world = stores.fused.worldTransforms()
        for _ in 0..<8 {
            let point = Point(x: random.unit() * 900, y: random.unit() * 600)
            for rule in HitTestRule.allCases {
                let hit = stores.fused.hitTest(point, rule: rule)
                XCTAssertEqual(hit, stores.reference.hitTest(point, rule: rule), "\(label) \(point) \(rule)")
                XCTAssertEqual(hit, stores.fused.hitTest(point, in: world, rule: rule), "\(label) \(point) \(rule)")
            }
        }
        XCTAssertEqual(stores.fused._invariantViolations(), [], label)
        XCTAssertEqual(stores.reference._invariantViolations(), [], label)
    }

    /// The animatable properties of `slot` and the others a frame reads, as numbers.
    static func columns(_ store: borrowing LayerStore, _ slot: Int) -> [Double] {
        let b = store.bounds(of: slot)
        let scalars = [
            b.x, b.y, b.width, b.height, store.position(of: slot).x, store.position(of: slot).y,
            store.anchorPoint(of: slot).x, store.anchorPoint(of: slot).y, store.zPosition(of: slot),
            store.anchorPointZ(of: slot), Double(store.opacity(of: slot)), store.isHidden(slot) ? 1 : 0,
        ]
        return scalars + store.transform(of: slot).rowMajor + store.sublayerTransform(of: slot).rowMajor
    }

    /// An animation of a random key path (every one of them), beginning near `time`,
    /// mostly ending within a second (so entries come and go), sometimes additive.
    static func randomAnimation(_ random: inout SplitMix64, at time: Double) -> Animation {
        let keyPath = AnimationKeyPath.allCases[random.below(AnimationKeyPath.allCases.count)]
        func value() -> [Double] {
            switch keyPath {
            case .transform, .sublayerTransform: return PresentationRestoreTests.randomTransform(&random).rowMajor
            case .opacity, .anchorPoint: return (0..<keyPath.arity).map { _ in random.unit() }
            case .transformScale, .transformScaleX, .transformScaleY, .transformScaleZ: return [0.5 + random.unit()]
            case .bounds, .boundsSize: return (0..<keyPath.arity).map { _ in 10 + random.unit() * 200 }
            default: return (0..<keyPath.arity).map { _ in random.unit() * 300 - 100 }
            }
        }
        var timing = AnimationTiming()
        timing.beginTime = time + random.unit() * 0.3 - 0.1
        timing.duration = 0.1 + random.unit() * 0.8
        timing.repeatCount = random.below(5) == 0 ? 3 : 1
        timing.autoreverses = random.below(2) == 0
        timing.fillMode = FillMode.allCases[random.below(FillMode.allCases.count)]
        timing.removedOnCompletion = random.below(4) != 0
        return Animation(
            keyPath: keyPath, content: .basic(from: value(), to: value(), by: nil), timing: timing,
            timingFunction: TimingFunction(.easeInEaseOut), isAdditive: random.below(3) == 0)
    }
}
