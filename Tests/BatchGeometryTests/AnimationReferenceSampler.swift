@testable import BatchGeometry

/// A scalar, one-animation-at-a-time sampler written from docs/ANIMATION.md, for
/// `AnimationSamplerReferenceTests`: nothing resolved ahead, nothing cached. It shares
/// with the store only the pieces tested on their own against the spec's numbers (the
/// phase of `ResolvedTiming`, `TimingFunction`, `Spring`, `Transform3D.interpolated`,
/// the value functions' matrices).
struct ReferenceSampler {
    var animations: [(animation: Animation, slot: Int)] = []
    var layerTimings: [Int: LayerTiming] = [:]
    var removed: Set<Int> = []
    var finished: [Int] = []

    /// Every animated layer's values at `time` (section 9), by slot.
    mutating func sample(at time: Double, model: borrowing LayerStore) -> [Int: PresentationLayer] {
        var presented: [Int: PresentationLayer] = [:]
        for (number, entry) in animations.enumerated() where !removed.contains(number) {
            let timing = ResolvedTiming(entry.animation.timing)
            let parentTime = layerTime(of: entry.slot, at: time, model: model)
            if timing.isAfterEnd(parentTime) {
                if !finished.contains(number) { finished.append(number) }
                if entry.animation.timing.removedOnCompletion {
                    removed.insert(number)
                    continue
                }
            }
            guard case .showing(let local, let iteration) = timing.phase(parentTime) else { continue }
            var layer = presented[entry.slot] ?? PresentationLayer(model: model, layer: entry.slot)
            let f = Self.progress(entry.animation, local: local, duration: timing.duration)
            Self.compose(entry.animation, progress: f, iteration: iteration, into: &layer)
            presented[entry.slot] = layer
        }
        finished.sort()
        return presented
    }

    /// Section 2.1: the ancestors' timings applied from the root down.
    func layerTime(of slot: Int, at time: Double, model: borrowing LayerStore) -> Double {
        var chain: [LayerTiming] = []
        var layer: Int? = slot
        while let current = layer {
            if let timing = layerTimings[current] { chain.append(timing) }
            layer = model.superlayer(of: current)
        }
        return chain.reversed().reduce(time) { $1.localTime($0) }
    }

    /// Section 2.5: the timing function of u (or u), or the spring's float position.
    static func progress(_ animation: Animation, local: Double, duration: Double) -> Double {
        if let spring = animation.spring { return Double(spring.progress(at: local)) }
        let u = local / duration
        return animation.timingFunction.map { Double($0.value(at: u)) } ?? u
    }

    /// Sections 4, 8, 9: the animation's value written over the layer's.
    static func compose(
        _ animation: Animation, progress f: Double, iteration k: Double, into layer: inout PresentationLayer
    ) {
        let keyPath = animation.keyPath
        if keyPath.isWholeTransform {
            let underneath = keyPath == .transform ? layer.transform : layer.sublayerTransform
            let value: Transform3D
            if case .keyframe(let keyframes) = animation.content {
                value = ReferenceKeyframes(keyframes, keyPath: keyPath).transform(at: f)
            } else {
                let (from, to) = ends(animation)
                let base = animation.isAdditive ? Transform3D.identity : underneath
                value = (from.map(matrix) ?? base).interpolated(to: to.map(matrix) ?? base, fraction: f)
            }
            let result = animation.isAdditive ? value.concatenating(underneath) : value
            if keyPath == .transform { layer.transform = result } else { layer.sublayerTransform = result }
        } else if keyPath.isValueFunction {
            let v = value(animation, f, k, base: SIMD4(repeating: keyPath.valueFunctionIdentity))
            let m = keyPath.valueFunctionMatrix(v[0], v[1])
            layer.transform = animation.isAdditive ? m.concatenating(layer.transform) : m
        } else {
            let underneath = read(keyPath, of: layer)
            let v = value(animation, f, k, base: animation.isAdditive ? SIMD4(repeating: 0) : underneath)
            write(animation.isAdditive ? underneath + v : v, keyPath, into: &layer)
        }
    }

    static func ends(_ animation: Animation) -> (from: [Double]?, to: [Double]?) {
        switch animation.content {
        case .basic(let from, let to, _), .spring(_, let from, let to, _): return (from, to)
        case .keyframe: return (nil, nil)
        }
    }

    static func matrix(_ value: [Double]) -> Transform3D {
        value.count == 6
            ? Transform3D(
                AffineTransform(a: value[0], b: value[1], c: value[2], d: value[3], tx: value[4], ty: value[5]))
            : Transform3D(rowMajor: value)
    }

    static func lanes(_ value: [Double]) -> SIMD4<Double> {
        var v = SIMD4<Double>(repeating: 0)
        for (i, x) in value.enumerated() { v[i] = x }
        return v
    }

    /// Section 4.1's table, then cumulative (4.3); keyframes (6) and their cumulative.
    static func value(_ animation: Animation, _ f: Double, _ k: Double, base: SIMD4<Double>) -> SIMD4<Double> {
        let cumulative = animation.isCumulative && k != 0
        switch animation.content {
        case .keyframe(let keyframes):
            let reference = ReferenceKeyframes(keyframes, keyPath: animation.keyPath)
            let v = reference.vector(at: f)
            guard cumulative else { return v }
            return v + k * (reference.values[reference.values.count - 1] - reference.values[0])
        case .basic(let from, let to, let by), .spring(_, let from, let to, let by):
            let (from, to, by) = (from.map(lanes), to.map(lanes), by.map(lanes))
            let s: SIMD4<Double>
            let e: SIMD4<Double>
            if let from, let to {
                (s, e) = (from, to)
            } else if let from, let by {
                (s, e) = (from, from + by)
            } else if let to, let by {
                (s, e) = (to - by, to)
            } else if let from {
                (s, e) = (from, base)
            } else if let to {
                (s, e) = (base, to)
            } else if let by {
                (s, e) = (base, base + by)
            } else {
                (s, e) = (base, base)
            }
            let delta = e - s
            let v = s + delta * f
            return cumulative ? v + k * delta : v
        }
    }

    static func read(_ keyPath: AnimationKeyPath, of layer: PresentationLayer) -> SIMD4<Double> {
        switch keyPath {
        case .position: return SIMD4(layer.position.x, layer.position.y, 0, 0)
        case .positionX: return SIMD4(layer.position.x, 0, 0, 0)
        case .positionY: return SIMD4(layer.position.y, 0, 0, 0)
        case .bounds: return SIMD4(layer.bounds.x, layer.bounds.y, layer.bounds.width, layer.bounds.height)
        case .boundsOrigin: return SIMD4(layer.bounds.x, layer.bounds.y, 0, 0)
        case .boundsSize: return SIMD4(layer.bounds.width, layer.bounds.height, 0, 0)
        case .anchorPoint: return SIMD4(layer.anchorPoint.x, layer.anchorPoint.y, 0, 0)
        case .zPosition: return SIMD4(layer.zPosition, 0, 0, 0)
        case .anchorPointZ: return SIMD4(layer.anchorPointZ, 0, 0, 0)
        default: return SIMD4(Double(layer.opacity), 0, 0, 0)
        }
    }

    static func write(_ v: SIMD4<Double>, _ keyPath: AnimationKeyPath, into layer: inout PresentationLayer) {
        switch keyPath {
        case .position: layer.position = Point(x: v[0], y: v[1])
        case .positionX: layer.position.x = v[0]
        case .positionY: layer.position.y = v[0]
        case .bounds: layer.bounds = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        case .boundsOrigin: layer.bounds.origin = Point(x: v[0], y: v[1])
        case .boundsSize: layer.bounds.size = Size(width: v[0], height: v[1])
        case .anchorPoint: layer.anchorPoint = Point(x: v[0], y: v[1])
        case .zPosition: layer.zPosition = v[0]
        case .anchorPointZ: layer.anchorPointZ = v[0]
        default: layer.opacity = Float(v[0])
        }
    }
}

/// Section 6 for one keyframe animation, from its description each time.
struct ReferenceKeyframes {
    let values: [SIMD4<Double>]
    let matrices: [Transform3D]
    let keyTimes: [Double]
    let functions: [TimingFunction]?
    let mode: CalculationMode

    init(_ keyframes: Keyframes, keyPath: AnimationKeyPath) {
        values = keyframes.values.map { keyPath.isWholeTransform ? SIMD4(repeating: 0) : ReferenceSampler.lanes($0) }
        matrices = keyPath.isWholeTransform ? keyframes.values.map(ReferenceSampler.matrix) : []
        mode = keyframes.calculationMode
        functions = mode == .paced ? nil : keyframes.timingFunctions
        let n = keyframes.values.count
        let even = n == 1 ? [0.0] : (0..<n).map { Double($0) / Double(n - 1) }
        switch mode {
        case .discrete: keyTimes = keyframes.keyTimes ?? (0...n).map { Double($0) / Double(n) }
        case .linear, .cubic: keyTimes = keyframes.keyTimes ?? even
        case .paced:
            var lengths = [0.0]
            for j in 1..<max(n, 1) {
                let d = values[j] - values[j - 1]
                lengths.append(
                    lengths[j - 1] + (((d[0] * d[0] + d[1] * d[1]) + d[2] * d[2]) + d[3] * d[3]).squareRoot())
            }
            let total = lengths[n - 1]
            keyTimes = total == 0 ? even : lengths.map { $0 / total }
        }
    }

    var count: Int { max(values.count, matrices.count) }

    /// The segment (last key time ≤ u, at most n − 2) and its eased progress.
    func segment(_ u: Double) -> (Int, Double) {
        let i = (0...(count - 2)).last { keyTimes[$0] <= u } ?? 0
        let w = keyTimes[i + 1] - keyTimes[i]
        let sigma = w == 0 ? 1 : (u - keyTimes[i]) / w
        return (i, functions.map { Double($0[i].value(at: sigma)) } ?? sigma)
    }

    func discreteIndex(_ u: Double) -> Int { (0..<count).last { keyTimes[$0] <= u } ?? 0 }

    func vector(at u: Double) -> SIMD4<Double> {
        if count == 1 { return values[0] }
        if mode == .discrete { return values[discreteIndex(u)] }
        let (i, s) = segment(u)
        let (a, b) = (values[i], values[i + 1])
        if mode != .cubic { return a + (b - a) * s }
        func delta(_ j: Int) -> Double { keyTimes[j + 1] - keyTimes[j] }
        func central(_ j: Int) -> SIMD4<Double> { (values[j + 1] - values[j - 1]) * 0.5 }
        let out = i == 0 ? values[1] - values[0] : central(i) * ((2 * delta(i)) / (delta(i - 1) + delta(i)))
        let j = i + 1
        let into =
            j == count - 1 ? values[j] - values[j - 1] : central(j) * ((2 * delta(j - 1)) / (delta(j - 1) + delta(j)))
        let (s2, s3) = (s * s, s * s * s)
        let h00 = (2 * s3 - 3 * s2) + 1
        let h10 = (s3 - 2 * s2) + s
        let h01 = 3 * s2 - 2 * s3
        let h11 = s3 - s2
        return ((h00 * a + h10 * out) + h01 * b) + h11 * into
    }

    func transform(at u: Double) -> Transform3D {
        if count == 1 { return matrices[0] }
        if mode == .discrete { return matrices[discreteIndex(u)] }
        let (i, s) = segment(u)
        return matrices[i].interpolated(to: matrices[i + 1], fraction: s)
    }
}
