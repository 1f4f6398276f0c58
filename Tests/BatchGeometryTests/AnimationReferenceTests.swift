import XCTest

@testable import BatchGeometry

/// The sampler against a test-side scalar reference of docs/ANIMATION.md sections 2.3,
/// 2.4, 4 and 9, written from the contract without the library's timing code: random
/// basic `position.x` animations (begin, duration, speed, offset, repeats, autoreverse,
/// fills, removal, from/to/by, additive, cumulative) stacked on one layer, sampled at
/// random non-decreasing times; values and finished lists must be identical.
final class AnimationReferenceTests: XCTestCase {
    private struct Reference {
        var animation: Animation
        var finished = false
        var removed = false

        /// (local time, iteration) or nil for "contributes nothing", per the contract.
        mutating func phase(_ tp: Double) -> (Double, Double)? {
            let t = animation.timing
            let d = t.duration == 0 ? 0.25 : t.duration
            let iteration = t.autoreverses ? d + d : d
            let active =
                t.repeatDuration > 0 ? t.repeatDuration : (t.repeatCount > 0 ? t.repeatCount * iteration : iteration)
            func local(_ tau: Double) -> (Double, Double) {
                let l = (t.speed < 0 ? -tau : tau) + t.timeOffset
                var k = (l / iteration).rounded(.down)
                var r = l - k * iteration
                if tau == active && t.speed > 0 && r == 0 { (r, k) = (iteration, k - 1) }
                r = min(max(r, 0), iteration)
                if t.autoreverses { return (r <= d ? r : iteration - r, 0) }
                return (r, k)
            }
            if removed { return nil }
            if tp < t.beginTime {
                return t.fillMode == .backwards || t.fillMode == .both ? local(0) : nil
            }
            let tau = (tp - t.beginTime) * abs(t.speed)
            if tau > active {
                finished = true
                if t.removedOnCompletion {
                    removed = true
                    return nil
                }
                return t.fillMode == .forwards || t.fillMode == .both ? local(active) : nil
            }
            return local(tau)
        }

        /// The value over `underneath` (section 4's table, interpolation, section 9).
        mutating func apply(_ tp: Double, over underneath: Double) -> Double {
            guard let (lambda, k) = phase(tp), case .basic(let from, let to, let by) = animation.content else {
                return underneath
            }
            let d = animation.timing.duration == 0 ? 0.25 : animation.timing.duration
            let f = lambda / d
            let base = animation.isAdditive ? 0 : underneath
            let (s, e): (Double, Double)
            switch (from?[0], to?[0], by?[0]) {
            case (let a?, let b?, _): (s, e) = (a, b)
            case (let a?, nil, let c?): (s, e) = (a, a + c)
            case (nil, let b?, let c?): (s, e) = (b - c, b)
            case (let a?, nil, nil): (s, e) = (a, base)
            case (nil, let b?, nil): (s, e) = (base, b)
            case (nil, nil, let c?): (s, e) = (base, base + c)
            case (nil, nil, nil): (s, e) = (base, base)
            }
            let delta = e - s
            var v = s + delta * f
            if animation.isCumulative && k != 0 { v = v + k * delta }
            return animation.isAdditive ? underneath + v : v
        }
    }

    func testRandomStacksMatchTheReference() throws {
        var random = SplitMix64(seed: 2311)
        func pick(_ choices: [Double]) -> Double { choices[random.below(choices.count)] }
        for round in 0..<300 {
            var bench = try AnimationBench()
            var references: [Reference] = []
            for _ in 0..<(1 + random.below(4)) {
                var animation = basic(
                    .positionX, from: random.below(2) == 0 ? [pick([-20, 0, 3.5])] : nil,
                    to: random.below(2) == 0 ? [pick([10, 40.25])] : nil,
                    by: random.below(3) == 0 ? [pick([5, -7])] : nil,
                    duration: pick([0, 0.3, 1, 2.5]))
                animation.timing.beginTime = pick([0, 0.2, 1])
                animation.timing.speed = pick([1, 2, 0.5, -1, 0])
                animation.timing.timeOffset = pick([0, 0.3, 1.1])
                if random.below(2) == 0 {
                    animation.timing.repeatCount = pick([1.5, 2, 3, .infinity])
                } else if random.below(2) == 0 {
                    animation.timing.repeatDuration = pick([0.7, 1.7])
                }
                animation.timing.autoreverses = random.below(3) == 0
                animation.timing.fillMode = FillMode.allCases[random.below(4)]
                animation.timing.removedOnCompletion = random.below(2) == 0
                animation.isAdditive = random.below(2) == 0
                animation.isCumulative = random.below(3) == 0
                try bench.add(animation)
                references.append(Reference(animation: animation))
            }
            var time = 0.0
            for _ in 0..<12 {
                time += pick([0, 0.05, 0.25, 0.7, 1.3])
                var expected = 0.0  // the model position.x
                for index in references.indices { expected = references[index].apply(time, over: expected) }
                let shown = try bench.sample(time).position.x
                XCTAssertEqual(shown, expected, "round \(round) time \(time)")
                let finished = references.indices.filter { references[$0].finished }
                XCTAssertEqual(bench.animations.finished, finished, "round \(round) time \(time)")
            }
        }
    }
}
