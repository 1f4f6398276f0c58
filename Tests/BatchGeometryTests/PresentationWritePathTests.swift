import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The frame loop's update (`updatePresentation(from:to:model:)`, whose writers compare
/// and store columns directly: a planar value function without a 4×4) against the public
/// setters on a second store kept across the same frames: random animations of every key
/// path (some ending, so the model's value comes back; some additive; springs), models
/// of every transform kind with the drift references of a masked list's cards built, and
/// model edits between frames given to every store. Compares every written column bit
/// for bit, the world transforms, frame-query answers, hit tests and both stores'
/// invariants.
final class PresentationWritePathTests: XCTestCase {
    func testTheUpdateEqualsTheSettersOverFramesForEveryKeyPath() throws {
        for seed in UInt64(0)..<4 {
            var random = SplitMix64(seed: 9100 + seed)
            var model = LayerStore()
            let list = model.addViewWithFrame(Rect(0, 0, 400, 600))
            model.setMasksToBounds(true, of: list)
            var layers: [LayerHandle] = []
            for n in 0..<48 {
                let card = model.addViewWithFrame(Rect(5, Double(n) * 40, 390, 34), parent: list)
                if random.chance(50) { model.setTransform(PresentationRestoreTests.randomTransform(&random), of: card) }
                if random.chance(20) { model.setAnchorPoint(Point(x: random.unit(), y: random.unit()), of: card) }
                layers.append(card)
            }
            var animations = AnimationStore()
            for layer in layers where random.chance(85) {
                for _ in 0..<1 + random.below(3) {
                    try animations.add(Self.randomAnimation(&random), to: layer, in: model)
                }
            }
            var scratch = VisibleLayers()
            model.visibleLayers(in: Rect(0, 0, 400, 600), into: &scratch)  // builds the caches the copies carry
            var presented = model.copy()
            var setters = model.copy()
            var previous = PresentationValues()
            var next = PresentationValues()
            for frame in 0..<48 {
                if frame % 5 == 2 {
                    let card = layers[random.below(layers.count)]
                    let moved = Point(x: 200 + random.unit() * 10, y: model.position(of: card).y)
                    model.setPosition(moved, of: card)
                    presented.setPosition(moved, of: card)
                    setters.setPosition(moved, of: card)
                }
                swap(&previous, &next)
                try animations.sample(at: Double(frame) / 24, model: model, into: &next)
                presented.updatePresentation(from: previous, to: next, model: model)
                Self.update(&setters, from: previous, to: next, model: model)
                try Self.assertSameStores(&presented, &setters, [list] + layers, "seed \(seed) frame \(frame)")
            }
        }
    }

    /// What `updatePresentation` does, through the public setters: a property only
    /// `previous` wrote gets the model's value back, one `next` wrote gets its value, each
    /// only where it differs by `==`.
    static func update(
        _ store: inout LayerStore, from previous: PresentationValues, to next: PresentationValues,
        model: borrowing LayerStore
    ) {
        for k in 0..<previous.layers.count {
            let slot = previous.layers[k]
            let gone = previous.touched[k].subtracting(next.properties(ofLayerAt: slot))
            guard !gone.isEmpty else { continue }
            let values = PresentationLayer(model: model, layer: slot)
            set(values, gone, on: &store, slot)
        }
        for k in 0..<next.layers.count {
            let slot = next.layers[k]
            guard let values = next.values(ofLayerAt: slot, model: model) else { continue }
            set(values, next.touched[k], on: &store, slot)
        }
    }

    static func set(_ v: PresentationLayer, _ written: PresentationProperties, on s: inout LayerStore, _ slot: Int) {
        if written.contains(.bounds), s.bounds(of: slot) != v.bounds { s.setBounds(v.bounds, of: slot) }
        if written.contains(.position), s.position(of: slot) != v.position { s.setPosition(v.position, of: slot) }
        if written.contains(.anchorPoint), s.anchorPoint(of: slot) != v.anchorPoint {
            s.setAnchorPoint(v.anchorPoint, of: slot)
        }
        if written.contains(.zPosition), s.zPosition(of: slot) != v.zPosition { s.setZPosition(v.zPosition, of: slot) }
        if written.contains(.anchorPointZ), s.anchorPointZ(of: slot) != v.anchorPointZ {
            s.setAnchorPointZ(v.anchorPointZ, of: slot)
        }
        if written.contains(.opacity), s.opacity(of: slot) != v.opacity { s.setOpacity(v.opacity, of: slot) }
        if written.contains(.transform), s.transform(of: slot) != v.transform { s.setTransform(v.transform, of: slot) }
        if written.contains(.sublayerTransform), s.sublayerTransform(of: slot) != v.sublayerTransform {
            s.setSublayerTransform(v.sublayerTransform, of: slot)
        }
    }

    /// Every animatable column bit for bit, transform kinds, world transforms, the frame
    /// query, hit tests under both rules and the invariants.
    static func assertSameStores(
        _ a: inout LayerStore, _ b: inout LayerStore, _ layers: [LayerHandle], _ label: String
    ) throws {
        for layer in layers {
            XCTAssertEqual(columnBits(a, layer), columnBits(b, layer), "\(label) layer \(layer.index)")
            XCTAssertEqual(a.transformKind(of: layer), b.transformKind(of: layer), "\(label) layer \(layer.index)")
        }
        let (worldA, worldB) = (a.worldTransforms(), b.worldTransforms())
        for layer in layers {
            let bitsA = PresentationSetterPathTests.bits(worldA[layer])
            XCTAssertEqual(bitsA, PresentationSetterPathTests.bits(worldB[layer]), "\(label) layer \(layer.index)")
        }
        var visibleA = VisibleLayers()
        var visibleB = VisibleLayers()
        a.visibleLayers(in: Rect(0, 0, 400, 600), into: &visibleA)
        b.visibleLayers(in: Rect(0, 0, 400, 600), into: &visibleB)
        XCTAssertEqual(visibleA.layers, visibleB.layers, label)
        XCTAssertEqual(visibleA.worldRects, visibleB.worldRects, label)
        for y in stride(from: 7.0, to: 600, by: 53) {
            let point = Point(x: 150 + y / 4, y: y)
            XCTAssertEqual(a.hitTest(point), b.hitTest(point), "\(label) at \(point)")
            XCTAssertEqual(a.hitTest(point, rule: .view), b.hitTest(point, rule: .view), "\(label) at \(point)")
        }
        a._checkInvariants()
        b._checkInvariants()
        XCTAssertEqual(a._invariantViolations(), [], label)
        XCTAssertEqual(b._invariantViolations(), [], label)
    }

    /// The bits of every property an animation may write.
    static func columnBits(_ s: borrowing LayerStore, _ layer: LayerHandle) -> [UInt64] {
        let b = s.bounds(of: layer)
        let (position, anchor) = (s.position(of: layer), s.anchorPoint(of: layer))
        let numbers: [Double] = [
            b.x, b.y, b.width, b.height, position.x, position.y, anchor.x, anchor.y, s.zPosition(of: layer),
            s.anchorPointZ(of: layer),
        ]
        var result = numbers.map(\.bitPattern)
        result.append(UInt64(s.opacity(of: layer).bitPattern))
        result += PresentationSetterPathTests.bits(s.transform(of: layer))
        result += PresentationSetterPathTests.bits(s.sublayerTransform(of: layer))
        return result
    }

    /// An animation of any key path (values of its arity; transforms of every kind),
    /// basic or spring, some additive, most ending within the frames run.
    static func randomAnimation(_ random: inout SplitMix64) -> Animation {
        let keyPath = AnimationKeyPath.allCases[random.below(AnimationKeyPath.allCases.count)]
        func value() -> [Double] {
            if keyPath.isWholeTransform { return PresentationRestoreTests.randomTransform(&random).rowMajor }
            if keyPath == .opacity { return [random.unit()] }
            if keyPath.rawValue.hasPrefix("transform.scale") { return [random.chance(20) ? 1 : 0.5 + random.unit()] }
            if keyPath.rawValue.hasPrefix("transform.rotation") { return [random.chance(20) ? 0 : random.unit() * 3] }
            return (0..<keyPath.arity).map { _ in random.chance(10) ? 0 : random.unit() * 60 - 20 }
        }
        let (from, to) = (value(), value())
        var animation: Animation
        if random.chance(25) && !keyPath.isWholeTransform {
            let spring = Spring(stiffness: 150 + 100 * random.unit(), damping: 12 + 8 * random.unit())
            animation = Animation(keyPath: keyPath, content: .spring(spring, from: from, to: to, by: nil))
            animation.timing.duration = spring.settlingDuration
        } else {
            animation = basic(keyPath, from: from, to: to, duration: 0.3 + random.unit() * 1.2)
        }
        animation.timing.beginTime = random.unit() * 1.5
        animation.isAdditive = random.chance(25)
        return animation
    }
}
