import BatchGeometry

// The `animations` kernel's object-graph baseline (issue 23 item 7): animations as an app
// level animator holds them — one class instance per animation with its own ends, timing
// and curve object, evaluating itself each frame and writing its layer's presentation
// object — next to which the AnimationStore's columns are measured. The curves are the
// library's public scalar ones (`TimingFunction.value(at:)`, `Spring.progress(at:)`,
// `Transform3D.interpolated(to:fraction:)`), as an app would call them, and the timing is
// docs/ANIMATION.md 2.3-2.4 written out again in the spec's operation order, so the
// baseline computes the same values as the store (checked by batchbench).

/// One layer's values as an app's animator sees them: the model values (read once from
/// the store's public getters) and the presented ones its animator writes each frame.
package final class PresentedLayer {
    package let modelBounds: Rect
    package let modelPosition: Point
    package let modelOpacity: Float
    package let modelTransform: Transform3D
    package var bounds: Rect
    package var position: Point
    package var opacity: Float
    package var transform: Transform3D

    /// The model values of `layer` in `store`, presented as they are.
    package init(_ layer: LayerHandle, in store: borrowing LayerStore) {
        modelBounds = store.bounds(of: layer)
        modelPosition = store.position(of: layer)
        modelOpacity = store.opacity(of: layer)
        modelTransform = store.transform(of: layer)
        bounds = modelBounds
        position = modelPosition
        opacity = modelOpacity
        transform = modelTransform
    }
}

/// A progress curve object (as `CAMediaTimingFunction` is a class): linear here, a timing
/// function or a spring in the subclasses, called through dynamic dispatch.
package class AnimatorCurve {
    package init() {}
    /// Progress at local time `local` (seconds) of an iteration of `duration` seconds.
    package func progress(local: Double, duration: Double) -> Double { local / duration }
}

/// A cubic Bézier timing function (`CAMediaTimingFunction`).
package final class TimingCurve: AnimatorCurve {
    package let function: TimingFunction
    package init(_ function: TimingFunction) { self.function = function }
    package override func progress(local: Double, duration: Double) -> Double {
        Double(function.value(at: local / duration))
    }
}

/// A spring's progress at local time (`CASpringAnimation`).
package final class SpringCurve: AnimatorCurve {
    package let spring: Spring
    package init(_ spring: Spring) { self.spring = spring }
    package override func progress(local: Double, duration: Double) -> Double { Double(spring.progress(at: local)) }
}

/// One running animation as an app object: its timing (docs/ANIMATION.md 2.3-2.4, the
/// layer's own timing the default), its curve, and in a subclass its values and the
/// property it writes.
package class ObjectAnimator {
    package let target: PresentedLayer
    package let curve: AnimatorCurve
    let beginTime: Double
    let duration: Double
    let speed: Double
    let timeOffset: Double
    let iteration: Double
    let active: Double
    let autoreverses: Bool

    /// `timing` resolved as the store resolves it (a duration of 0 is 0.25 s).
    package init(target: PresentedLayer, curve: AnimatorCurve, timing: AnimationTiming) {
        self.target = target
        self.curve = curve
        beginTime = timing.beginTime
        duration = timing.duration == 0 ? 0.25 : timing.duration
        speed = timing.speed
        timeOffset = timing.timeOffset
        iteration = timing.autoreverses ? duration + duration : duration
        if timing.repeatDuration > 0 {
            active = timing.repeatDuration
        } else if timing.repeatCount > 0 {
            active = timing.repeatCount * iteration
        } else {
            active = iteration
        }
        autoreverses = timing.autoreverses
    }

    /// Evaluates the animation at `time` and writes its property; false when it shows
    /// nothing then (before its begin or after its end: no fill in the benchmark's mix).
    @discardableResult
    package final func update(at time: Double) -> Bool {
        guard time >= beginTime else { return false }
        let tau = (time - beginTime) * Swift.abs(speed)
        guard tau <= active else { return false }
        let l = (speed < 0 ? -tau : tau) + timeOffset
        var k = (l / iteration).rounded(.down)
        var r = l - k * iteration
        if tau == active && speed > 0 && r == 0 {
            r = iteration
            k = k - 1
        }
        r = Swift.min(Swift.max(r, 0), iteration)
        let local = autoreverses ? (r <= duration ? r : iteration - r) : r
        write(progress: curve.progress(local: local, duration: duration))
        return true
    }

    /// Writes the animated property at progress `f` (overridden).
    package func write(progress f: Double) {}
}

/// A basic or spring animation of a 1-, 2- or 4-number property (position, bounds,
/// opacity, transform.scale), additive or not.
package final class VectorAnimator: ObjectAnimator {
    /// Which property it writes.
    package enum Property: Sendable { case position, bounds, opacity, scale }
    package let property: Property
    package let from: SIMD4<Double>
    package let to: SIMD4<Double>
    package let isAdditive: Bool

    package init(
        target: PresentedLayer, curve: AnimatorCurve, timing: AnimationTiming, property: Property,
        from: SIMD4<Double>, to: SIMD4<Double>, isAdditive: Bool
    ) {
        self.property = property
        self.from = from
        self.to = to
        self.isAdditive = isAdditive
        super.init(target: target, curve: curve, timing: timing)
    }

    package override func write(progress f: Double) {
        let v = from + (to - from) * f
        let t = target
        switch property {
        case .position:
            let p = Point(x: v[0], y: v[1])
            t.position = isAdditive ? Point(x: t.modelPosition.x + p.x, y: t.modelPosition.y + p.y) : p
        case .bounds:
            let m = t.modelBounds
            t.bounds =
                isAdditive
                ? Rect(x: m.x + v[0], y: m.y + v[1], width: m.width + v[2], height: m.height + v[3])
                : Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        case .opacity:
            t.opacity = Float(isAdditive ? Double(t.modelOpacity) + v[0] : v[0])
        case .scale:
            var m = Transform3D.identity
            (m.m11, m.m22, m.m33) = (v[0], v[0], v[0])
            t.transform = isAdditive ? m.concatenating(t.modelTransform) : m
        }
    }
}

/// A linear keyframe animation of position (additive or not) with per-segment timing
/// function objects.
package final class KeyframePositionAnimator: ObjectAnimator {
    package let points: [Point]
    package let keyTimes: [Double]
    package let segmentCurves: [TimingCurve]
    package let isAdditive: Bool

    package init(
        target: PresentedLayer, timing: AnimationTiming, points: [Point], keyTimes: [Double],
        segmentCurves: [TimingCurve], isAdditive: Bool
    ) {
        self.points = points
        self.keyTimes = keyTimes
        self.segmentCurves = segmentCurves
        self.isAdditive = isAdditive
        super.init(target: target, curve: AnimatorCurve(), timing: timing)
    }

    package override func write(progress u: Double) {
        var i = 0
        var j = points.count - 2
        while j > 0 {
            if keyTimes[j] <= u {
                i = j
                break
            }
            j -= 1
        }
        let w = keyTimes[i + 1] - keyTimes[i]
        var sigma = w == 0 ? 1 : (u - keyTimes[i]) / w
        if !segmentCurves.isEmpty { sigma = segmentCurves[i].progress(local: sigma, duration: 1) }
        let a = points[i]
        let b = points[i + 1]
        let p = Point(x: a.x + (b.x - a.x) * sigma, y: a.y + (b.y - a.y) * sigma)
        let m = target.modelPosition
        target.position = isAdditive ? Point(x: m.x + p.x, y: m.y + p.y) : p
    }
}

/// A basic whole-transform animation (interpolated by decomposition), not additive.
package final class TransformAnimator: ObjectAnimator {
    package let from: Transform3D
    package let to: Transform3D

    package init(
        target: PresentedLayer, curve: AnimatorCurve, timing: AnimationTiming, from: Transform3D, to: Transform3D
    ) {
        self.from = from
        self.to = to
        super.init(target: target, curve: curve, timing: timing)
    }

    package override func write(progress f: Double) { target.transform = from.interpolated(to: to, fraction: f) }
}

extension ObjectAnimator {
    /// The app-object form of `animation` on `target`, or nil for what the baseline does
    /// not model (anything outside the `animations` kernel's mix: cumulative, fills,
    /// by-values, other key paths and keyframe modes).
    package static func make(_ animation: Animation, target: PresentedLayer) -> ObjectAnimator? {
        guard !animation.isCumulative, animation.timing.fillMode == .removed else { return nil }
        let curve = animation.timingFunction.map { TimingCurve($0) as AnimatorCurve } ?? AnimatorCurve()
        switch animation.content {
        case .basic(let from?, let to?, nil) where animation.keyPath == .transform && !animation.isAdditive:
            guard from.count == 16 && to.count == 16 else { return nil }
            return TransformAnimator(
                target: target, curve: curve, timing: animation.timing, from: Transform3D(rowMajor: from),
                to: Transform3D(rowMajor: to))
        case .basic(let from?, let to?, nil):
            return vector(animation, target: target, curve: curve, from: from, to: to)
        case .spring(let spring, let from?, let to?, nil):
            return vector(animation, target: target, curve: SpringCurve(spring), from: from, to: to)
        case .keyframe(let keyframes)
        where animation.keyPath == .position && keyframes.calculationMode == .linear && keyframes.values.count >= 2:
            let keyTimes =
                keyframes.keyTimes
                ?? (0..<keyframes.values.count).map {
                    Double($0) / Double(keyframes.values.count - 1)
                }
            return KeyframePositionAnimator(
                target: target, timing: animation.timing, points: keyframes.values.map { Point(x: $0[0], y: $0[1]) },
                keyTimes: keyTimes, segmentCurves: (keyframes.timingFunctions ?? []).map { TimingCurve($0) },
                isAdditive: animation.isAdditive)
        default: return nil
        }
    }

    private static func vector(
        _ animation: Animation, target: PresentedLayer, curve: AnimatorCurve, from: [Double], to: [Double]
    ) -> ObjectAnimator? {
        let property: VectorAnimator.Property
        switch animation.keyPath {
        case .position: property = .position
        case .bounds: property = .bounds
        case .opacity: property = .opacity
        case .transformScale: property = .scale
        default: return nil
        }
        func lanes(_ v: [Double]) -> SIMD4<Double> {
            var s = SIMD4<Double>(repeating: 0)
            for k in 0..<Swift.min(v.count, 4) { s[k] = v[k] }
            return s
        }
        return VectorAnimator(
            target: target, curve: curve, timing: animation.timing, property: property, from: lanes(from),
            to: lanes(to), isAdditive: animation.isAdditive)
    }
}
