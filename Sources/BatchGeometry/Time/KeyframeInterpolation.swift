// CAKeyframeAnimation (docs/ANIMATION.md section 6): the key times resolved once when an
// animation is added (given, evenly spaced, or paced by arc length), and the value at a
// progress u in the linear, discrete, paced and cubic modes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

extension AnimationStore {
    /// Stores the values, the resolved key times and the segment timing functions of a
    /// checked keyframe animation. O(n).
    mutating func appendKeyframes(_ keyframes: Keyframes, keyPath: AnimationKeyPath) {
        let n = keyframes.values.count
        let valueStart = keyframeValues.count
        for value in keyframes.values { Self.appendValue(value, keyPath: keyPath, to: &keyframeValues) }
        let resolvedKeyTimes: [Double]
        switch keyframes.calculationMode {
        case .paced:
            resolvedKeyTimes = pacedKeyTimes(valueStart: valueStart, count: n)
        case .discrete:
            resolvedKeyTimes = keyframes.keyTimes ?? (0...n).map { Double($0) / Double(n) }
        case .linear, .cubic:
            resolvedKeyTimes = keyframes.keyTimes ?? Self.evenKeyTimes(n)
        }
        let keyTimeStart = internKeyTimes(resolvedKeyTimes)
        var functionStart = -1
        if keyframes.calculationMode != .paced, let functions = keyframes.timingFunctions, !functions.isEmpty {
            functionStart = internTimingFunctions(functions)
        }
        var decompositionStart = -1
        if keyPath.isWholeTransform {
            decompositionStart = keyframeDecompositions.count
            for j in 0..<n {
                keyframeDecompositions.append(Self.transform(in: keyframeValues, at: valueStart + j * 16).decomposed())
            }
        }
        keyframeSets.append(
            KeyframeSet(
                count: n, valueStart: valueStart, keyTimeStart: keyTimeStart,
                keyTimeCount: resolvedKeyTimes.count, functionStart: functionStart,
                mode: keyframes.calculationMode, decompositionStart: decompositionStart))
    }

    /// `kt[j] = j / (n − 1)` (`[0]` for one value).
    static func evenKeyTimes(_ n: Int) -> [Double] {
        n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
    }

    /// Paced key times: cumulative distances between the values over the total; evenly
    /// spaced when every value is the same.
    private func pacedKeyTimes(valueStart: Int, count n: Int) -> [Double] {
        var lengths = [0.0]
        for j in 1..<Swift.max(n, 1) {
            let a = valueStart + (j - 1) * 4
            let b = valueStart + j * 4
            var sum = 0.0
            for c in 0..<4 {
                let d = keyframeValues[b + c] - keyframeValues[a + c]
                sum = sum + d * d
            }
            lengths.append(lengths[j - 1] + sqrt(sum))
        }
        let total = lengths[n - 1]
        return total == 0 ? Self.evenKeyTimes(n) : lengths.map { $0 / total }
    }

    @inline(__always)
    func keyframeValue(_ set: KeyframeSet, _ j: Int) -> SIMD4<Double> {
        let start = set.valueStart + j * 4
        return SIMD4(
            keyframeValues[start], keyframeValues[start + 1], keyframeValues[start + 2], keyframeValues[start + 3])
    }

    /// The segment `i` and its progress σ at `u` (linear and cubic; section 6): the last
    /// key time at or before u, the segment's timing function applied.
    func keyframeSegment(_ set: KeyframeSet, _ u: Double) -> (index: Int, progress: Double) {
        var (i, sigma) = keyframeSegmentBeforeFunction(set, u)
        if set.functionStart >= 0 { sigma = Double(timingFunctions[set.functionStart + i].value(at: sigma)) }
        return (i, sigma)
    }

    /// `keyframeSegment` without the segment's timing function: the timing pass solves
    /// it in its lanes.
    @inline(__always)
    func keyframeSegmentBeforeFunction(_ set: KeyframeSet, _ u: Double) -> (index: Int, progress: Double) {
        Self.segment(set, u) { keyTimes[$0] }
    }

    /// `keyframeSegmentBeforeFunction` with the key times read by `keyTime` (an index into
    /// `keyTimes`): the lanes read them raw.
    @inline(__always)
    static func segment(_ set: KeyframeSet, _ u: Double, keyTime: (Int) -> Double) -> (index: Int, progress: Double) {
        let kt = set.keyTimeStart
        var i = 0
        var j = set.count - 2
        while j > 0 {
            if keyTime(kt + j) <= u {
                i = j
                break
            }
            j -= 1
        }
        let w = keyTime(kt + i + 1) - keyTime(kt + i)
        return (i, w == 0 ? 1 : (u - keyTime(kt + i)) / w)
    }

    /// The index shown by a discrete animation at `u`: the last of the n key times at or
    /// before u (0 if none).
    func discreteIndex(_ set: KeyframeSet, _ u: Double) -> Int {
        var j = set.count - 1
        while j > 0 {
            if keyTimes[set.keyTimeStart + j] <= u { return j }
            j -= 1
        }
        return 0
    }

    /// The value of a vector (or value-function number) keyframe animation at progress u,
    /// before cumulative and additive; with `segment` ≥ 0, u is that segment's σ (the
    /// timing pass found it). O(n) for the segment search.
    func keyframeVector(_ set: KeyframeSet, _ u: Double, segment: Int32) -> SIMD4<Double> {
        if set.count == 1 { return keyframeValue(set, 0) }
        if set.mode == .discrete { return keyframeValue(set, discreteIndex(set, u)) }
        let (i, sigma) = segment >= 0 ? (Int(segment), u) : keyframeSegment(set, u)
        let a = keyframeValue(set, i)
        let b = keyframeValue(set, i + 1)
        if set.mode != .cubic { return a + (b - a) * sigma }
        let s2 = sigma * sigma
        let s3 = s2 * sigma
        let h00 = (2 * s3 - 3 * s2) + 1
        let h10 = (s3 - 2 * s2) + sigma
        let h01 = 3 * s2 - 2 * s3
        let h11 = s3 - s2
        let out = outTangent(set, i)
        let into = inTangent(set, i + 1)
        return ((h00 * a + h10 * out) + h01 * b) + h11 * into
    }

    private func delta(_ set: KeyframeSet, _ j: Int) -> Double {
        keyTimes[set.keyTimeStart + j + 1] - keyTimes[set.keyTimeStart + j]
    }

    /// The Catmull-Rom half-difference `c_j` of an interior value.
    private func centralDifference(_ set: KeyframeSet, _ j: Int) -> SIMD4<Double> {
        (keyframeValue(set, j + 1) - keyframeValue(set, j - 1)) * 0.5
    }

    /// `out_j`: one-sided at the first value, else scaled for unequal intervals.
    private func outTangent(_ set: KeyframeSet, _ j: Int) -> SIMD4<Double> {
        if j == 0 { return keyframeValue(set, 1) - keyframeValue(set, 0) }
        let (before, after) = (delta(set, j - 1), delta(set, j))
        return centralDifference(set, j) * ((2 * after) / (before + after))
    }

    /// `in_j`: one-sided at the last value, else scaled for unequal intervals.
    private func inTangent(_ set: KeyframeSet, _ j: Int) -> SIMD4<Double> {
        if j == set.count - 1 { return keyframeValue(set, j) - keyframeValue(set, j - 1) }
        let (before, after) = (delta(set, j - 1), delta(set, j))
        return centralDifference(set, j) * ((2 * before) / (before + after))
    }

    /// The value of a whole-transform keyframe animation (linear or discrete) at u (σ of
    /// `segment` when that is ≥ 0, as `keyframeVector`).
    func keyframeTransform(_ set: KeyframeSet, _ u: Double, segment: Int32) -> Transform3D {
        func matrix(_ j: Int) -> Transform3D { Self.transform(in: keyframeValues, at: set.valueStart + j * 16) }
        if set.count == 1 { return matrix(0) }
        if set.mode == .discrete { return matrix(discreteIndex(set, u)) }
        let (i, sigma) = segment >= 0 ? (Int(segment), u) : keyframeSegment(set, u)
        // `matrix(i).interpolated(to: matrix(i + 1), fraction: sigma)` with the values'
        // decompositions made when the animation was added.
        let d = set.decompositionStart
        if sigma == 0 || sigma == 1 { return matrix(sigma == 0 ? i : i + 1) }
        guard let a = keyframeDecompositions[d + i], let b = keyframeDecompositions[d + i + 1] else {
            return matrix(sigma < 0.5 ? i : i + 1)
        }
        return Transform3D(interpolating: a, b, fraction: sigma)
    }
}
