// The animations of a layer store, kept beside it in columns (struct of arrays) by
// animation number, with a dense table per curve (timing functions, springs, keyframe
// sets and values) and what does not depend on time resolved when an animation is added
// (ends, transform decompositions), so that a sample is two loops over plain arrays in
// the order added (or, in the steady state, per-group loops over lane columns and those
// two loops over the rest: AnimationLanes.swift). The model store is only read. Sampling:
// AnimationStore+Sampling.swift; composition: AnimationComposition.swift; keyframes:
// KeyframeInterpolation.swift.

/// One animation at the latest sample: whether it shows, and if so its progress f and
/// completed iterations k (one array: the composition loop reads them together).
struct SampledState: Sendable {
    var progress = 0.0
    var iteration = 0.0
    var isShowing = false
    /// A keyframe animation whose segment the timing pass found (so that the segment's
    /// timing function is solved in the pass's lanes): the segment, and `progress` is
    /// its σ with the function applied. −1: `progress` is f itself.
    var segment: Int32 = -1
}

/// Which curve an animation's progress comes from.
enum AnimationCurveKind: UInt8, Sendable {
    case basic, spring, keyframe
    /// A scroll view's deceleration (DecelerationAnimation.swift).
    case deceleration
}

/// Timing-function solves waiting to be made eight at a time: lane k holds animation
/// `animations[k]`'s input `inputs[k]` to function `functions[k]`, for k < `count`. Fixed
/// lanes, not arrays: queueing is a few stores, with no uniqueness or capacity checks.
struct SolveQueue: Sendable {
    var inputs = SIMD8<Double>(repeating: 0)
    var animations = SIMD8<Int32>(repeating: 0)
    var functions = SIMD8<Int32>(repeating: 0)
    var count = 0
}

/// Per-animation flags.
struct AnimationFlags: OptionSet, Sendable {
    let rawValue: UInt8
    static let additive = AnimationFlags(rawValue: 1)
    static let cumulative = AnimationFlags(rawValue: 2)
    static let hasFrom = AnimationFlags(rawValue: 4)
    static let hasTo = AnimationFlags(rawValue: 8)
    static let hasBy = AnimationFlags(rawValue: 16)
    /// Left the store (removed on completion, removed by the caller, or its layer died).
    static let removed = AnimationFlags(rawValue: 32)
    /// Has been after its end at some sample.
    static let finished = AnimationFlags(rawValue: 64)
    /// Was once not showing inside its active duration at a sample that went through the
    /// lanes: sampled by the general loops from then on (AnimationLanes.swift).
    static let laneless = AnimationFlags(rawValue: 128)
}

/// One keyframe animation's arrays: `count` values of `AnimationStore.valueWidth(_:)`
/// doubles from `valueStart` in `keyframeValues`, the resolved key times from `keyTimeStart` (n, or n + 1 for
/// discrete), the segment timing functions from `functionStart` (−1: none).
struct KeyframeSet: Sendable {
    var count: Int
    var valueStart: Int
    var keyTimeStart: Int
    var keyTimeCount: Int
    var functionStart: Int
    var mode: CalculationMode
    /// Whole transforms: the values' decompositions in `keyframeDecompositions`; else −1.
    var decompositionStart = -1
}

/// The animations added to the layers of one `LayerStore`, and their sampling
/// (docs/ANIMATION.md sections 2-10).
///
/// The store lives beside the layer store, not inside it: the model tree stays exactly
/// what it was (sampling reads it, never writes it), the layer store's copies, caches and
/// invariants do not grow, and a host that has no animations pays nothing. An animation
/// names its layer by handle; one whose layer is destroyed leaves at the next sample.
///
/// An animation's identity is the `Int` that `add(_:to:in:)` returns: animations are
/// numbered 0, 1, 2, … in the order added, that order is the stack order of section 9,
/// and `finished` lists these numbers. Numbers are never reused.
///
/// Storage is by column, with a table per curve (timing functions, springs, keyframes)
/// and the ends that do not depend on time resolved when an animation is added, so a
/// sample is a timing loop (phase and progress) and a composition loop over the live
/// animations in the order added: O(live animations) per sample, never O(layers), and
/// no allocation once warm.
public struct AnimationStore: Sendable {
    // Per animation, by number.
    var layerSlots: [Int32] = []
    /// Per animation: its layer handle's stamp (store tag and generation).
    var layerStamps: [UInt32] = []
    var keyPaths: [AnimationKeyPath] = []
    var curveKinds: [AnimationCurveKind] = []
    var flags: [AnimationFlags] = []
    var timings: [ResolvedTiming] = []
    /// Index into `timingFunctions`, or −1 for none (progress = time).
    var timingFunctionIndices: [Int32] = []
    /// Index into `springs` or `keyframeSets` by curve kind; −1 for basic.
    var curveIndices: [Int32] = []
    /// Basic and spring: from, to, by, each `valueWidth` doubles, at this start in `values`.
    var valueStarts: [Int] = []
    var values: [Double] = []
    /// Keyframe values, `KeyframeSet.valueStart` on: a table of their own, so the
    /// keyframe animations' reads are dense (in `values`, between the other animations'
    /// ends, every one was a cache miss).
    var keyframeValues: [Double] = []
    /// Basic and spring: where the ends resolved when the animation was added are, or −1
    /// when an end is the value underneath (read at each sample). A vector or value
    /// function indexes `resolvedVectors` (start, then end − start); a whole transform
    /// indexes `resolvedTransforms` and `resolvedDecompositions` (from, then to: a whole
    /// transform's ends, constant, with their decompositions made once). Precomputed with
    /// the sample's own operations, so
    /// the bits are the same.
    var resolvedEndIndices: [Int32] = []
    var resolvedVectors: [SIMD4<Double>] = []
    var resolvedTransforms: [Transform3D] = []
    var resolvedDecompositions: [DecomposedTransform?] = []
    /// Per pair in `resolvedTransforms` (index / 2), the slerp's constants between the
    /// two decompositions (angle, its sine: an `acos` per sample saved).
    var resolvedSlerps: [PreparedSlerp] = []
    /// The decomposition of every whole-transform keyframe value (nil: none), from
    /// `KeyframeSet.decompositionStart`.
    var keyframeDecompositions: [DecomposedTransform?] = []

    // Curves, shared tables. Timing functions and key times are interned: apps use a
    // handful of distinct ones, so the tables stay in cache however many animations
    // share them (a table entry per animation cost a cache miss per sample).
    var timingFunctions: [TimingFunction] = []
    /// `timingFunctions`' coefficients, six a function (`TimingFunction.coefficients`):
    /// the C solve's table (`TimingFunction.solveEight`).
    var timingCoefficients: [Double] = []
    /// Where each run of timing functions (one, or a keyframe animation's segments)
    /// already is in `timingFunctions`, by the control points' bits (which determine
    /// the function: a named one has its exact points, a custom one near them is it).
    var timingFunctionRuns: [[UInt32]: Int] = [:]
    /// Per timing function, the input (bits) and value of its latest solve in a timing
    /// pass: animations that start together with the same duration share u, and solve
    /// once (a NaN that `value(at:)` never sees, and its NaN, until the first solve).
    var lastSolvedInputs: [UInt64] = []
    var lastSolvedValues: [Float] = []
    /// Up to eight solves of the timing pass that wait for an eighth, made together in
    /// SIMD lanes (`TimingFunction.values`, the same bits as one at a time).
    var solveQueue = SolveQueue()
    /// Where each run of resolved key times (by bit pattern) already is in `keyTimes`.
    var keyTimeRuns: [[UInt64]: Int] = [:]
    var springs: [Spring] = []
    /// `springs`' coefficients, eight a spring (`Spring.kernelCoefficients`): the C spring
    /// lanes' table (`BGSpringProgress`).
    var springCoefficients: [Double] = []
    var keyframeSets: [KeyframeSet] = []
    var keyTimes: [Double] = []
    /// Decelerations of contentOffset (`addDeceleration`), by curve index.
    var decelerations: [ScrollDeceleration] = []

    // Live animations, in the order added.
    var live: [Int32] = []
    /// Counts the changes of `live` (an animation added or left), so the lanes know
    /// when they are out of date.
    var liveVersion: UInt64 = 0
    /// `liveVersion` at the end of the latest sample: the lanes are made only for a live
    /// list that stayed the same across a sample (a host adding every frame never pays
    /// for them).
    var sampledVersion: UInt64?
    /// The lane groups (AnimationLanes.swift).
    var lanes = AnimationLanes()

    /// Layer timings that are not the default, by slot, with the handle stamp (store tag and
    /// generation, `LayerHandle`) they were set for.
    var layerTimings: [Int32: (stamp: UInt32, timing: LayerTiming)] = [:]

    // Per-sample scratch, by animation number.
    var states: [SampledState] = []
    var timingChain: [LayerTiming] = []
    var lastSampleTime = -Double.infinity
    /// The model's structure version (`LayerHierarchy.structureVersion`, unique to one
    /// store's structure) at the latest sample that checked every live animation's layer;
    /// nil after an `add`. While the model's version is still this one no layer died, so
    /// the timing pass skips the per-animation liveness check.
    var verifiedStructure: UInt64?

    /// The culled sample's tables and scratch (AnimationStore+Culling.swift,
    /// AnimationStore+CullTables.swift).
    var cull = AnimationCull()

    /// How many live animations the latest `sample(at:model:into:culledTo:)` culled
    /// (not sampled; their ends are still kept); 0 after a sample that sampled every one.
    public internal(set) var lastCulledCount = 0

    /// The numbers of the animations that have finished (been after their end) at the
    /// latest sample or an earlier one, ascending (section 2.3). Read it after each sample.
    public internal(set) var finished: [Int] = []

    /// An empty store.
    public init() {}

    /// How many animations have been added (live or not).
    public var count: Int { keyPaths.count }

    /// How many animations are still in the store (not removed).
    public var liveCount: Int { live.count }

    /// Whether animation `number` is still in the store. O(1).
    public func contains(_ number: Int) -> Bool {
        number >= 0 && number < count && !flags[number].contains(.removed)
    }

    /// The doubles one stored value takes: 16 for a whole transform, else 4 (SIMD4 lanes).
    static func valueWidth(_ keyPath: AnimationKeyPath) -> Int { keyPath.isWholeTransform ? 16 : 4 }

    /// Appends a value (already checked) padded or embedded to its stored width to `table`.
    static func appendValue(_ value: [Double]?, keyPath: AnimationKeyPath, to table: inout [Double]) {
        let width = Self.valueWidth(keyPath)
        guard let value else {
            table.append(contentsOf: repeatElement(0, count: width))
            return
        }
        if keyPath.isWholeTransform && value.count == 6 {
            let affine = AffineTransform(
                a: value[0], b: value[1], c: value[2], d: value[3], tx: value[4], ty: value[5])
            table.append(contentsOf: Transform3D(affine).rowMajor)
        } else {
            table.append(contentsOf: value)
            table.append(contentsOf: repeatElement(0, count: width - value.count))
        }
    }
}

extension AnimationStore {
    /// Adds `animation` to `layer` of `model` on top of the layer's stack and returns its
    /// number. O(values) amortized; the store's arrays grow.
    ///
    /// - Throws: `AnimationError` for a stale layer handle or a malformed animation
    ///   (`Animation.problem()`); nothing is added then.
    @discardableResult
    public mutating func add(
        _ animation: Animation, to layer: LayerHandle, in model: borrowing LayerStore
    ) throws(AnimationError) -> Int {
        guard model.contains(layer) else {
            throw AnimationError(field: "layer", message: "\(layer) names no live layer")
        }
        if let problem = animation.problem() { throw problem }
        let timingFunction = appendTimingFunction(animation.timingFunction)
        let valueStart = values.count
        var flags: AnimationFlags = []
        if animation.isAdditive { flags.insert(.additive) }
        if animation.isCumulative { flags.insert(.cumulative) }
        let kind: AnimationCurveKind
        let curveIndex: Int32
        switch animation.content {
        case .basic(let from, let to, let by):
            kind = .basic
            flags.formUnion(appendEnds(from, to, by, keyPath: animation.keyPath))
            curveIndex = -1
        case .spring(let spring, let from, let to, let by):
            kind = .spring
            flags.formUnion(appendEnds(from, to, by, keyPath: animation.keyPath))
            curveIndex = Int32(springs.count)
            springs.append(spring)
            // A homogeneous tuple is laid out as its elements in order: no temporary array.
            withUnsafePointer(to: spring.kernelCoefficients) { tuple in
                tuple.withMemoryRebound(to: Double.self, capacity: 8) {
                    springCoefficients.append(contentsOf: UnsafeBufferPointer(start: $0, count: 8))
                }
            }
        case .keyframe(let keyframes):
            kind = .keyframe
            curveIndex = Int32(keyframeSets.count)
            appendKeyframes(keyframes, keyPath: animation.keyPath)
        }
        let number = appendColumns(
            layer: layer, keyPath: animation.keyPath, timing: ResolvedTiming(animation.timing),
            timingFunction: timingFunction, valueStart: valueStart, kind: kind,
            curveIndex: curveIndex, flags: flags)
        if kind != .keyframe {
            resolvedEndIndices[number] = resolveEnds(number, keyPath: animation.keyPath, flags: flags)
        }
        return number
    }

    /// Appends a new animation's per-animation columns (ends not resolved: −1) and makes it
    /// live; returns its number. The one place that lists the columns, so that every kind
    /// of animation (`add`, `addDeceleration`) keeps them aligned.
    mutating func appendColumns(
        layer: LayerHandle, keyPath: AnimationKeyPath, timing: ResolvedTiming, timingFunction: Int32,
        valueStart: Int, kind: AnimationCurveKind, curveIndex: Int32, flags: AnimationFlags
    ) -> Int {
        let number = count
        layerSlots.append(Int32(layer.index))
        layerStamps.append(layer.stamp)
        keyPaths.append(keyPath)
        timings.append(timing)
        timingFunctionIndices.append(timingFunction)
        valueStarts.append(valueStart)
        curveIndices.append(curveIndex)
        curveKinds.append(kind)
        self.flags.append(flags)
        resolvedEndIndices.append(-1)
        live.append(Int32(number))
        liveVersion &+= 1
        states.append(SampledState())
        // Its layer was checked against the model `add` was given, which may not be the
        // one the next sample gets.
        verifiedStructure = nil
        return number
    }

    /// Removes animation `number` from its layer's stack (`removeAnimation(forKey:)`): it
    /// contributes nothing from the next sample on. O(live animations); removing one
    /// that is already removed does nothing.
    ///
    /// - Throws: `AnimationError` when `number` was never returned by `add`.
    public mutating func remove(_ number: Int) throws(AnimationError) {
        guard number >= 0 && number < count else {
            throw AnimationError(field: "animation", message: "\(number) is out of range (\(count) animations)")
        }
        guard !flags[number].contains(.removed) else { return }
        flags[number].insert(.removed)
        compactLiveLists()
    }

    /// Sets `layer`'s own timing (section 2.1), which maps its superlayer's time to the
    /// time its animations and its sublayers' run in. O(1).
    ///
    /// - Throws: `AnimationError` for a stale handle or a non-finite number; nothing
    ///   changes then.
    public mutating func setTiming(
        _ timing: LayerTiming, of layer: LayerHandle, in model: borrowing LayerStore
    ) throws(AnimationError) {
        guard model.contains(layer) else {
            throw AnimationError(field: "layer", message: "\(layer) names no live layer")
        }
        for (field, value) in [
            ("beginTime", timing.beginTime), ("speed", timing.speed), ("timeOffset", timing.timeOffset),
        ]
        where !value.isFinite {
            throw AnimationError(field: field, message: "expected a finite number, got \(shownNumber(value))")
        }
        if timing == .default {
            layerTimings[Int32(layer.index)] = nil
        } else {
            layerTimings[Int32(layer.index)] = (layer.stamp, timing)
        }
    }

    /// Drops removed animations from the live list, keeping its order. O(live).
    mutating func compactLiveLists() {
        let flags = self.flags
        live.removeAll { flags[Int($0)].contains(.removed) }
        // Only removals: the culled sample's tables still hold (they skip what left).
        let keepsCullTables = cull.liveVersion == liveVersion
        liveVersion &+= 1
        if keepsCullTables { cull.liveVersion = liveVersion }
    }

    /// Resolves the ends of basic or spring animation `number` when none is the value
    /// underneath (both given; one given with `by`; or additive, where a missing end is
    /// the identity) and returns their index, else −1. The same operations as `ends` and
    /// `animatedVector`/`animatedTransform` at a sample, so the same bits.
    private mutating func resolveEnds(_ number: Int, keyPath: AnimationKeyPath, flags: AnimationFlags) -> Int32 {
        let additive = flags.contains(.additive) || keyPath.isValueFunction
        let start = valueStarts[number]
        if keyPath.isWholeTransform {
            guard additive || (flags.contains(.hasFrom) && flags.contains(.hasTo)) else { return -1 }
            let from = flags.contains(.hasFrom) ? storedTransform(at: start) : .identity
            let to = flags.contains(.hasTo) ? storedTransform(at: start + 16) : .identity
            resolvedTransforms.append(contentsOf: [from, to])
            let (a, b) = (from.decomposed(), to.decomposed())
            resolvedDecompositions.append(contentsOf: [a, b])
            let identity = SIMD4<Double>(0, 0, 0, 1)
            resolvedSlerps.append(PreparedSlerp(a?.quaternion ?? identity, b?.quaternion ?? identity))
            return Int32(resolvedTransforms.count - 2)
        }
        let given = [flags.contains(.hasFrom), flags.contains(.hasTo), flags.contains(.hasBy)].filter { $0 }.count
        guard additive || given >= 2 else { return -1 }
        let base = keyPath.isValueFunction ? SIMD4(repeating: keyPath.valueFunctionIdentity) : SIMD4(repeating: 0)
        let (s, e) = ends(number, base: base)
        resolvedVectors.append(s)
        resolvedVectors.append(e - s)
        return Int32(resolvedVectors.count - 2)
    }

    private mutating func appendTimingFunction(_ function: TimingFunction?) -> Int32 {
        guard let function else { return -1 }
        return Int32(internTimingFunctions([function]))
    }

    /// The start of `functions` in `timingFunctions`, appended unless already there as
    /// a run. O(functions) amortized.
    mutating func internTimingFunctions(_ functions: [TimingFunction]) -> Int {
        let bits = functions.flatMap { [$0.x1.bitPattern, $0.y1.bitPattern, $0.x2.bitPattern, $0.y2.bitPattern] }
        if let start = timingFunctionRuns[bits] { return start }
        let start = timingFunctions.count
        timingFunctions.append(contentsOf: functions)
        for function in functions {
            let c = function.coefficients
            timingCoefficients.append(contentsOf: [c.0, c.1, c.2, c.3, c.4, c.5])
        }
        timingFunctionRuns[bits] = start
        lastSolvedInputs.append(contentsOf: repeatElement(Self.unsolved, count: functions.count))
        lastSolvedValues.append(contentsOf: repeatElement(.nan, count: functions.count))
        return start
    }

    /// `lastSolvedInputs` before a function's first solve: a NaN's bits (u is finite).
    static let unsolved: UInt64 = 0x7FF0_0000_0000_0DEF

    /// The start of `times` in `keyTimes`, appended unless already there as a run (the
    /// same bits). O(times) amortized.
    mutating func internKeyTimes(_ times: [Double]) -> Int {
        let bits = times.map(\.bitPattern)
        if let start = keyTimeRuns[bits] { return start }
        let start = keyTimes.count
        keyTimes.append(contentsOf: times)
        keyTimeRuns[bits] = start
        return start
    }

    private mutating func appendEnds(
        _ from: [Double]?, _ to: [Double]?, _ by: [Double]?, keyPath: AnimationKeyPath
    ) -> AnimationFlags {
        Self.appendValue(from, keyPath: keyPath, to: &values)
        Self.appendValue(to, keyPath: keyPath, to: &values)
        Self.appendValue(by, keyPath: keyPath, to: &values)
        var flags: AnimationFlags = []
        if from != nil { flags.insert(.hasFrom) }
        if to != nil { flags.insert(.hasTo) }
        if by != nil { flags.insert(.hasBy) }
        return flags
    }
}
