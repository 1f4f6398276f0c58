// Lanes (docs/ANIMATION.md section 10, "Lanes"): the basic and spring animations whose
// ends were resolved at `add`, on a whole vector property, or a value function or whole
// transform that is not additive, each the only live animation of its layer, grouped by
// curve and key path into columns of their own and sampled one group at a time: a timing
// loop (phase and progress, timing functions solved eight at a time) and a loop that
// writes each value straight into its layer's cell, at an entry fixed when the lanes were
// made (the order the general loop would give when every animation shows). The rest —
// stacks, keyframes, additive transforms and value functions, decelerations, partial key
// paths, animations that were ever silent or after their end at a sample — is sampled by
// the general loops, in the order added. The same operations in the same order as the
// general path, so the same bits.

import CAffineKernels

/// How a lane group's progress is made (section 2.5).
enum LaneCurve: UInt8, Sendable {
    /// A basic animation without a timing function: f = u.
    case linear
    /// A basic animation with a timing function (`LaneGroup.curves` indexes `timingFunctions`).
    case timingFunction
    /// A spring (`LaneGroup.curves` indexes `springs`).
    case spring
    /// A linear or paced keyframe animation without segment timing functions
    /// (`LaneGroup.curves` indexes `keyframeSets`): each sample σ goes into `progress`,
    /// and its segment's ends into `starts` and `deltas` when the segment changed.
    case keyframe
    /// `keyframe` with segment timing functions: σ solved by the segment's function.
    case keyframeFunctions

    var isKeyframe: Bool { self == .keyframe || self == .keyframeFunctions }
}

/// One lane group: the lane animations of one curve, key path and flags, by member
/// (ascending animation number). Columns of their own, so a group's loop reads memory
/// in order however the kinds interleave in the order added.
struct LaneGroup: Sendable {
    let curve: LaneCurve
    let keyPath: AnimationKeyPath
    let additive: Bool
    let cumulative: Bool
    var numbers: [Int32] = []
    var slots: [Int32] = []
    /// Each member's entry in the presentation values (fixed by `makeLanes`).
    var entries: [Int32] = []
    var timings: [ResolvedTiming] = []
    /// `timings` as the C timing loop's columns (`LaneTimingColumns`): begin time, speed,
    /// time offset, iteration, active duration, duration, 1 when autoreversing (else 0).
    var beginTimes: [Double] = []
    var speeds: [Double] = []
    var timeOffsets: [Double] = []
    var iterationLengths: [Double] = []
    var activeDurations: [Double] = []
    var durations: [Double] = []
    var autoreverses: [Double] = []
    /// Index into `timingFunctions` or `springs` by `curve`; unused for linear.
    var curves: [Int32] = []
    /// Where the resolved ends are (`resolvedEndIndices`); a whole transform's are read
    /// there, a vector's are copied into `starts` and `deltas`.
    var ends: [Int32] = []
    /// A vector's resolved ends: start and end − start (`resolvedVectors`' pair); a
    /// keyframe animation's current segment's ends (the values a and b − a). Empty
    /// for a whole transform.
    var starts: [SIMD4<Double>] = []
    var deltas: [SIMD4<Double>] = []
    /// A whole transform's interpolation between its resolved ends (`TransformMix`).
    var transformMixes: [TransformMix] = []
    /// `transformMixes` as the C write's columns (`BGTransformLanes`), members in blocks
    /// of four, lane by lane: the thirteen numbers' starts and deltas (104 doubles a
    /// block), the rotation at each sample (16 a block: x, y, z, w; written by the slerp
    /// kernel), and 1 where both ends decompose; the slerp's numbers (`BGSlerpLanes`, 44
    /// a block: the start quaternion, the far end, θ, sin θ, 1 where it returns its start).
    var transformNumbers: [Double] = []
    var rotations: [Double] = []
    var slerpNumbers: [Double] = []
    var decomposables: [UInt8] = []
    /// Per-sample scratch: progress f (a keyframe animation's σ) and iteration k.
    var progress: [Double] = []
    var iterations: [Double] = []
    /// A keyframe group's: the segment of the latest sample (−1 before the first), and its
    /// timing function's index in `timingFunctions` (with `starts` and `deltas`, kept
    /// while the segment stays).
    var segments: [Int32] = []
    var segmentFunctions: [Int32] = []
    /// A keyframe group's sets as the C segment loop reads them (`BGKeyframeLanes.sets`):
    /// key time start, last segment (values − 2), value start, function start (−1: none).
    var keyframeRefs: [SIMD4<Int32>] = []

    init(curve: LaneCurve, keyPath: AnimationKeyPath, additive: Bool, cumulative: Bool) {
        (self.curve, self.keyPath, self.additive, self.cumulative) = (curve, keyPath, additive, cumulative)
    }

    var count: Int { numbers.count }

    /// Appends a member's timing to `timings` and the columns.
    mutating func appendTiming(_ timing: ResolvedTiming) {
        timings.append(timing)
        beginTimes.append(timing.beginTime)
        speeds.append(timing.speed)
        timeOffsets.append(timing.timeOffset)
        iterationLengths.append(timing.iteration)
        activeDurations.append(timing.active)
        durations.append(timing.duration)
        autoreverses.append(timing.autoreverses ? 1 : 0)
    }

    /// Appends a whole-transform member's mix to `transformMixes` and the C write's
    /// columns (a new block of four zeroed when the member starts one).
    mutating func appendTransformMix(_ mix: TransformMix) {
        let (m, lane) = (transformMixes.count, transformMixes.count % 4)
        transformMixes.append(mix)
        if lane == 0 {
            transformNumbers.append(contentsOf: repeatElement(0, count: 104))
            rotations.append(contentsOf: repeatElement(0, count: 16))
            slerpNumbers.append(contentsOf: repeatElement(0, count: 44))
        }
        let block = 104 * (m / 4)
        for j in 0..<13 {
            transformNumbers[block + 4 * j + lane] = mix.start[j]
            transformNumbers[block + 4 * (13 + j) + lane] = mix.delta[j]
        }
        let (slerp, at) = (mix.slerp, 44 * (m / 4) + lane)
        for j in 0..<4 {
            slerpNumbers[at + 4 * j] = mix.quaternion[j]
            slerpNumbers[at + 4 * (4 + j)] = slerp.b[j]
        }
        slerpNumbers[at + 32] = slerp.theta
        slerpNumbers[at + 36] = slerp.sinTheta
        slerpNumbers[at + 40] = slerp.returnsStart ? 1 : 0
        decomposables.append(mix.decomposable ? 1 : 0)
    }

    /// A whole-transform group's rotations at this sample (`TransformMix.rotation(at:)`,
    /// the slerp's two sines, at each member's `progress`) into `rotations`, by the C
    /// kernel (`BGSlerpLanes`: four members a vector, the package's sine, its bits).
    /// Members at f = 0 or 1, or with an end that has no decomposition, get one too,
    /// unused. O(count).
    mutating func slerpRotations() {
        guard count > 0 else { return }
        let (count, progress, slerp) = (count, progress, slerpNumbers)
        withRawColumn(&rotations) { rotations in
            withRawColumns(reading: slerp, progress) { slerp, f in
                BGSlerpLanes(slerp.base, f.base, rotations.base, count)
            }
        }
    }

    /// Writes each member's matrix at its entry of `out` (`BGTransformLanesWrite`, the
    /// selected C backend): the resolved end (`endMatrices[ends[m]]` or the next) at
    /// f = 0 or 1 or when an end has no decomposition, else `TransformMix.matrix(at:
    /// rotation:)` with the rotation `slerpRotations` made: its bits. O(count).
    func writeTransforms(endMatrices: [Transform3D], into out: RawColumn<Transform3D>) {
        guard count > 0 else { return }
        withRawColumns(reading: transformNumbers, rotations) { mix, rotation in
            withRawColumns(reading: ends, entries) { ends, entries in
                withRawColumn(reading: progress) { progress in
                    withRawColumn(reading: decomposables) { decomposable in
                        withRawColumn(reading: endMatrices) { matrices in
                            let lanes = BGTransformLanes(
                                mix: mix.base, rotation: rotation.base, progress: progress.base,
                                decomposable: decomposable.base, ends: ends.base, endMatrices: matrices.elements.base,
                                entries: entries.base, out: out.elements.base)
                            withRawValue(lanes) { BGTransformLanesWrite($0, count) }
                        }
                    }
                }
            }
        }
    }

    /// Forgets the members, keeping the capacity (a rebuild allocates nothing it had).
    mutating func removeMembers() {
        numbers.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        timings.removeAll(keepingCapacity: true)
        beginTimes.removeAll(keepingCapacity: true)
        speeds.removeAll(keepingCapacity: true)
        timeOffsets.removeAll(keepingCapacity: true)
        iterationLengths.removeAll(keepingCapacity: true)
        activeDurations.removeAll(keepingCapacity: true)
        durations.removeAll(keepingCapacity: true)
        autoreverses.removeAll(keepingCapacity: true)
        curves.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        deltas.removeAll(keepingCapacity: true)
        transformMixes.removeAll(keepingCapacity: true)
        transformNumbers.removeAll(keepingCapacity: true)
        rotations.removeAll(keepingCapacity: true)
        slerpNumbers.removeAll(keepingCapacity: true)
        decomposables.removeAll(keepingCapacity: true)
        progress.removeAll(keepingCapacity: true)
        iterations.removeAll(keepingCapacity: true)
        segments.removeAll(keepingCapacity: true)
        segmentFunctions.removeAll(keepingCapacity: true)
        keyframeRefs.removeAll(keepingCapacity: true)
    }
}

/// A group's timing columns, held (copies of the arrays) so that the C loop can read
/// them while the group's progress and iteration columns are open for writing.
struct LaneTimingColumns {
    let begin: [Double], speed: [Double], offset: [Double], iteration: [Double]
    let active: [Double], duration: [Double], autoreverses: [Double]

    init(_ g: LaneGroup) {
        (begin, speed, offset, iteration) = (g.beginTimes, g.speeds, g.timeOffsets, g.iterationLengths)
        (active, duration, autoreverses) = (g.activeDurations, g.durations, g.autoreverses)
    }

    /// `body` with the columns' addresses as `BGLaneTimings` (none empty).
    @inline(__always)
    func withColumns<R>(_ body: (BGLaneTimings) -> R) -> R {
        withRawColumns(reading: begin, speed, offset, iteration) { b, s, o, i in
            withRawColumns(reading: active, duration) { a, d in
                withRawColumn(reading: autoreverses) { r in
                    body(
                        BGLaneTimings(
                            beginTime: b.base, speed: s.base, timeOffset: o.base, iteration: i.base, active: a.base,
                            duration: d.base, autoreverses: r.base))
                }
            }
        }
    }
}

/// The lane groups and what the general loops sample beside them, made for one version
/// of the live list (`AnimationStore.liveVersion`).
struct AnimationLanes: Sendable {
    /// The live list's version the lanes were made for; nil: none (or out of date).
    var version: UInt64?
    var groups: [LaneGroup] = []
    /// The live animations not in a lane, in the order added.
    var rest: [Int32] = []
    /// The entries of `rest`'s layers (each layer once).
    var restEntries: [Int32] = []
    /// The entries of one sample when every animation shows: one per animated layer.
    var entryCount = 0
    /// A number no other lanes have (`BGNextStructureVersion`, taken by `makeLanes`; 0:
    /// none): the presentation values the composition wrote through these lanes carry it
    /// (`PresentationValues.laneLayout`) and keep the entries below from sample to sample.
    var layout: UInt64 = 0
    /// By entry: the layer's slot, and what the lanes write on it (the lane member's
    /// property; empty for the rest's layers) — the presentation's `layers` and
    /// `touched` before the rest is composed.
    var entrySlots: [Int] = []
    var entryProperties: [PresentationProperties] = []
    /// Scratch for `makeLanes`, by layer slot: live animations, entry (−1: none yet).
    var slotCounts: [Int32] = []
    var slotEntries: [Int32] = []
}

extension AnimationStore {
    /// The lane curve of live animation `i`, or nil when it stays on the general path.
    func laneCurve(_ i: Int) -> LaneCurve? {
        let has = flags[i]
        guard !has.contains(.laneless) else { return nil }
        let keyPath = keyPaths[i]
        if curveKinds[i] == .keyframe { return keyframeLaneCurve(i, keyPath: keyPath) }
        guard resolvedEndIndices[i] >= 0 else { return nil }
        if keyPath.isValueFunction || keyPath.isWholeTransform {
            guard !has.contains(.additive) else { return nil }
        } else {
            guard keyPath.writesWholeProperty else { return nil }
        }
        switch curveKinds[i] {
        case .basic: return timingFunctionIndices[i] >= 0 ? .timingFunction : .linear
        case .spring: return .spring
        default: return nil
        }
    }

    /// The lane curve of keyframe animation `i`: on a whole vector property, not
    /// cumulative, without a timing function of its own, linear or paced with two values
    /// or more (its value is a + (b − a) · σ in the segment the timing loop finds), its
    /// tables' indices within 32 bits (`LaneGroup.keyframeRefs`).
    private func keyframeLaneCurve(_ i: Int, keyPath: AnimationKeyPath) -> LaneCurve? {
        let set = keyframeSets[Int(curveIndices[i])]
        guard keyPath.writesWholeProperty && !keyPath.isWholeTransform && !keyPath.isValueFunction,
            !flags[i].contains(.cumulative) && timingFunctionIndices[i] < 0,
            set.count >= 2 && (set.mode == .linear || set.mode == .paced),
            set.valueStart + 4 * set.count <= Int(Int32.max) && set.keyTimeStart + set.count <= Int(Int32.max)
                && set.functionStart + set.count <= Int(Int32.max)
        else { return nil }
        return set.functionStart >= 0 ? .keyframeFunctions : .keyframe
    }

    /// Makes the lanes for the live list (its layers all slots below `slotCount`), in
    /// the order added: entries numbered by first animation, the sole animation of a
    /// layer into its group when it qualifies, the rest kept in order. O(live);
    /// allocates only past the capacity of earlier lanes.
    mutating func makeLanes(slotCount: Int) {
        var lanes = self.lanes
        self.lanes = AnimationLanes()
        for g in lanes.groups.indices { lanes.groups[g].removeMembers() }
        lanes.rest.removeAll(keepingCapacity: true)
        lanes.restEntries.removeAll(keepingCapacity: true)
        lanes.entrySlots.removeAll(keepingCapacity: true)
        lanes.entryProperties.removeAll(keepingCapacity: true)
        if lanes.slotCounts.count < slotCount {
            let more = slotCount - lanes.slotCounts.count
            lanes.slotCounts.append(contentsOf: Array(repeating: 0, count: more))
            lanes.slotEntries.append(contentsOf: Array(repeating: -1, count: more))
        }
        for i in live { lanes.slotCounts[Int(layerSlots[Int(i)])] += 1 }
        var entryCount: Int32 = 0
        for number in live {
            let i = Int(number)
            let slot = Int(layerSlots[i])
            var entry = lanes.slotEntries[slot]
            let isNew = entry < 0
            if isNew {
                entry = entryCount
                entryCount += 1
                lanes.slotEntries[slot] = entry
                lanes.entrySlots.append(slot)
                lanes.entryProperties.append([])
            }
            if lanes.slotCounts[slot] == 1, let curve = laneCurve(i) {
                appendLaneMember(i, curve: curve, entry: entry, to: &lanes.groups)
                lanes.entryProperties[Int(entry)] = keyPaths[i].presentationProperty
            } else {
                lanes.rest.append(number)
                if isNew { lanes.restEntries.append(entry) }
            }
        }
        for i in live {
            let slot = Int(layerSlots[Int(i)])
            (lanes.slotCounts[slot], lanes.slotEntries[slot]) = (0, -1)
        }
        lanes.entryCount = Int(entryCount)
        lanes.layout = BGNextStructureVersion()
        lanes.version = liveVersion
        self.lanes = lanes
    }

    /// Appends animation `i` to its group (made when new) with its entry.
    private func appendLaneMember(_ i: Int, curve: LaneCurve, entry: Int32, to groups: inout [LaneGroup]) {
        let keyPath = keyPaths[i]
        let additive = flags[i].contains(.additive)
        let cumulative = flags[i].contains(.cumulative)
        var g = groups.firstIndex {
            $0.curve == curve && $0.keyPath == keyPath && $0.additive == additive && $0.cumulative == cumulative
        }
        if g == nil {
            groups.append(LaneGroup(curve: curve, keyPath: keyPath, additive: additive, cumulative: cumulative))
            g = groups.count - 1
        }
        let r = Int(resolvedEndIndices[i])
        let curveIndex = curve == .spring || curve.isKeyframe ? curveIndices[i] : timingFunctionIndices[i]
        groups[g!].numbers.append(Int32(i))
        groups[g!].slots.append(layerSlots[i])
        groups[g!].entries.append(entry)
        groups[g!].appendTiming(timings[i])
        groups[g!].curves.append(curveIndex)
        groups[g!].ends.append(Int32(r))
        if curve.isKeyframe {
            groups[g!].starts.append(SIMD4())
            groups[g!].deltas.append(SIMD4())
            let set = keyframeSets[Int(curveIndex)]
            groups[g!].keyframeRefs.append(
                SIMD4(Int32(set.keyTimeStart), Int32(set.count - 2), Int32(set.valueStart), Int32(set.functionStart)))
        } else if keyPath.isWholeTransform {
            groups[g!].appendTransformMix(
                TransformMix(resolvedDecompositions[r], resolvedDecompositions[r + 1], slerp: resolvedSlerps[r / 2]))
        } else {
            groups[g!].starts.append(resolvedVectors[r])
            groups[g!].deltas.append(resolvedVectors[r + 1])
        }
        groups[g!].progress.append(0)
        groups[g!].iterations.append(0)
        groups[g!].segments.append(-1)
        groups[g!].segmentFunctions.append(0)
    }

    /// One sample through the lanes at `time` (no layer has its own timing and every
    /// live animation's layer is alive): the lane groups' timing, the rest's timing
    /// steps in the order added, then the composition. Returns false, having written
    /// nothing but the solve memo, when some lane animation is not showing inside its
    /// active duration (before its begin, after its end): each such one leaves the lanes
    /// for good (flag `laneless`; the lanes are made again at the next sample) and the
    /// caller samples through the general path.
    mutating func sampleLanes(
        at time: Double, model: borrowing LayerStore, into presentation: inout PresentationValues
    ) -> Bool {
        var lanes = self.lanes
        self.lanes = AnimationLanes()
        // By address: an array's element accessors and iterator over a struct this size
        // allocate a coroutine frame per call in unoptimized builds.
        let leftAny = lanes.groups.withUnsafeMutableBufferPointer { groups in
            var left = false
            for g in 0..<groups.count {
                if runLaneTiming(&groups[g], at: time) { left = true }
            }
            return left
        }
        self.lanes = lanes
        if leftAny {
            self.lanes.version = nil
            return false
        }
        let rest = self.lanes.rest
        let (removedAny, allShowing) = rest.isEmpty ? (false, true) : runSteadyTimingPass(time: time, over: rest)
        if removedAny || !allShowing {
            // The entries are not the lanes' (a layer without one, or later): the general
            // composition, from the lane members' states.
            scatterLaneStates()
            if removedAny { compactLiveLists() }
            presentation.reset(slotCount: model.count)
            composeShowing(model: model, into: &presentation)
        } else {
            composeLanes(model: model, into: &presentation)
        }
        return true
    }

    /// The timing of one group at scene time `time` (section 2.3, the steps of
    /// `timingStep` for an animation showing inside its active duration): each member's
    /// progress and iteration into the group's scratch, by the C timing loop
    /// (`BGLaneTimes`: local time ÷ duration, or the local time that a spring group's
    /// springs then turn into progress). When a member is not showing inside its active
    /// duration, every such member is flagged `laneless` and it returns true (what was
    /// written is not read: the sample is general). A timing-function group keeps u in
    /// the progress column and solves it afterwards, eight members at a time
    /// (`solveLaneProgress`).
    private mutating func runLaneTiming(_ group: inout LaneGroup, at time: Double) -> Bool {
        guard group.count > 0 else { return false }
        let (curve, count, curveColumn) = (group.curve, group.count, group.curves)
        let timings = LaneTimingColumns(group)
        let showing = withRawColumns(&group.progress, &group.iterations) { progress, iterations in
            timings.withColumns { columns in
                withRawValue(columns) {
                    BGLaneTimes($0, count, time, curve == .spring ? 0 : 1, progress.base, iterations.base) == 0
                }
            }
        }
        guard showing else {
            flagLeavingMembers(group, at: time)
            return true
        }
        if curve == .spring || curve == .timingFunction {
            withRawColumn(&group.progress) { progress in
                withRawColumn(reading: curveColumn) { curves in
                    if curve == .timingFunction {
                        solveLaneProgress(count: count, functions: curves, progress: progress)
                    } else {
                        withRawColumn(reading: springCoefficients) { table in
                            BGSpringProgress(table.base, curves.base, progress.base, count)
                        }
                    }
                }
            }
        }
        if curve.isKeyframe { runKeyframeSegments(&group) }
        if group.keyPath.isWholeTransform { group.slerpRotations() }
        return false
    }

    /// Flags `laneless` each member of `group` that is not showing inside its active
    /// duration at `time` (before its begin, after its end: `BGLaneTimes`' test).
    private mutating func flagLeavingMembers(_ group: LaneGroup, at time: Double) {
        for m in 0..<group.count {
            let timing = group.timings[m]
            if !(time >= timing.beginTime) || (time - timing.beginTime) * Swift.abs(timing.speed) > timing.active {
                flags[Int(group.numbers[m])].insert(.laneless)
            }
        }
    }

    /// A keyframe group's segments (section 6, `keyframeProgress`): each member's u in
    /// `progress` replaced by its segment's σ (solved by the segment's timing function
    /// for `keyframeFunctions`), the segment's ends a and b − a into `starts` and
    /// `deltas`, so that the write is `writeLane`'s a + (b − a) · σ: `keyframeVector`'s.
    private mutating func runKeyframeSegments(_ group: inout LaneGroup) {
        let (count, solved, refs) = (group.count, group.curve == .keyframeFunctions, group.keyframeRefs)
        withRawColumns(&group.starts, &group.deltas) { starts, deltas in
            withRawColumns(&group.segments, &group.segmentFunctions) { segments, functions in
                withRawColumn(&group.progress) { progress in
                    placeKeyframeSegments(
                        count, refs: refs, starts: starts, deltas: deltas, progress: progress, segments: segments,
                        functions: functions)
                    if solved { solveLaneProgress(count: count, functions: functions, progress: progress) }
                }
            }
        }
    }

    /// The loop of `runKeyframeSegments` (called once a group), over the keyframe tables
    /// opened raw: the C loop (`BGKeyframeSegments`), whose search and σ are
    /// `keyframeSegmentBeforeFunction`'s (`Self.segment`) and values `keyframeValue`'s,
    /// in their order. A member still in the segment of the sample before (`segments`,
    /// −1 when the lanes are made) keeps its ends and function: they are a function of
    /// its set and segment alone (the keyframe tables are only appended to), so the
    /// same bits.
    private func placeKeyframeSegments(
        _ count: Int, refs: [SIMD4<Int32>], starts: RawColumn<SIMD4<Double>>, deltas: RawColumn<SIMD4<Double>>,
        progress: RawColumn<Double>, segments: RawColumn<Int32>, functions: RawColumn<Int32>
    ) {
        withRawColumn(reading: refs) { refs in
            withRawColumns(reading: keyTimes, keyframeValues) { times, values in
                let lanes = BGKeyframeLanes(
                    sets: UnsafeRawPointer(refs.base).assumingMemoryBound(to: Int32.self), keyTimes: times.base,
                    values: values.base, progress: progress.base,
                    starts: UnsafeMutableRawPointer(starts.base).assumingMemoryBound(to: Double.self),
                    deltas: UnsafeMutableRawPointer(deltas.base).assumingMemoryBound(to: Double.self),
                    segments: segments.base, functions: functions.base)
                withRawValue(lanes) { BGKeyframeSegments($0, count) }
            }
        }
    }

    /// Replaces each u in `progress` by its timing function's value there (`functions`:
    /// the members' indices into `timingFunctions`), read and written in place: eight
    /// members at a time by the C kernel (`TimingFunction.solveEight` on the column
    /// itself; one function's coefficients broadcast when the eight share it, as a
    /// group's members do when they share a curve, a gather from `timingCoefficients`
    /// otherwise), the rest one at a time. The memo (`lastSolvedInputs`) holds what a
    /// solve gave at an input, so a value taken from it, or a lane solved again at the
    /// memo's input, has the same bits; eight members that all hit it are not solved.
    private mutating func solveLaneProgress(count: Int, functions: RawColumn<Int32>, progress: RawColumn<Double>) {
        // The memo moved out and opened raw: a gathered solve writes eight entries, and
        // each array write was a uniqueness and a bounds check.
        var (inputs, values) = (lastSolvedInputs, lastSolvedValues)
        (lastSolvedInputs, lastSolvedValues) = ([], [])
        let table = timingFunctions
        withRawColumn(&inputs) { memoInputs in
            withRawColumn(&values) { memoValues in
                withRawColumn(reading: timingCoefficients) { coefficients in
                    let memo = SolveMemo(inputs: memoInputs, values: memoValues)
                    var m = 0
                    while m + 8 <= count {
                        Self.solveEightLaneMembers(
                            at: m, functions: functions, progress: progress, table, coefficients, memo)
                        m += 8
                    }
                    while m < count {
                        let (function, u) = (Int(functions[m]), progress[m])
                        if memo.inputs[function] != u.bitPattern {
                            memo.inputs[function] = u.bitPattern
                            memo.values[function] = table[function].value(at: u)
                        }
                        progress[m] = Double(memo.values[function])
                        m += 1
                    }
                }
            }
        }
        (lastSolvedInputs, lastSolvedValues) = (inputs, values)
    }

    /// Members `m..<m + 8` of `solveLaneProgress`: the memo's value when all eight share
    /// a function and its memo's input, else the C solve in place (broadcast or gather).
    @inline(__always)
    private static func solveEightLaneMembers(
        at m: Int, functions: RawColumn<Int32>, progress: RawColumn<Double>, _ table: [TimingFunction],
        _ coefficients: RawColumn<Double>, _ memo: SolveMemo
    ) {
        let f = functions.load(at: m, as: SIMD8<Int32>.self)
        let function = Int(f[0])
        // The eight indices as four words, each two copies of the first index.
        let pair = UInt64(UInt32(bitPattern: f[0])) &* 0x1_0000_0001
        if orOfLanes(functions.load(at: m, as: SIMD4<UInt64>.self) ^ SIMD4(repeating: pair)) == 0 {
            let last = memo.inputs[function]
            if orOfLanes(progress.load(at: m, as: SIMD8<UInt64>.self) ^ SIMD8(repeating: last)) == 0 {
                progress.store(SIMD8<Double>(repeating: Double(memo.values[function])), at: m)
                return
            }
            let u = progress[m + 7].bitPattern
            TimingFunction.solveEight(coefficients + 6 * function, nil, progress + m) { _ in
                table[function]
            }
            memo.inputs[function] = u
            memo.values[function] = Float(progress[m + 7])
        } else {
            // The memo gets the last lane's solve only: any solve it holds gives its bits
            // again, and eight lanes' stores a member were most of this loop's cost.
            let (last, u) = (Int(f[7]), progress[m + 7].bitPattern)
            TimingFunction.solveEight(coefficients, functions + m, progress + m) {
                table[Int(f[$0])]
            }
            memo.inputs[last] = u
            memo.values[last] = Float(progress[m + 7])
        }
    }

    /// Writes the lane members' progress and iteration into `states` (for the general
    /// composition).
    private mutating func scatterLaneStates() {
        for g in 0..<lanes.groups.count {
            let group = lanes.groups[g]
            for m in 0..<group.count {
                states[Int(group.numbers[m])] = SampledState(
                    progress: group.progress[m], iteration: group.iterations[m], isShowing: true,
                    segment: group.segments[m])
            }
        }
    }

    /// The composition when every animation shows and none left: the entries in the
    /// lanes' order — kept when `presentation` holds these lanes' layout from an earlier
    /// sample (`PresentationValues.laneLayout`: nothing else wrote it since, so its slot
    /// map, `layers` and `touched` are what they would be made; the rest's sets emptied),
    /// else made in entry order (`setLaneLayout`) — each lane member's cell written with
    /// its value, then the rest composed in the order added over the entries already
    /// there. Non-mutating, as `composeShowing`: see there.
    private func composeLanes(model: borrowing LayerStore, into presentation: inout PresentationValues) {
        let kept =
            lanes.layout != 0 && presentation.laneLayout == lanes.layout && presentation.count == lanes.entryCount
            && presentation.entries.count >= model.count
        if !kept {
            presentation.reset(slotCount: model.count)
            presentation.setLaneLayout(lanes.layout, slots: lanes.entrySlots, written: lanes.entryProperties)
        }
        withPresentationCells(&presentation, room: 0) { cells in
            if !kept {
                makeTransformCellsMatrices(cells)
            } else if !lanes.restEntries.isEmpty {
                withRawColumn(reading: lanes.restEntries) { entries in
                    for k in 0..<lanes.restEntries.count { cells.touched[Int(entries[k])] = [] }
                }
            }
            for g in 0..<lanes.groups.count {
                let group = lanes.groups[g]
                if group.keyPath.isWholeTransform {
                    writeTransformLane(group, into: cells)
                } else {
                    writeLane(group, model: model, into: cells)
                }
            }
            guard !lanes.rest.isEmpty else { return }
            withRawColumn(reading: lanes.rest) { rest in
                for k in 0..<lanes.rest.count { composeOne(Int(rest[k]), model: model, into: &cells) }
            }
        }
    }

    /// The transform cells of the whole-`transform` lane members made matrix cells, as
    /// `setTransform` leaves them (a cell keeps its form from sample to sample): when the
    /// layout is made; a kept layout's are matrix cells since (only these lanes wrote
    /// them). O(members).
    private func makeTransformCellsMatrices(_ cells: PresentationCells) {
        for g in 0..<lanes.groups.count where lanes.groups[g].keyPath == .transform && lanes.groups[g].count > 0 {
            withRawColumn(reading: lanes.groups[g].entries) { entries in
                for m in 0..<lanes.groups[g].count {
                    let e = Int(entries[m])
                    if cells.transformFunction[e] != nil { cells.transformFunction[e] = nil }
                }
            }
        }
    }

    /// Writes each member of `group` into its entry: `composeResolved` for a layer that
    /// nothing else animates (the entry new, so the value underneath is the model's).
    /// One loop per key path and flags: the mix's own (a position or bounds over the
    /// model's, a position or opacity) read the model's columns and write the cell
    /// directly, with the operations of `readModel`, `vector` and `setVector`.
    private func writeLane(_ group: LaneGroup, model: borrowing LayerStore, into cells: PresentationCells) {
        guard group.count > 0 else { return }
        let keyPath = group.keyPath
        let property = keyPath.presentationProperty
        if keyPath.isValueFunction {
            forEachLaneValue(group, into: cells) { _, e, v in cells.setValueFunction(keyPath, v[0], v[1], entry: e) }
        } else if !group.additive {
            switch keyPath {
            case .position:
                forEachLaneValue(group, into: cells) { _, e, v in cells.position[e] = Point(x: v[0], y: v[1]) }
            case .opacity: forEachLaneValue(group, into: cells) { _, e, v in cells.opacity[e] = Float(v[0]) }
            default: forEachLaneValue(group, into: cells) { _, e, v in cells.setVector(v, at: keyPath, entry: e) }
            }
        } else if keyPath == .position {
            withRawColumns(reading: model.columns.positionX, model.columns.positionY) { x, y in
                forEachLaneValue(group, into: cells) { slot, e, v in
                    cells.position[e] = Point(x: x[slot] + v[0], y: y[slot] + v[1])
                }
            }
        } else if keyPath == .bounds {
            withRawColumns(
                reading: model.columns.boundsX, model.columns.boundsY, model.columns.boundsWidth,
                model.columns.boundsHeight
            ) { x, y, width, height in
                forEachLaneValue(group, into: cells) { slot, e, v in
                    cells.bounds[e] = Rect(
                        x: x[slot] + v[0], y: y[slot] + v[1], width: width[slot] + v[2], height: height[slot] + v[3])
                }
            }
        } else {
            forEachLaneValue(group, into: cells) { slot, e, v in
                cells.readModel(property, entry: e, layer: slot, model: model)
                cells.setVector(cells.vector(at: keyPath, entry: e) + v, at: keyPath, entry: e)
            }
        }
    }

    /// The loop of `writeLane`: each member's value (start + delta · f, plus k · delta
    /// when cumulative) handed to `write` with the layer's slot and the entry (made by
    /// `composeLanes`).
    @inline(__always)
    private func forEachLaneValue(
        _ group: LaneGroup, into cells: PresentationCells, _ write: (Int, Int, SIMD4<Double>) -> Void
    ) {
        let cumulative = group.cumulative
        withRawColumns(reading: group.slots, group.entries) { slots, entries in
            withRawColumns(reading: group.starts, group.deltas) { starts, deltas in
                withRawColumns(reading: group.progress, group.iterations) { progress, iterations in
                    for m in 0..<group.count {
                        let (slot, e) = (Int(slots[m]), Int(entries[m]))
                        let delta = deltas[m]
                        let linear = starts[m] + delta * progress[m]
                        let k = iterations[m]
                        let v = cumulative && k != 0 ? linear + k * delta : linear
                        write(slot, e, v)
                    }
                }
            }
        }
    }

    /// `writeLane` for a whole transform (not additive): `animatedTransform` over the
    /// resolved ends, each member's matrix written at its entry (a matrix cell:
    /// `makeTransformCellsMatrices`) by the C kernel (`LaneGroup.writeTransforms`: the
    /// resolved end, or the member's `TransformMix` at f with the rotation the timing
    /// step slerped).
    private func writeTransformLane(_ group: LaneGroup, into cells: PresentationCells) {
        guard group.count > 0 else { return }
        let isTransform = group.keyPath == .transform
        group.writeTransforms(
            endMatrices: resolvedTransforms, into: isTransform ? cells.transform : cells.sublayerTransform)
    }
}

/// The timing-function solve memo (`AnimationStore.lastSolvedInputs`, `lastSolvedValues`)
/// opened raw for `solveLaneProgress`.
struct SolveMemo {
    let inputs: RawColumn<UInt64>
    let values: RawColumn<Float>
}

/// The OR of a vector's lanes: zero exactly when every lane is. Bitwise halvings (`por`):
/// the standard library's `all(_:)` of a lane comparison reduces 64-bit lanes by a signed
/// minimum, which SSE2 lacks (~70 instructions).
@inline(__always)
private func orOfLanes(_ v: SIMD8<UInt64>) -> UInt64 { orOfLanes(v.lowHalf | v.highHalf) }

@inline(__always)
private func orOfLanes(_ v: SIMD4<UInt64>) -> UInt64 {
    let half = v.lowHalf | v.highHalf
    return half[0] | half[1]
}
