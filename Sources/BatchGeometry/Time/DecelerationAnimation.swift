// A scroll view's deceleration (docs/ANIMATION.md section 11) as an animation of its
// contentOffset (`bounds.origin`) in an AnimationStore (issue 23 item 4): sampled with the
// other animations, its value at local time λ is `ScrollDeceleration.offset(at: λ)` —
// exact, clamped to the scroll range and rounded to the display scale — with the layer
// and animation timing of sections 2.1-2.4 applied, and it finishes at the
// deceleration's duration. The store's hooks: the `deceleration` curve kind and its table
// (AnimationStore.swift), and the value in `animatedVector` (AnimationComposition.swift).

extension AnimationStore {
    /// Adds `deceleration` to scroll view `layer` as an animation of its contentOffset
    /// (key path ``AnimationKeyPath/boundsOrigin``, not additive: it replaces the value
    /// underneath) and returns its number, as ``add(_:to:in:)`` does.
    ///
    /// At local time λ (seconds from its begin, after the layer's and its own timing:
    /// docs/ANIMATION.md sections 2.1-2.4) its value is
    /// ``ScrollDeceleration/offset(at:)`` at λ: clamped to the scroll range the
    /// deceleration was made with and rounded to its display scale. It lasts
    /// ``ScrollDeceleration/duration`` (a deceleration that does not move lasts 0.25 s,
    /// as any animation of duration 0) and then appears in ``finished``; it can be
    /// removed with ``remove(_:)`` at any time (`UIScrollView`'s stop on touch).
    ///
    /// Of `timing`, `beginTime`, `speed`, `timeOffset`, `fillMode` and
    /// `removedOnCompletion` are used; `duration` is the deceleration's, and it runs
    /// once, forwards (repeatCount, repeatDuration and autoreverses are ignored). As
    /// UIScrollView does, set the model's contentOffset to ``ScrollDeceleration/target``
    /// when adding it, so that the model is right when the animation leaves. A
    /// deceleration that starts beyond an edge shows clamped offsets: the bounce back
    /// is not in version 1 (docs/ANIMATION.md section 12).
    ///
    /// O(1) amortized; the store's arrays grow.
    ///
    /// - Throws: `AnimationError` for a stale layer handle, a deceleration with a
    ///   non-finite start offset or velocity, or a timing with a non-finite or negative
    ///   number; nothing is added then.
    @discardableResult
    public mutating func addDeceleration(
        _ deceleration: ScrollDeceleration, to layer: LayerHandle, in model: borrowing LayerStore,
        timing: AnimationTiming = AnimationTiming()
    ) throws(AnimationError) -> Int {
        guard model.contains(layer) else {
            throw AnimationError(field: "layer", message: "\(layer) names no live layer")
        }
        let start = deceleration.startOffset
        let velocity = deceleration.velocity
        guard start.x.isFinite && start.y.isFinite && velocity.x.isFinite && velocity.y.isFinite else {
            throw AnimationError(field: "deceleration", message: "the start offset and velocity must be finite")
        }
        var once = timing
        once.duration = deceleration.duration
        once.repeatCount = 0
        once.repeatDuration = 0
        once.autoreverses = false
        if let problem = once.problem() { throw problem }
        // Its value is never resolved at add: it is sampled from the deceleration.
        let number = appendColumns(
            layer: layer, keyPath: .boundsOrigin, timing: ResolvedTiming(once), timingFunction: -1,
            valueStart: values.count, kind: .deceleration, curveIndex: Int32(decelerations.count), flags: [])
        decelerations.append(deceleration)
        return number
    }

    /// The contentOffset of deceleration animation `i` at its sampled local time (which
    /// the timing pass keeps as its progress).
    @inline(__always)
    func decelerationOffset(_ i: Int) -> SIMD4<Double> {
        let offset = decelerations[Int(curveIndices[i])].offset(at: states[i].progress)
        return SIMD4(offset.x, offset.y, 0, 0)
    }
}
