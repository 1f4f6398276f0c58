// One sample of the animations at a scene time (docs/ANIMATION.md sections 2, 9): a
// timing loop in the order added (layer time, phase, fill, removal, finished, and the
// progress from the curve: timing function, none, or spring), then one composition loop
// in the same order.

extension AnimationStore {
    /// Samples every live animation at `time` (seconds of the scene's clock) and writes
    /// the presentation values of the layers they touch into `presentation` (which is
    /// cleared first). `model` is only read: it gives each layer's value underneath, its
    /// superlayers (for layer time) and which layers are alive. Afterwards `finished`
    /// lists every animation that has been after its end (section 2.3); an animation
    /// with `removedOnCompletion` leaves the store then, as does one whose layer died.
    ///
    /// O(live animations × (depth when some layer has its own timing)) time; allocates
    /// nothing once `presentation` and the store's scratch have grown.
    ///
    /// The timing functions are solved eight at a time by the C kernel (`BGTimingNewton8`),
    /// so the first sample stops with a message when `BATCHGEOMETRY_C_KERNEL` names an
    /// instruction set this build or CPU cannot run, as the geometry kernels do.
    ///
    /// - Throws: `AnimationError` (field `time`) for a NaN time or one before the previous
    ///   sample's (samples are frames: time does not go back); nothing changes then.
    public mutating func sample(
        at time: Double, model: borrowing LayerStore, into presentation: inout PresentationValues
    ) throws(AnimationError) {
        try checkSampleTime(time)
        lastSampleTime = time
        _ = Self.usableCKernel
        lastCulledCount = 0
        let finishedBefore = finished.count
        let structure = model.hierarchy.structureVersion
        // Each composition resets the values first (the lanes' may keep their entries).
        if !sampleThroughLanes(at: time, model: model, into: &presentation) {
            presentation.reset(slotCount: model.count)
            let removedAny = runTimingPass(time: time, model: model)
            if removedAny { compactLiveLists() }
            composeShowing(model: model, into: &presentation)
        }
        verifiedStructure = structure
        if finished.count > finishedBefore { finished.sort() }
        sampledVersion = liveVersion
    }

    /// `BATCHGEOMETRY_C_KERNEL` checked, once a process (`KernelOptions.requireUsableCKernel`):
    /// the timing solve runs the selected C table, which cannot report a bad value itself.
    static let usableCKernel: Void = KernelOptions.requireUsableCKernel()

    /// Refuses a NaN time or one before the previous sample's.
    func checkSampleTime(_ time: Double) throws(AnimationError) {
        guard !time.isNaN else { throw AnimationError(field: "time", message: "must not be NaN") }
        guard time >= lastSampleTime else {
            throw AnimationError(
                field: "time",
                message: "\(shownNumber(time)) is before the previous sample (\(shownNumber(lastSampleTime)))")
        }
    }

    /// The sample through the lanes (AnimationLanes.swift) when they apply: every layer
    /// verified alive and none with its own timing, and a live list that stayed the same
    /// since the previous sample (the lanes made for it now if they are not). Returns
    /// false when the general path must sample instead.
    private mutating func sampleThroughLanes(
        at time: Double, model: borrowing LayerStore, into presentation: inout PresentationValues
    ) -> Bool {
        guard verifiedStructure == model.hierarchy.structureVersion && layerTimings.isEmpty && !live.isEmpty,
            sampledVersion == liveVersion
        else { return false }
        if lanes.version != liveVersion { makeLanes(slotCount: model.count) }
        return sampleLanes(at: time, model: model, into: &presentation)
    }

    /// The composition loop, in the order added. One non-mutating call for the whole
    /// loop: calling a non-mutating method per animation from the mutating `sample` made
    /// the optimizer copy the store (every column retained) per call. The values are
    /// opened raw (`withPresentationCells`) a chunk of the live list at a time, with room
    /// for as many new entries as the chunk has animations: the room stays small however
    /// few layers the animations share.
    func composeShowing(model: borrowing LayerStore, into presentation: inout PresentationValues) {
        composeShowing(live, model: model, into: &presentation)
    }

    /// The composition loop over `list` (the live list, or the culled sample's animations
    /// to show: each layer's in the order added).
    func composeShowing(_ list: [Int32], model: borrowing LayerStore, into presentation: inout PresentationValues) {
        let chunk = 4096
        // No chunk of any sample of these animations (the culled ones show a part of the
        // live list) asks for more room than this.
        let most = min(chunk, max(list.count, live.count))
        var start = 0
        while start < list.count {
            let end = min(start + chunk, list.count)
            presentation.reserveCells(room: end - start, most: most)
            withPresentationCells(&presentation, room: end - start) { cells in
                composeShowing(list, start..<end, model: model, into: &cells)
            }
            start = end
        }
    }

    /// The composition loop over `range` of the live list. The live list and the states
    /// opened raw (read only) around the loop, and the short path called straight from
    /// it: `compose`'s dispatch (a call, its reads with their bounds checks) was ~40
    /// instructions a sample.
    private func composeShowing(
        _ list: [Int32], _ range: Range<Int>, model: borrowing LayerStore, into presentation: inout PresentationCells
    ) {
        withRawColumn(reading: list) { liveColumn in
            withRawColumn(reading: states) { st in
                for k in range where st[Int(liveColumn[k])].isShowing {
                    composeOne(Int(liveColumn[k]), model: model, into: &presentation)
                }
            }
        }
    }

    /// Phase, fill, removal and progress of every live animation, in the order added;
    /// returns whether any animation left the store. One loop in the order of the
    /// columns: per curve group, the loops strode through the shared columns (a cache
    /// miss per animation and column at 100k animations); the curve is a switch.
    mutating func runTimingPass(time: Double, model: borrowing LayerStore) -> Bool {
        // No layer can have died while the model's structure is the one last verified.
        let checkLayers = verifiedStructure != model.hierarchy.structureVersion
        if !checkLayers && layerTimings.isEmpty && !live.isEmpty {
            return runSteadyTimingPass(time: time, over: live).removedAny
        }
        var removedAny = false
        let noLayerTimings = layerTimings.isEmpty
        for k in 0..<live.count {
            let i = Int(live[k])
            let slot = Int(layerSlots[i])
            if checkLayers && !model.contains(LayerHandle(slot: slot, stamp: layerStamps[i])) {
                flags[i].insert(.removed)
                states[i].isShowing = false
                removedAny = true
                continue
            }
            let parentTime = noLayerTimings ? time : layerTime(of: slot, at: time, model: model)
            states[i] = timingStep(i, timings[i], at: parentTime, removedAny: &removedAny)
            if solveQueue.count == 8 { flushSolves() }
        }
        flushSolves()
        return removedAny
    }

    /// `runTimingPass` in the steady state (every frame once the layers are verified, no
    /// layer with its own timing): the scene time is every layer's, and the live list,
    /// the timings and the states are opened raw around the whole loop (an array's bounds
    /// and uniqueness checks per animation were a third of the pass). The same steps in
    /// the same order, so the same bits. Over `list` (the live list, or the lanes' rest:
    /// not empty, in the order added); returns whether any animation left and whether
    /// every one shows.
    mutating func runSteadyTimingPass(time: Double, over list: [Int32]) -> (removedAny: Bool, allShowing: Bool) {
        var removedAny = false
        var allShowing = true
        // Moved out while open (no copy: the store's reference is dropped), so that the
        // steps may mutate the store; nothing in a step reads `states`.
        var states = self.states
        self.states = []
        let timings = self.timings
        withRawColumn(&states) { st in
            withRawColumn(reading: list) { liveColumn in
                withRawColumn(reading: timings) { tm in
                    for k in 0..<list.count {
                        let i = Int(liveColumn[k])
                        let state = timingStep(i, tm[i], at: time, removedAny: &removedAny)
                        st[i] = state
                        allShowing = allShowing && state.isShowing
                        if solveQueue.count == 8 { flushSolves(into: st) }
                    }
                }
            }
            flushSolves(into: st)
        }
        self.states = states
        return (removedAny, allShowing)
    }

    /// One animation's state at layer time `parentTime` (section 2.3): after its end it
    /// is marked finished (and removed on completion: not showing, `removedAny` set),
    /// then its phase, and its progress when it shows (0 while a solve is queued: the
    /// caller flushes the queue when it is full, after writing this state).
    @inline(__always)
    private mutating func timingStep(
        _ i: Int, _ timing: ResolvedTiming, at parentTime: Double, removedAny: inout Bool
    ) -> SampledState {
        if timing.isAfterEnd(parentTime) && noteEnd(i, timing, removedAny: &removedAny) { return SampledState() }
        switch timing.phase(parentTime) {
        case .silent: return SampledState()
        case .showing(let local, let iteration):
            // nil: a solve queued, which writes the progress (after this state).
            let (f, segment) = progress(i, local: local, duration: timing.duration)
            return SampledState(progress: f ?? 0, iteration: iteration, isShowing: true, segment: segment)
        }
    }

    /// Animation `i` is after its end: marked finished (listed once in `finished`) and,
    /// with `removedOnCompletion`, removed (`removedAny` set). Returns whether it was
    /// removed. The timing pass's step and the culled sample's end checks share it.
    @inline(__always)
    mutating func noteEnd(_ i: Int, _ timing: ResolvedTiming, removedAny: inout Bool) -> Bool {
        if !flags[i].contains(.finished) {
            flags[i].insert(.finished)
            finished.append(i)
        }
        guard timing.removedOnCompletion else { return false }
        flags[i].insert(.removed)
        removedAny = true
        return true
    }

    /// Progress f (section 2.5): the timing function of u = λ / d (or u itself) for
    /// basic and keyframe animations, `f32(x(λ))` for springs. Mutating, as its caller:
    /// a non-mutating method called per animation from a mutating one copies the store.
    /// A keyframe animation's segment comes with it (else −1: `SampledState.segment`).
    @inline(__always)
    private mutating func progress(_ i: Int, local: Double, duration: Double) -> (Double?, Int32) {
        switch curveKinds[i] {
        case .spring:
            return (Double(springs[Int(curveIndices[i])].progress(at: local)), -1)
        case .deceleration:
            // Not a fraction: the local time itself, which `decelerationOffset` samples.
            return (local, -1)
        case .basic:
            let u = local / duration
            let function = Int(timingFunctionIndices[i])
            return (function >= 0 ? solve(function, at: u, for: i) : u, -1)
        case .keyframe:
            let u = local / duration
            let function = Int(timingFunctionIndices[i])
            guard let f = function >= 0 ? solve(function, at: u, for: i) : u else { return (nil, -1) }
            return keyframeProgress(i, f)
        }
    }

    /// A keyframe animation's segment and its σ at progress `f` (section 6), the
    /// segment's timing function solved in the lanes (nil: queued), when the mode
    /// interpolates between two values; else f and −1 (the composition loop reads f).
    @inline(__always)
    private mutating func keyframeProgress(_ i: Int, _ f: Double) -> (Double?, Int32) {
        let set = keyframeSets[Int(curveIndices[i])]
        guard set.count >= 2 && set.mode != .discrete else { return (f, -1) }
        let (segment, sigma) = keyframeSegmentBeforeFunction(set, f)
        guard set.functionStart >= 0 else { return (sigma, Int32(segment)) }
        return (solve(set.functionStart + segment, at: sigma, for: i), Int32(segment))
    }

    /// `timingFunctions[function].value(at: u)` for animation `i`: the memo's value when
    /// the function's latest solve was at `u` (animations that start together with the
    /// same duration share u), else nil: the solve is queued, and `flushSolves` writes
    /// the progress (when four wait, and at the end of the pass).
    @inline(__always)
    private mutating func solve(_ function: Int, at u: Double, for i: Int) -> Double? {
        if lastSolvedInputs[function] == u.bitPattern { return Double(lastSolvedValues[function]) }
        let lane = solveQueue.count
        solveQueue.inputs[lane] = u
        solveQueue.animations[lane] = Int32(i)
        solveQueue.functions[lane] = Int32(function)
        solveQueue.count = lane + 1
        return nil
    }

    /// Makes the queued solves (eight in SIMD lanes, fewer one at a time), writes each
    /// animation's progress and the memo, in the order queued. O(1), no allocation.
    mutating func flushSolves() {
        guard solveQueue.count > 0 else { return }
        var states = self.states
        self.states = []
        withRawColumn(&states) { flushSolves(into: $0) }
        self.states = states
    }

    /// `flushSolves()` with the states opened by the caller (`st`: `states`' elements).
    private mutating func flushSolves(into st: RawColumn<SampledState>) {
        let q = solveQueue
        solveQueue.count = 0
        if q.count == 8 {
            var (v, lanes) = (q.inputs, q.functions)
            let table = timingFunctions
            withRawColumn(reading: timingCoefficients) { coefficients in
                withRawLanes(&lanes, of: Int32.self) { functions in
                    withRawLanes(&v, of: Double.self) { values in
                        TimingFunction.solveEight(coefficients, functions, values) { table[Int(q.functions[$0])] }
                    }
                }
            }
            for lane in 0..<8 { finishSolve(q, lane: lane, value: Float(v[lane]), into: st) }
        } else {
            for lane in 0..<q.count {
                let value = timingFunctions[Int(q.functions[lane])].value(at: q.inputs[lane])
                finishSolve(q, lane: lane, value: value, into: st)
            }
        }
    }

    @inline(__always)
    private mutating func finishSolve(_ q: SolveQueue, lane: Int, value: Float, into st: RawColumn<SampledState>) {
        let function = Int(q.functions[lane])
        lastSolvedInputs[function] = q.inputs[lane].bitPattern
        lastSolvedValues[function] = value
        st[Int(q.animations[lane])].progress = Double(value)
    }

    /// The time of layer `slot` for scene time `time` (section 2.1): each ancestor's
    /// timing applied from the root down. O(depth).
    mutating func layerTime(of slot: Int, at time: Double, model: borrowing LayerStore) -> Double {
        timingChain.removeAll(keepingCapacity: true)
        var layer: Int? = slot
        while let current = layer {
            if let entry = layerTimings[Int32(current)],
                model.contains(LayerHandle(slot: current, stamp: entry.stamp))
            {
                timingChain.append(entry.timing)
            }
            layer = model.superlayer(of: current)
        }
        var t = time
        var k = timingChain.count
        while k > 0 {
            k -= 1
            t = timingChain[k].localTime(t)
        }
        return t
    }
}
