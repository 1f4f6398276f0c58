import AllocationCounter
import BatchGeometry
import BatchGeometryWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `animations` kernel's presentation tree (issue 23 item 7): one animation on every
/// layer of the workload, the mix of the issue in turn — an easeInEaseOut position, a
/// spring `transform.scale`, a three-segment keyframe position (additive, per-segment
/// timing functions), UIKit's additive bounds (from the change to zero), a whole-transform
/// rotation, and a linear opacity — each repeating forever with its own phase, so every
/// sample samples every animation. One call is one frame: `sample(at:model:into:)` at the
/// next 1/60 s into presentation values reused by every frame. Everything follows from the
/// layer count and the seed. `BATCHBENCH_ANIMATIONS_KIND=k` (0–5, the mix's order) gives
/// every layer kind k instead, to measure one kind alone (Benchmarks/README.md).
final class AnimationFixture {
    /// The kinds of the mix, in the order layers take them.
    static let mixCount = 6

    private(set) var animations = AnimationStore()
    private(set) var presentation = PresentationValues()
    /// Each layer's animation, for the one-at-a-time reference.
    private let described: [Animation]
    private let layers: [LayerHandle]
    private var frame = 0
    /// Heap allocations counted during the frames after the first two (0 expected).
    private(set) var warmAllocations = 0
    private(set) var warmFrames = 0
    /// Folds in one value of every call so no call can be optimized away.
    private(set) var sink = 0.0
    /// The object-graph baseline (`ObjectAnimator`, one instance per animation), built by
    /// `prepareBaseline`, and the frames it ran.
    private var animators: [ObjectAnimator] = []
    private var presented: [PresentedLayer] = []
    private var baselineFrame = 0

    init(model: borrowing LayerStore, seed: UInt64) {
        var random = SplitMix64(seed: seed ^ 0x2317)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var described: [Animation] = []
        var layers: [LayerHandle] = []
        described.reserveCapacity(model.count)
        let onlyKind = Self.onlyKind()
        for slot in 0..<model.count {
            guard let layer = model.handle(at: slot) else { continue }
            var timing = AnimationTiming()
            timing.duration = 0.3 + unit()
            timing.beginTime = -unit() * 2
            timing.repeatCount = .infinity
            timing.autoreverses = slot % 2 == 0
            let animation = Self.animation(kind: onlyKind ?? slot % Self.mixCount, timing: timing, unit: unit)
            do {
                try animations.add(animation, to: layer, in: model)
            } catch {
                fatalError("the animations mix is malformed: \(error)")
            }
            described.append(animation)
            layers.append(layer)
        }
        self.described = described
        self.layers = layers
    }

    /// The kind `BATCHBENCH_ANIMATIONS_KIND` asks for, or nil (the mix).
    private static func onlyKind() -> Int? {
        guard let text = getenv("BATCHBENCH_ANIMATIONS_KIND"), let kind = Int(String(cString: text)),
            (0..<mixCount).contains(kind)
        else { return nil }
        return kind
    }

    /// Animation `kind` of the mix with `timing`; `unit` draws numbers in [0, 1).
    private static func animation(kind: Int, timing: AnimationTiming, unit: () -> Double) -> Animation {
        switch kind {
        case 0:
            return Animation(
                keyPath: .position, content: .basic(from: [0, 0], to: [100 * unit(), 60 * unit()], by: nil),
                timing: timing, timingFunction: TimingFunction(.easeInEaseOut), isAdditive: true)
        case 1:
            let spring = Spring(stiffness: 100 + 300 * unit(), damping: 5 + 15 * unit())
            return Animation(
                keyPath: .transformScale, content: .spring(spring, from: [1], to: [1 + unit()], by: nil), timing: timing
            )
        case 2:
            let keyframes = Keyframes(
                values: [[0, 0], [30 * unit(), 10], [60, -20 * unit()], [0, 0]], keyTimes: [0, 0.3, 0.6, 1],
                timingFunctions: [TimingFunction(.easeIn), TimingFunction(.linear), TimingFunction(.easeOut)])
            return Animation(keyPath: .position, content: .keyframe(keyframes), timing: timing, isAdditive: true)
        case 3:
            return Animation(
                keyPath: .bounds,
                content: .basic(from: [0, 0, -40 * unit(), -20 * unit()], to: [0, 0, 0, 0], by: nil),
                timing: timing, timingFunction: TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1), isAdditive: true)
        case 4:
            let angle = unit() * 3
            let rotation = Transform3D(
                AffineTransform(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0))
            return Animation(
                keyPath: .transform,
                content: .basic(from: Transform3D.identity.rowMajor, to: rotation.rowMajor, by: nil),
                timing: timing, timingFunction: TimingFunction(.easeOut))
        default:
            return Animation(keyPath: .opacity, content: .basic(from: [0], to: [1], by: nil), timing: timing)
        }
    }

    /// The animations one frame samples.
    var count: Int { described.count }

    /// One frame: every animation sampled at the next 1/60 s (allocations counted once warm).
    func run(model: borrowing LayerStore) {
        frame += 1
        let before = BGAllocationCount()
        do {
            try animations.sample(at: Double(frame) / 60, model: model, into: &presentation)
        } catch {
            fatalError("sampling failed: \(error)")
        }
        if frame > 2 {
            warmAllocations += Int(BGAllocationCount() - before)
            warmFrames += 1
        }
        sink += Double(presentation.count)
    }

    /// Nil when the last frame's presentation values are, for animations spread over the
    /// whole mix, equal to those of the animation sampled alone (a store holding only
    /// it, at the same time), and no warm frame allocated; else one example.
    func problem(model: borrowing LayerStore) -> String? {
        guard frame > 0 else { return "no frame was sampled" }
        guard presentation.count == layers.count else {
            return "\(presentation.count) layers animated, expected \(layers.count)"
        }
        if warmAllocations > 0 { return "\(warmAllocations) allocations in \(warmFrames) warm frames, expected 0" }
        let checks = Swift.min(layers.count, 240)
        let stride = Swift.max(1, layers.count / checks)
        for k in 0..<checks {
            let index = Swift.min(k * stride + k % Self.mixCount, layers.count - 1)
            var alone = AnimationStore()
            var values = PresentationValues()
            do {
                try alone.add(described[index], to: layers[index], in: model)
                try alone.sample(at: Double(frame) / 60, model: model, into: &values)
            } catch {
                return "animation \(index) alone: \(error)"
            }
            if values.values(of: layers[index], model: model) != presentation.values(of: layers[index], model: model) {
                return
                    "animation \(index) (\(described[index].keyPath.rawValue)) sampled in batch differs from sampled alone"
            }
        }
        return nil
    }

    /// Builds the object-graph baseline: per animation, its layer's presented object (the
    /// model values read through the store's getters) and its animator object.
    func prepareBaseline(model: borrowing LayerStore) {
        animators = []
        presented = []
        animators.reserveCapacity(layers.count)
        presented.reserveCapacity(layers.count)
        for k in 0..<layers.count {
            let target = PresentedLayer(layers[k], in: model)
            guard let animator = ObjectAnimator.make(described[k], target: target) else {
                fatalError("the object-graph baseline does not model animation \(k) of the mix")
            }
            presented.append(target)
            animators.append(animator)
        }
    }

    /// One baseline frame: every animator evaluates itself at the next 1/60 s.
    func runBaseline() {
        baselineFrame += 1
        let time = Double(baselineFrame) / 60
        for k in 0..<animators.count { animators[k].update(at: time) }
        sink += presented.isEmpty ? 0 : presented[presented.count - 1].position.x
    }

    /// Nil when one more frame of the store and of the baseline, at the same time, agree
    /// within 1e-9 (relative to magnitudes above 1) on every animated layer; else one
    /// example. Drops the baseline afterwards (it holds an object per animation).
    func baselineProblem(model: borrowing LayerStore) -> String? {
        defer {
            animators = []
            presented = []
        }
        frame = Swift.max(frame, baselineFrame) + 1
        baselineFrame = frame - 1
        do {
            try animations.sample(at: Double(frame) / 60, model: model, into: &presentation)
        } catch {
            return "sampling failed: \(error)"
        }
        runBaseline()
        for k in 0..<layers.count {
            guard let values = presentation.values(of: layers[k], model: model) else {
                return "layer \(k) not animated"
            }
            let object = presented[k]
            let t = values.transform.rowMajor
            let o = object.transform.rowMajor
            let store =
                [values.bounds.x, values.bounds.y, values.bounds.width, values.bounds.height]
                + [values.position.x, values.position.y, Double(values.opacity)] + t
            let baseline =
                [object.bounds.x, object.bounds.y, object.bounds.width, object.bounds.height]
                + [object.position.x, object.position.y, Double(object.opacity)] + o
            for (a, b) in zip(store, baseline) where !(Swift.abs(a - b) <= 1e-9 * Swift.max(1, Swift.abs(a))) {
                return
                    "animation \(k) (\(described[k].keyPath.rawValue)): the object-graph baseline computed \(b), the store \(a)"
            }
        }
        return nil
    }
}
