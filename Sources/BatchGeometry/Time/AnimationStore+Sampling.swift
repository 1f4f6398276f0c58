// One sample of the animations at a scene time (docs/ANIMATION.md sections 2, 9): per
// curve group a timing loop (layer time, phase, fill, removal, finished) and a progress
// loop (timing function, none, or spring), then one composition loop in the order added.

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
    /// - Throws: `AnimationError` (field `time`) for a NaN time or one before the previous
    ///   sample's (samples are frames: time does not go back); nothing changes then.
    public mutating func sample(
        at time: Double, model: borrowing LayerStore, into presentation: inout PresentationValues
    ) throws(AnimationError) {
        guard !time.isNaN else { throw AnimationError(field: "time", message: "must not be NaN") }
        guard time >= lastSampleTime else {
            throw AnimationError(
                field: "time",
                message: "\(shownNumber(time)) is before the previous sample (\(shownNumber(lastSampleTime)))")
        }
        lastSampleTime = time
        presentation.reset(slotCount: model.count)
        let finishedBefore = finished.count
        var removedAny = false
        for kind in 0..<AnimationCurveKind.count
        where runTimingPass(AnimationCurveKind(rawValue: UInt8(kind))!, time: time, model: model) {
            removedAny = true
        }
        if finished.count > finishedBefore { finished.sort() }
        if removedAny { compactLiveLists() }
        runProgressPasses()
        composeShowing(model: model, into: &presentation)
    }

    /// The composition loop, in the order added. One non-mutating call for the whole
    /// loop: calling a non-mutating method per animation from the mutating `sample` made
    /// the optimizer copy the store (every column retained) per call.
    private func composeShowing(model: borrowing LayerStore, into presentation: inout PresentationValues) {
        // Index loops: an array's iterator allocates per element in unoptimized builds.
        for k in 0..<live.count where showing[Int(live[k])] {
            compose(Int(live[k]), model: model, into: &presentation)
        }
    }

    /// Phase, fill and removal for one curve group; returns whether any animation left
    /// the store.
    mutating func runTimingPass(
        _ kind: AnimationCurveKind, time: Double, model: borrowing LayerStore
    ) -> Bool {
        var removedAny = false
        let members = liveByKind[Int(kind.rawValue)]
        for k in 0..<members.count {
            let i = Int(members[k])
            let slot = Int(layerSlots[i])
            guard model.contains(LayerHandle(slot: slot, generation: layerGenerations[i])) else {
                flags[i].insert(.removed)
                showing[i] = false
                removedAny = true
                continue
            }
            let timing = timings[i]
            let parentTime = layerTimings.isEmpty ? time : layerTime(of: slot, at: time, model: model)
            if timing.isAfterEnd(parentTime) {
                if !flags[i].contains(.finished) {
                    flags[i].insert(.finished)
                    finished.append(i)
                }
                if timing.removedOnCompletion {
                    flags[i].insert(.removed)
                    showing[i] = false
                    removedAny = true
                    continue
                }
            }
            switch timing.phase(parentTime) {
            case .silent: showing[i] = false
            case .showing(let local, let iteration):
                showing[i] = true
                locals[i] = local
                iterations[i] = iteration
            }
        }
        return removedAny
    }

    /// Progress f per group (section 2.5): the timing function of u = λ / d (or u
    /// itself) for basic and keyframe animations, `f32(x(λ))` for springs.
    mutating func runProgressPasses() {
        runTimedProgress(.basic)
        runTimedProgress(.keyframe)
        let springMembers = liveByKind[Int(AnimationCurveKind.spring.rawValue)]
        for k in 0..<springMembers.count where showing[Int(springMembers[k])] {
            let i = Int(springMembers[k])
            progresses[i] = Double(springs[Int(curveIndices[i])].progress(at: locals[i]))
        }
    }

    /// Progress of a group timed by a timing function (or none).
    private mutating func runTimedProgress(_ kind: AnimationCurveKind) {
        let members = liveByKind[Int(kind.rawValue)]
        for k in 0..<members.count where showing[Int(members[k])] {
            let i = Int(members[k])
            let u = locals[i] / timings[i].duration
            let function = Int(timingFunctionIndices[i])
            progresses[i] = function >= 0 ? Double(timingFunctions[function].value(at: u)) : u
        }
    }

    /// The time of layer `slot` for scene time `time` (section 2.1): each ancestor's
    /// timing applied from the root down. O(depth).
    mutating func layerTime(of slot: Int, at time: Double, model: borrowing LayerStore) -> Double {
        timingChain.removeAll(keepingCapacity: true)
        var layer: Int? = slot
        while let current = layer {
            if let entry = layerTimings[Int32(current)],
                model.contains(LayerHandle(slot: current, generation: entry.generation))
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
