import AllocationCounter
import XCTest

@testable import BatchGeometry

/// The lanes (AnimationLanes.swift: animations grouped by curve and key path, sampled in
/// per-group loops, values written straight into entries fixed ahead) against the scalar
/// reference, bit for bit, and against the general path (a store that never takes the
/// lanes: a layer outside the animated ones has its own timing) for the entry order, the
/// `finished` list and the animations left. Mostly one animation a layer, of every lane
/// kind (linear, timing function, spring; additive, cumulative; vector and value-function
/// key paths) with some on the general path beside them, and events mid-run: a second
/// animation on the same key path of a lane's layer, a layer that gets its own timing and
/// loses it, an animation removed, animations that finish and are removed.
final class AnimationLanesTests: XCTestCase {
    func testLanesEqualTheReferenceAndTheGeneralPath() throws {
        var laneSamples = 0
        for seed: UInt64 in 1...6 {
            laneSamples += try compareLanes(seed: seed)
        }
        XCTAssertGreaterThan(laneSamples, 100, "the lanes sampled too few times: the test does not exercise them")
    }

    /// Through the lanes (no layer timing, the same animations from sample to sample),
    /// a sample allocates nothing once warm: the first sample is general, the second
    /// makes the lanes and pays the one-time runtime costs.
    func testWarmLaneSamplesAllocateNothing() throws {
        try FrameLoopAllocationTests.requireAllocationCounter()
        var model = LayerStore()
        let root = try model.addLayer()
        var animations = AnimationStore()
        var random = SplitMix64(seed: 99)
        for index in 0..<64 {
            let layer = try model.addLayer(superlayer: root)
            try animations.add(Self.laneAnimation(&random, longLived: true), to: layer, in: model)
            // A stack and a general-path animation beside the lanes.
            if index % 8 == 0 {
                let keyframes = Keyframes(values: [[0, 0], [10, 0], [10, 10]], keyTimes: [0, 0.2, 1])
                var timing = Self.endlessTiming()
                timing.duration = 2
                try animations.add(
                    Animation(keyPath: .position, content: .keyframe(keyframes), timing: timing), to: layer, in: model)
            }
        }
        var values = PresentationValues()
        for frame in 0..<6 {
            let before = BGAllocationCount()
            try animations.sample(at: Double(frame) / 60, model: model, into: &values)
            let counted = BGAllocationCount() - before
            if frame > 1 { XCTAssertEqual(counted, 0, "frame \(frame) allocated") }
        }
        XCTAssertNotNil(animations.lanes.version, "the lanes were not taken")
        XCTAssertGreaterThan(animations.lanes.groups.map(\.count).reduce(0, +), 40)
        XCTAssertEqual(values.count, 64)
    }

    /// Groups of eight members and more (a timing-function or keyframe group is solved
    /// eight members at a time: one function's coefficients broadcast, or a gather when
    /// the eight mix functions; eight that all hit the memo are not solved), on the key
    /// paths whose writes have loops of their own (additive position and bounds,
    /// position, opacity): random timings, or one timing shared by all (every member of a
    /// group at the same input), one function or several; half keyframe animations.
    func testEightMemberSolvesEqualTheReferenceAndTheGeneralPath() throws {
        let cases: [(seed: UInt64, shared: Bool, oneFunction: Bool)] = [
            (7, false, false), (8, false, true), (9, true, true), (10, true, false),
        ]
        for (seed, shared, oneFunction) in cases {
            var (eightMemberGroups, keyframeMembers) = (0, 0)
            let laneSamples = try compareLanes(seed: seed, layerCount: 200) { random, _ in
                Self.wideLaneAnimation(&random, sharedTiming: shared, oneFunction: oneFunction)
            } inspect: { lanes in
                let groups = lanes.lanes.groups.filter { $0.curve != .spring && $0.curve != .linear && $0.count >= 8 }
                eightMemberGroups = max(eightMemberGroups, groups.count)
                keyframeMembers = max(keyframeMembers, groups.filter(\.curve.isKeyframe).map(\.count).reduce(0, +))
            }
            XCTAssertGreaterThan(laneSamples, 50, "seed \(seed): the lanes sampled too few times")
            XCTAssertGreaterThan(eightMemberGroups, 5, "seed \(seed): too few solved groups of eight")
            XCTAssertGreaterThan(keyframeMembers, 16, "seed \(seed): too few keyframe animations in groups of eight")
        }
    }

    /// Keyframe lanes (the C segment loop, `BGKeyframeSegments`) on key times that repeat
    /// (zero-width segments: σ = 1) and progress that lands exactly on key times 0, ½
    /// and 1 (timings and sample times in eighths and sixteenths, autoreversing so that
    /// u reaches 1): every sample against the scalar reference, bit for bit, with and
    /// without segment timing functions, 2 to 5 values.
    func testKeyframeLanesOnRepeatedAndExactKeyTimesEqualTheReference() throws {
        let keyTimeSets: [[Double]] = [
            [0, 0.5, 0.5, 1, 1], [0, 0, 0.5, 1], [0, 0.25, 0.25, 0.75, 1], [0, 1, 1], [0, 1], [0, 0.5, 1],
        ]
        var model = LayerStore()
        let root = try model.addLayer(superlayer: nil)
        var (store, reference) = (AnimationStore(), ReferenceSampler())
        var random = SplitMix64(seed: 23)
        for k in 0..<48 {
            let layer = try model.addLayer(superlayer: root)
            let keyTimes = keyTimeSets[k % keyTimeSets.count]
            let functions = k % 2 == 0 ? nil : (1..<keyTimes.count).map { _ in TimingFunction(.easeIn) }
            let keyframes = Keyframes(
                values: keyTimes.map { _ in [random.value(in: -50...50), random.value(in: -50...50)] },
                keyTimes: keyTimes, timingFunctions: functions)
            var timing = AnimationTiming()
            (timing.beginTime, timing.duration) = (-Double(k % 4) / 8, [0.25, 0.5][k % 2])
            (timing.repeatCount, timing.autoreverses) = (.infinity, k % 3 != 0)
            let animation = Animation(
                keyPath: .position, content: .keyframe(keyframes), timing: timing, isAdditive: k % 4 == 1)
            try store.add(animation, to: layer, in: model)
            reference.animations.append((animation, layer.index))
        }
        var values = PresentationValues()
        for step in 0..<64 {
            let time = Double(step) / 16
            try store.sample(at: time, model: model, into: &values)
            for (slot, layer) in reference.sample(at: time, model: model) {
                let got = values.values(ofLayerAt: slot, model: model)
                XCTAssertTrue(
                    got.map { AnimationSamplerReferenceTests.sameBits($0, layer) } ?? false,
                    "at \(time), layer \(slot): \(String(describing: got)) != \(layer)")
            }
        }
        XCTAssertEqual(store.lanes.groups.filter(\.curve.isKeyframe).map(\.count).reduce(0, +), 48)
    }

    /// `roundedDown` (the local time's iteration count, without libm's `floor` on x86-64)
    /// is `rounded(.down)`, sign of zero included, at the edges of its fast range.
    func testRoundedDownIsFloor() {
        var inputs: [Double] = [
            0, -0.0, 0.5, -0.5, 1, -1, 1.5, -1.5, 0.999_999_999, -0.999_999_999, 3, -3, 0x1p52 - 0.5,
            -(0x1p52 - 0.5), 0x1p52, -0x1p52, 0x1p53 + 2, 1e300, -1e300, .infinity, -.infinity,
            .leastNonzeroMagnitude, -.leastNonzeroMagnitude, Double(1).nextDown, -Double(1).nextDown,
        ]
        var random = SplitMix64(seed: 5)
        for _ in 0..<2000 { inputs.append(random.value(in: -1e6...1e6) / [1, 7, 1e5][random.below(3)]) }
        for x in inputs {
            XCTAssertEqual(roundedDown(x).bitPattern, x.rounded(.down).bitPattern, "\(x)")
        }
        XCTAssertTrue(roundedDown(.nan).isNaN)
    }

    /// Samples random, mostly lane-eligible animations (`make`, by layer) on
    /// `layerCount` layers from −1 to 6 s, with the events above at fixed times, calling
    /// `inspect` with the lanes' store after each sample; returns the number of samples
    /// whose lanes held animations.
    func compareLanes(
        seed: UInt64, layerCount: Int = 40,
        make: (inout SplitMix64, Int) -> Animation = { random, k in
            AnimationLanesTests.laneAnimation(&random, longLived: k % 5 != 0)
        },
        inspect: (AnimationStore) -> Void = { _ in }
    ) throws -> Int {
        var random = SplitMix64(seed: seed &* 0x1A2E_5000)
        var model = LayerStore()
        let root = try model.addLayer(superlayer: nil)
        var layers: [LayerHandle] = []
        for _ in 0..<layerCount {
            let layer = try model.addLayer(superlayer: root)
            model.setBounds(Rect(x: 1, y: 2, width: random.value(in: 1...100), height: 40), of: layer)
            model.setPosition(Point(x: random.value(in: 0...300), y: random.value(in: 0...300)), of: layer)
            model.setOpacity(Float(random.unit()), of: layer)
            model.setZPosition(random.value(in: -3...3), of: layer)
            layers.append(layer)
        }
        // Never animated: its timing sends the general store down the general path.
        let timed = try model.addLayer(superlayer: root)
        var lanes = AnimationStore()
        var general = AnimationStore()
        var reference = ReferenceSampler()
        try general.setTiming(LayerTiming(beginTime: 0, speed: 2, timeOffset: 0), of: timed, in: model)
        func add(_ animation: Animation, to layer: LayerHandle) throws {
            let number = try lanes.add(animation, to: layer, in: model)
            XCTAssertEqual(try general.add(animation, to: layer, in: model), number)
            reference.animations.append((animation, layer.index))
        }
        for (k, layer) in layers.enumerated() {
            try add(make(&random, k), to: layer)
            // A few layers with a stack or a general-path animation beside.
            if k % 7 == 3 {
                var animation = AnimationSamplerReferenceTests.randomAnimation(&random)
                while animation.problem() != nil { animation = AnimationSamplerReferenceTests.randomAnimation(&random) }
                try add(animation, to: layer)
            }
        }
        var (lanesValues, generalValues) = (PresentationValues(), PresentationValues())
        var laneSamples = 0
        var time = -1.0
        var step = 0
        while time < 6 {
            step += 1
            if step == 20 {
                // A second animation on the same key path of a lane's layer, mid-run.
                let layer = layers[1]
                let animation = Animation(
                    keyPath: .position, content: .basic(from: [0, 0], to: [10, 20], by: nil),
                    timing: Self.endlessTiming(), timingFunction: TimingFunction(.easeIn), isAdditive: true)
                try add(animation, to: layer)
            }
            if step == 30 {
                try lanes.setTiming(LayerTiming(beginTime: 0.5, speed: 0.5, timeOffset: 0), of: layers[2], in: model)
                reference.layerTimings[layers[2].index] = LayerTiming(beginTime: 0.5, speed: 0.5, timeOffset: 0)
                // The general store keeps its other timing too.
                try general.setTiming(
                    LayerTiming(beginTime: 0.5, speed: 0.5, timeOffset: 0), of: layers[2], in: model)
            }
            if step == 45 {
                try lanes.setTiming(.default, of: layers[2], in: model)
                try general.setTiming(.default, of: layers[2], in: model)
                reference.layerTimings[layers[2].index] = nil
            }
            if step == 50 {
                try lanes.remove(3)
                try general.remove(3)
                reference.removed.insert(3)
            }
            try lanes.sample(at: time, model: model, into: &lanesValues)
            try general.sample(at: time, model: model, into: &generalValues)
            if lanes.lanes.version != nil && lanes.lanes.groups.contains(where: { $0.count > 0 }) { laneSamples += 1 }
            inspect(lanes)
            let expected = reference.sample(at: time, model: model)
            XCTAssertEqual(lanesValues.layers, generalValues.layers, "seed \(seed) at \(time): entry order")
            XCTAssertEqual(lanes.finished, general.finished, "seed \(seed) at \(time)")
            XCTAssertEqual(lanes.finished, reference.finished, "seed \(seed) at \(time)")
            XCTAssertEqual(lanes.liveCount, general.liveCount, "seed \(seed) at \(time)")
            XCTAssertEqual(Set(lanesValues.layers), Set(expected.keys), "seed \(seed) at \(time)")
            for (slot, layer) in expected {
                let got = lanesValues.values(ofLayerAt: slot, model: model)
                XCTAssertTrue(
                    got.map { AnimationSamplerReferenceTests.sameBits($0, layer) } ?? false,
                    "seed \(seed) at \(time), layer \(slot): \(String(describing: got)) != \(layer)")
                XCTAssertEqual(lanesValues.properties(ofLayerAt: slot), generalValues.properties(ofLayerAt: slot))
            }
            time += 0.03 + random.unit() * 0.05
        }
        return laneSamples
    }

    /// A timing that shows from −2 s for ever.
    static func endlessTiming() -> AnimationTiming {
        var timing = AnimationTiming()
        timing.beginTime = -2
        timing.duration = 0.7
        timing.repeatCount = .infinity
        return timing
    }

    /// A basic or spring animation with resolved ends on a lane key path, or on a vector
    /// one a keyframe animation (`keyframeAnimation`) one time in four: endless when
    /// `longLived` (else a random timing: it may start late, end, be removed, fill).
    static func laneAnimation(_ random: inout SplitMix64, longLived: Bool) -> Animation {
        let keyPaths: [AnimationKeyPath] = [
            .position, .bounds, .anchorPoint, .zPosition, .anchorPointZ, .opacity, .transformScale,
            .transformRotation, .transformTranslation, .transformScaleX, .transform, .sublayerTransform,
        ]
        let keyPath = keyPaths[random.below(keyPaths.count)]
        func value() -> [Double] { AnimationSamplerReferenceTests.randomValue(&random, keyPath) }
        var timing = longLived ? endlessTiming() : AnimationSamplerReferenceTests.randomTiming(&random)
        if longLived {
            timing.beginTime = random.value(in: -3 ... -1.5)
            timing.duration = random.value(in: 0.2...1.5)
            timing.autoreverses = random.below(2) == 0
            timing.speed = [1, 2, -1, 0.5][random.below(4)]
            timing.timeOffset = random.below(2) == 0 ? random.value(in: 0...1) : 0
        }
        if !keyPath.isValueFunction && !keyPath.isWholeTransform && random.below(4) == 0 {
            return keyframeAnimation(&random, keyPath: keyPath, timing: timing)
        }
        let additive = !keyPath.isValueFunction && random.below(keyPath.isWholeTransform ? 4 : 2) == 0
        let cumulative = !keyPath.isWholeTransform && random.below(3) == 0
        let functions = TimingFunction.Name.allCases.map { TimingFunction($0) }
        if random.below(3) == 0 {
            let spring = Spring(stiffness: random.value(in: 50...400), damping: random.value(in: 2...40))
            return Animation(
                keyPath: keyPath, content: .spring(spring, from: value(), to: value(), by: nil), timing: timing,
                isAdditive: additive, isCumulative: cumulative)
        }
        let function: TimingFunction? = random.below(3) == 0 ? nil : functions[random.below(functions.count)]
        let content: Animation.Content =
            random.below(2) == 0 || keyPath.isWholeTransform
            ? .basic(from: value(), to: value(), by: nil) : .basic(from: value(), to: nil, by: value())
        return Animation(
            keyPath: keyPath, content: content, timing: timing, timingFunction: function, isAdditive: additive,
            isCumulative: cumulative)
    }

    /// A keyframe animation on vector key path `keyPath` with `timing`: 2 to 5 values,
    /// key times given or not, segment timing functions or not, mostly linear or paced
    /// (the lanes' modes) but also cubic and discrete, and now and then cumulative or
    /// with a timing function of its own (both stay on the general path); with
    /// `laneModes`, linear or paced only, neither cumulative nor with its own function.
    static func keyframeAnimation(
        _ random: inout SplitMix64, keyPath: AnimationKeyPath, timing: AnimationTiming, laneModes: Bool = false
    ) -> Animation {
        let n = 2 + random.below(4)
        let mode = [CalculationMode.linear, .linear, .paced, .cubic, .discrete][random.below(laneModes ? 3 : 5)]
        var keyTimes: [Double]? = nil
        if random.below(2) == 0 && mode != .discrete {
            keyTimes = [0] + (0..<(n - 2)).map { _ in random.value(in: 0.05...0.95) }.sorted() + [1]
        }
        let named = TimingFunction.Name.allCases.map { TimingFunction($0) }
        let functions = random.below(3) == 0 ? nil : (0..<(n - 1)).map { _ in named[random.below(named.count)] }
        let keyframes = Keyframes(
            values: (0..<n).map { _ in AnimationSamplerReferenceTests.randomValue(&random, keyPath) },
            keyTimes: keyTimes,
            timingFunctions: functions, calculationMode: mode)
        return Animation(
            keyPath: keyPath, content: .keyframe(keyframes), timing: timing,
            timingFunction: !laneModes && random.below(6) == 0 ? named[random.below(named.count)] : nil,
            isAdditive: random.below(2) == 0, isCumulative: !laneModes && random.below(6) == 0)
    }

    /// Half the time a keyframe animation on position (`keyframeAnimation`, three in four
    /// in the lanes' modes), else a basic animation with resolved ends on position,
    /// bounds or opacity, additive or
    /// not, sometimes cumulative: `endlessTiming()` for every one when `sharedTiming`,
    /// else a random endless timing (and one in ten a random one that may start late,
    /// end and fill); easeInEaseOut when `oneFunction`, else a named or custom function.
    static func wideLaneAnimation(_ random: inout SplitMix64, sharedTiming: Bool, oneFunction: Bool) -> Animation {
        let keyPath = [AnimationKeyPath.position, .bounds, .opacity][random.below(3)]
        // Half keyframe animations on position (some on the general path).
        var timing = endlessTiming()
        if !sharedTiming {
            timing.beginTime = random.value(in: -3 ... -1.5)
            timing.duration = random.value(in: 0.2...1.5)
            timing.autoreverses = random.below(2) == 0
            timing.speed = [1, 2, -1, 0.5][random.below(4)]
            timing.timeOffset = random.below(2) == 0 ? random.value(in: 0...1) : 0
            if random.below(10) == 0 { timing = AnimationSamplerReferenceTests.randomTiming(&random) }
        }
        if random.below(2) == 0 {
            return keyframeAnimation(&random, keyPath: .position, timing: timing, laneModes: random.below(4) != 0)
        }
        let named = TimingFunction.Name.allCases.map { TimingFunction($0) }
        let function =
            oneFunction
            ? TimingFunction(.easeInEaseOut)
            : random.below(5) == 0
                ? TimingFunction(controlPoints: 0.3, 0.9, 0.7, -0.2)! : named[random.below(named.count)]
        func value() -> [Double] { AnimationSamplerReferenceTests.randomValue(&random, keyPath) }
        return Animation(
            keyPath: keyPath, content: .basic(from: value(), to: value(), by: nil), timing: timing,
            timingFunction: function, isAdditive: random.below(2) == 0, isCumulative: random.below(6) == 0)
    }
}
