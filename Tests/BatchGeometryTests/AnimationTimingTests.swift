import XCTest

@testable import BatchGeometry

/// One root layer at position (0, 0), opacity 0.5, and a helper that adds animations and
/// samples them. Values are read from `PresentationValues`.
struct AnimationBench: ~Copyable {
    var model = LayerStore()
    var animations = AnimationStore()
    var presentation = PresentationValues()
    let layer: LayerHandle

    init() throws {
        layer = try model.addLayer()
        model.setBounds(Rect(x: 0, y: 0, width: 100, height: 100), of: layer)
        model.setPosition(Point(x: 0, y: 0), of: layer)
        model.setOpacity(0.5, of: layer)
    }

    @discardableResult
    mutating func add(_ animation: Animation) throws -> Int {
        try animations.add(animation, to: layer, in: model)
    }

    /// The presentation values of the layer at `time` (the model's when untouched).
    mutating func sample(_ time: Double) throws -> PresentationLayer {
        try animations.sample(at: time, model: model, into: &presentation)
        return presentation.values(of: layer, model: model) ?? PresentationLayer(model: model, layer: layer.index)
    }
}

func basic(
    _ keyPath: AnimationKeyPath, from: [Double]? = nil, to: [Double]? = nil, by: [Double]? = nil,
    duration: Double = 1, _ configure: (inout Animation) -> Void = { _ in }
) -> Animation {
    var animation = Animation(keyPath: keyPath, content: .basic(from: from, to: to, by: by))
    animation.timing.duration = duration
    configure(&animation)
    return animation
}

/// docs/ANIMATION.md section 2 (time, phase, fill, removal, finished, local time) and 4
/// (from/to/by, cumulative), with the values measured on macOS that the spec quotes.
final class AnimationTimingTests: XCTestCase {
    /// Section 4.2, measured: with the model at 0.5, fromValue 0.2 alone shows 0.35 half
    /// way, toValue 0.8 alone 0.65, byValue 0.3 alone 0.65, toValue 0.9 with byValue 0.3 0.75.
    func testFromToByTableAgainstTheModelValue() throws {
        let cases: [([Double]?, [Double]?, [Double]?, Float)] = [
            ([0.2], nil, nil, 0.35), (nil, [0.8], nil, 0.65), (nil, nil, [0.3], 0.65), (nil, [0.9], [0.3], 0.75),
        ]
        for (from, to, by, shown) in cases {
            var bench = try AnimationBench()
            try bench.add(basic(.opacity, from: from, to: to, by: by))
            XCTAssertEqual(try bench.sample(0.5).opacity, shown, "from \(from ?? []) to \(to ?? []) by \(by ?? [])")
        }
    }

    /// Section 4.3, measured: a cumulative 0 → 10 repeated 3 times shows 5, 15, 25 at 0.5,
    /// 1.5, 2.5 s.
    func testCumulativeRepeatsAccumulate() throws {
        var bench = try AnimationBench()
        try bench.add(
            basic(.positionX, from: [0], to: [10]) {
                $0.isCumulative = true
                $0.timing.repeatCount = 3
            })
        XCTAssertEqual(try bench.sample(0.5).position.x, 5)
        XCTAssertEqual(try bench.sample(1.5).position.x, 15)
        XCTAssertEqual(try bench.sample(2.5).position.x, 25)
    }

    /// Section 2.4: with timeOffset 0.3 and d = 1, parent time 0.9 shows local time 0.2.
    func testTimeOffsetShiftsThePhase() throws {
        var bench = try AnimationBench()
        try bench.add(basic(.positionX, from: [0], to: [100]) { $0.timing.timeOffset = 0.3 })
        let local: Double = (0.9 + 0.3) - 1  // ℓ = 1.2: one iteration done, r ≈ 0.2
        XCTAssertEqual(try bench.sample(0.9).position.x, 100 * local)
    }

    /// Section 2.4: the end instant shows the end, autoreverses comes back, a negative
    /// speed plays backward from the offset.
    func testEndInstantAutoreverseAndNegativeSpeed() throws {
        var end = try AnimationBench()
        try end.add(basic(.positionX, from: [0], to: [100]) { $0.timing.removedOnCompletion = false })
        XCTAssertEqual(try end.sample(1).position.x, 100)

        var reverse = try AnimationBench()
        try reverse.add(basic(.positionX, from: [0], to: [100]) { $0.timing.autoreverses = true })
        XCTAssertEqual(try reverse.sample(0.25).position.x, 25)
        XCTAssertEqual(try reverse.sample(1.5).position.x, 50)  // I = 2: r = 1.5, λ = 0.5

        var backward = try AnimationBench()
        try backward.add(basic(.positionX, from: [0], to: [100]) { $0.timing.speed = -1 })
        XCTAssertEqual(try backward.sample(0.25).position.x, 75)  // ℓ = −0.25: k = −1, r = 0.75
    }

    /// Section 2.3: fills before and after, removal on completion, the finished list.
    func testFillRemovalAndFinished() throws {
        var bench = try AnimationBench()
        try bench.add(basic(.positionX, from: [10], to: [20]) { $0.timing.beginTime = 1 })  // 0: no fill
        try bench.add(
            basic(.positionY, from: [30], to: [40]) {
                $0.timing.beginTime = 1
                $0.timing.fillMode = .both
                $0.timing.removedOnCompletion = false
            })  // 1
        let before = try bench.sample(0.5)
        XCTAssertEqual(before.position, Point(x: 0, y: 30))  // model x; y filled backwards
        XCTAssertEqual(bench.animations.finished, [])
        let after = try bench.sample(2.5)
        XCTAssertEqual(after.position, Point(x: 0, y: 40))  // 0 removed; 1 filled forwards
        XCTAssertEqual(bench.animations.finished, [0, 1])
        XCTAssertFalse(bench.animations.contains(0))
        XCTAssertTrue(bench.animations.contains(1))
        XCTAssertEqual(bench.animations.liveCount, 1)
    }

    /// An animation whose layer dies leaves at the next sample, also after samples that
    /// skipped the liveness check (the model's structure unchanged), and also when the
    /// next sample is given another store, where the layer's slot is not that layer.
    func testDeadLayersLeaveAfterSamplesThatSkippedTheCheck() throws {
        var bench = try AnimationBench()
        let other = try bench.model.addLayer()
        let forever = basic(.opacity, from: [0], to: [1]) { $0.timing.repeatCount = .infinity }
        try bench.add(forever)
        let onOther = try bench.animations.add(forever, to: other, in: bench.model)
        for time in [0.25, 0.5] {
            try bench.animations.sample(at: time, model: bench.model, into: &bench.presentation)
            XCTAssertEqual(bench.presentation.count, 2)
        }
        _ = try bench.model.destroyLayer(other)
        try bench.animations.sample(at: 0.75, model: bench.model, into: &bench.presentation)
        XCTAssertFalse(bench.animations.contains(onOther))
        XCTAssertEqual(bench.presentation.layers, [bench.layer.index])
        // Another store: its slot 0 was destroyed and re-used, a later generation.
        var elsewhere = LayerStore()
        _ = try elsewhere.destroyLayer(try elsewhere.addLayer())
        _ = try elsewhere.addLayer()
        try bench.animations.sample(at: 1, model: elsewhere, into: &bench.presentation)
        XCTAssertEqual(bench.animations.liveCount, 0)
        XCTAssertEqual(bench.presentation.count, 0)
    }

    /// Section 2.3: repeatDuration is active time; speed 0 never finishes.
    func testRepeatDurationAndFrozenSpeed() throws {
        var bench = try AnimationBench()
        try bench.add(basic(.positionX, from: [0], to: [100]) { $0.timing.repeatDuration = 1.7 })
        try bench.add(
            basic(.positionY, from: [0], to: [100]) {
                $0.timing.speed = 0
                $0.timing.timeOffset = 0.4
            })
        let shown = try bench.sample(1.6)
        let local: Double = 1.6 - 1
        XCTAssertEqual(shown.position.x, 100 * local)
        XCTAssertEqual(shown.position.y, 40)
        XCTAssertEqual(try bench.sample(1.8).position.x, 0)  // removed after 1.7
        XCTAssertEqual(bench.animations.finished, [0])
        XCTAssertEqual(try bench.sample(1000).position.y, 40)
        XCTAssertEqual(bench.animations.finished, [0])
    }

    /// Section 2.1: a layer's time is its superlayer's mapped by its own timing; speed 0
    /// freezes the subtree at its timeOffset.
    func testLayerTimeDownTheTree() throws {
        var model = LayerStore()
        let root = try model.addLayer()
        let child = try model.addLayer(superlayer: root)
        var animations = AnimationStore()
        try animations.add(basic(.positionX, from: [0], to: [100], duration: 4), to: child, in: model)
        try animations.setTiming(LayerTiming(beginTime: 1, speed: 2), of: root, in: model)
        try animations.setTiming(LayerTiming(timeOffset: 0.5), of: child, in: model)
        var values = PresentationValues()
        try animations.sample(at: 2, model: model, into: &values)
        // t(root) = (2 − 1)·2 = 2; t(child) = 2 + 0.5 = 2.5 of 4 s.
        XCTAssertEqual(values.values(of: child, model: model)?.position.x, 100 * (2.5 / 4))
        try animations.setTiming(LayerTiming(speed: 0, timeOffset: 1), of: root, in: model)
        try animations.sample(at: 3, model: model, into: &values)
        XCTAssertEqual(values.values(of: child, model: model)?.position.x, 100 * (1.5 / 4))
    }

    /// Samples are frames: a NaN or earlier time is an error that changes nothing.
    func testTimeMustNotGoBack() throws {
        var bench = try AnimationBench()
        try bench.add(basic(.positionX, from: [0], to: [100]))
        _ = try bench.sample(0.5)
        XCTAssertThrowsError(try bench.sample(0.25)) { error in
            XCTAssertEqual((error as? AnimationError)?.field, "time")
        }
        XCTAssertThrowsError(try bench.sample(.nan))
        XCTAssertEqual(try bench.sample(0.5).position.x, 50)
    }
}
