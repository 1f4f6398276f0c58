import XCTest

@testable import BatchGeometry

/// The batch sampler (`AnimationStore.sample`: columns, ends and decompositions resolved
/// when an animation is added, presentation values that read only the properties
/// written) against a straightforward scalar reference written from docs/ANIMATION.md
/// (sections 2, 4, 6, 7, 8, 9): each layer's model values, then every live animation in
/// the order added, its ends taken from the value underneath at each sample, every
/// transform decomposed at each sample. Random animations of every kind, key path, fill
/// mode, repeat, speed and additive stack, on layers with their own timing.
final class AnimationSamplerReferenceTests: XCTestCase {
    func testBatchSamplerEqualsTheScalarReferenceOnRandomAnimations() throws {
        var compared = 0
        for seed: UInt64 in [1, 2, 3, 4, 5, 6] {
            compared += try compareOnRandomAnimations(seed: seed, layerTimings: true)
        }
        XCTAssertGreaterThan(compared, 1000, "too few animated layers compared: the random cases are too quiet")
    }

    /// Without layer timings the sampler takes its steady timing pass (raw columns, the
    /// scene time for every layer) from the second sample on: the same bits.
    func testSteadyTimingPassEqualsTheScalarReference() throws {
        var compared = 0
        for seed: UInt64 in [7, 8, 9, 10, 11, 12] {
            compared += try compareOnRandomAnimations(seed: seed, layerTimings: false)
        }
        XCTAssertGreaterThan(compared, 1000, "too few animated layers compared: the random cases are too quiet")
    }

    /// More animations than the composition loop opens the presentation values for at
    /// once (4,096), on twelve layers: later chunks find the entries earlier ones made,
    /// and the stack order per layer runs across the chunks' seams.
    func testCompositionAcrossChunksEqualsTheScalarReference() throws {
        let compared = try compareOnRandomAnimations(seed: 13, layerTimings: false, animations: 9000, step: 1.1)
        XCTAssertGreaterThan(compared, 30, "too few animated layers compared")
    }

    /// Samples `animations` random animations on a random tree from −1 to 5 s (steps of
    /// `step` to `step` + 0.1 s) and compares each sample with the reference; returns the
    /// number of layers compared.
    func compareOnRandomAnimations(
        seed: UInt64, layerTimings: Bool, animations: Int = 80, step: Double = 0.0625
    ) throws -> Int {
        var compared = 0
        var random = SplitMix64(seed: seed &* 0x5EED_2323)
        var model = LayerStore()
        let layers = try Self.randomTree(&random, model: &model)
        var store = AnimationStore()
        var reference = ReferenceSampler()
        for layer in layers where layerTimings && random.below(4) == 0 {
            let timing = LayerTiming(
                beginTime: random.value(in: -1...1), speed: [1, 2, 0.5, 0, -1][random.below(5)],
                timeOffset: random.value(in: -0.5...0.5))
            try store.setTiming(timing, of: layer, in: model)
            reference.layerTimings[layer.index] = timing
        }
        while reference.animations.count < animations {
            let animation = Self.randomAnimation(&random)
            guard animation.problem() == nil else { continue }
            let layer = layers[random.below(layers.count)]
            XCTAssertEqual(try store.add(animation, to: layer, in: model), reference.animations.count)
            reference.animations.append((animation, layer.index))
        }
        var values = PresentationValues()
        var time = -1.0
        while time < 5 {
            try store.sample(at: time, model: model, into: &values)
            let expected = reference.sample(at: time, model: model)
            XCTAssertEqual(store.finished, reference.finished, "seed \(seed) at \(time)")
            XCTAssertEqual(Set(values.layers), Set(expected.keys), "seed \(seed) at \(time)")
            for (slot, layer) in expected {
                compared += 1
                let got = values.values(ofLayerAt: slot, model: model)
                XCTAssertTrue(
                    got.map { Self.sameBits($0, layer) } ?? false,
                    "seed \(seed) at \(time), layer \(slot): \(String(describing: got)) != \(layer)")
            }
            time += step + random.unit() * 0.1
        }
        return compared
    }

    /// Bit equality (== would let 0 and −0 pass).
    static func sameBits(_ a: PresentationLayer, _ b: PresentationLayer) -> Bool {
        let x =
            [a.bounds.x, a.bounds.y, a.bounds.width, a.bounds.height, a.position.x, a.position.y]
            + [a.anchorPoint.x, a.anchorPoint.y, a.zPosition, a.anchorPointZ] + a.transform.rowMajor
            + a.sublayerTransform.rowMajor
        let y =
            [b.bounds.x, b.bounds.y, b.bounds.width, b.bounds.height, b.position.x, b.position.y]
            + [b.anchorPoint.x, b.anchorPoint.y, b.zPosition, b.anchorPointZ] + b.transform.rowMajor
            + b.sublayerTransform.rowMajor
        return x.map(\.bitPattern) == y.map(\.bitPattern) && a.opacity.bitPattern == b.opacity.bitPattern
    }

    /// Twelve layers, three deep, with random geometry (some with a 3D transform).
    static func randomTree(_ random: inout SplitMix64, model: inout LayerStore) throws -> [LayerHandle] {
        var layers: [LayerHandle] = []
        for index in 0..<12 {
            let superlayer = index == 0 ? nil : layers[random.below(index)]
            let layer = try model.addLayer(superlayer: superlayer)
            model.setBounds(
                Rect(x: random.value(in: -5...5), y: 0, width: random.value(in: 1...100), height: 40), of: layer)
            model.setPosition(Point(x: random.value(in: 0...300), y: random.value(in: 0...300)), of: layer)
            model.setAnchorPoint(Point(x: random.unit(), y: 0.5), of: layer)
            model.setZPosition(random.value(in: -3...3), of: layer)
            model.setOpacity(Float(random.unit()), of: layer)
            if random.below(2) == 0 {
                var transform = Transform3D(AffineTransform(a: 1, b: 0.2, c: -0.3, d: 1.5, tx: 4, ty: -2))
                transform.m34 = -1 / 500
                model.setTransform(transform, of: layer)
            }
            if random.below(3) == 0 { model.setSublayerTransform(randomTransform(&random), of: layer) }
            layers.append(layer)
        }
        return layers
    }

    static func randomTransform(_ random: inout SplitMix64) -> Transform3D {
        let angle = random.value(in: -3...3)
        var m = Transform3D(
            AffineTransform(
                a: cos(angle) * 1.5, b: sin(angle), c: -sin(angle), d: cos(angle) * 0.7,
                tx: random.value(in: -20...20), ty: random.value(in: -20...20)))
        if random.below(3) == 0 { m.m34 = -1 / random.value(in: 100...900) }
        if random.below(4) == 0 { m.m33 = random.value(in: 0.5...2) }
        return m
    }

    static func randomValue(_ random: inout SplitMix64, _ keyPath: AnimationKeyPath) -> [Double] {
        if keyPath.isWholeTransform {
            let m = randomTransform(&random)
            return random.below(2) == 0 ? [m.m11, m.m12, m.m21, m.m22, m.m41, m.m42] : m.rowMajor
        }
        return (0..<keyPath.arity).map { _ in random.value(in: -2...2) * (keyPath == .opacity ? 0.5 : 50) }
    }

    static func randomTiming(_ random: inout SplitMix64) -> AnimationTiming {
        var timing = AnimationTiming()
        // Often a shared begin time: animations that start together share u (the store
        // solves a timing function once for them).
        timing.beginTime = random.below(2) == 0 ? [0, 0.25][random.below(2)] : random.value(in: -0.5...1.5)
        timing.duration = [0, 0.5, 1, 1.7][random.below(4)]
        timing.speed = [1, 1, 2, 0.5, -1, 0][random.below(6)]
        timing.timeOffset = random.below(3) == 0 ? random.value(in: 0...1) : 0
        switch random.below(4) {
        case 0: timing.repeatCount = [1.5, 3, .infinity][random.below(3)]
        case 1: timing.repeatDuration = random.value(in: 0.2...2.5)
        default: break
        }
        timing.autoreverses = random.below(3) == 0
        timing.fillMode = FillMode.allCases[random.below(4)]
        timing.removedOnCompletion = random.below(2) == 0
        return timing
    }

    static func randomAnimation(_ random: inout SplitMix64) -> Animation {
        let keyPath = AnimationKeyPath.allCases[random.below(AnimationKeyPath.allCases.count)]
        func maybe() -> [Double]? { random.below(2) == 0 ? randomValue(&random, keyPath) : nil }
        let functions = TimingFunction.Name.allCases.map { TimingFunction($0) }
        let content: Animation.Content
        var timingFunction: TimingFunction? = random.below(2) == 0 ? functions[random.below(5)] : nil
        switch random.below(3) {
        case 0: content = .basic(from: maybe(), to: maybe(), by: maybe())
        case 1:
            let spring = Spring(stiffness: random.value(in: 50...400), damping: random.value(in: 2...40))
            content = .spring(spring, from: maybe(), to: maybe(), by: maybe())
            timingFunction = nil
        default:
            let n = 1 + random.below(4)
            let modes: [CalculationMode] = keyPath.isWholeTransform ? [.linear, .discrete] : CalculationMode.allCases
            let mode = modes[random.below(modes.count)]
            var keyTimes: [Double]? = nil
            if random.below(2) == 0 && n > 1 {
                let count = mode == .discrete && random.below(2) == 0 ? n + 1 : n
                let inner = (0..<(count - 2)).map { _ in random.value(in: 0.05...0.95) }.sorted()
                keyTimes = [0] + inner + [1]
            }
            let segmentFunctions = random.below(2) == 0 ? (0..<(n - 1)).map { _ in functions[random.below(5)] } : nil
            content = .keyframe(
                Keyframes(
                    values: (0..<n).map { _ in randomValue(&random, keyPath) }, keyTimes: keyTimes,
                    timingFunctions: segmentFunctions, calculationMode: mode))
        }
        return Animation(
            keyPath: keyPath, content: content, timing: randomTiming(&random), timingFunction: timingFunction,
            isAdditive: random.below(2) == 0, isCumulative: !keyPath.isWholeTransform && random.below(3) == 0)
    }
}
