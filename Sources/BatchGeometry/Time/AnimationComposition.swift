// The animation stack (docs/ANIMATION.md sections 4, 8, 9): an animation's value from its
// ends (from/to/by against the value underneath), its curve and its iteration, then
// written over the presentation value (replacing it, or added: `U + v`, `Concat(V, U)`).

extension AnimationStore {
    /// Applies showing animation `i`: the short path (`composeResolved`) for ends resolved
    /// at `add` on a key path other than a whole transform, else `compose`. The one
    /// dispatch of the composition loops (general and lanes' rest).
    @inline(__always)
    func composeOne(_ i: Int, model: borrowing LayerStore, into presentation: inout PresentationCells) {
        let keyPath = keyPaths[i]
        let resolved = Int(resolvedEndIndices[i])
        if resolved >= 0 && !keyPath.isWholeTransform {
            composeResolved(i, keyPath: keyPath, ends: resolved, model: model, into: &presentation)
        } else {
            compose(i, model: model, into: &presentation)
        }
    }

    /// Applies showing animation `i` to its layer's presentation values, in place (no
    /// closure: a closure capturing `self` would copy the whole store, every column
    /// retained, once per animation). Reads the model only for the value underneath,
    /// and only when the animation uses it: additive, an end that is the value
    /// underneath, or a key path that writes part of a property (`position.x`).
    func compose(_ i: Int, model: borrowing LayerStore, into presentation: inout PresentationCells) {
        let keyPath = keyPaths[i]
        let resolved = Int(resolvedEndIndices[i])
        if resolved >= 0 && !keyPath.isWholeTransform {
            composeResolved(i, keyPath: keyPath, ends: resolved, model: model, into: &presentation)
            return
        }
        let layer = Int(layerSlots[i])
        let entry = presentation.entry(for: layer)
        let additive = flags[i].contains(.additive)
        let property = keyPath.presentationProperty
        let endsNeedUnderneath = curveKinds[i] != .keyframe && resolvedEndIndices[i] < 0
        // A value function's matrix replaces the whole transform.
        let partial = !keyPath.writesWholeProperty && !keyPath.isValueFunction
        if additive || (endsNeedUnderneath && !keyPath.isValueFunction) || partial {
            presentation.load(property, entry: entry, layer: layer, model: model)
        } else {
            presentation.willOverwrite(property, entry: entry)
        }
        // A cell not loaded is not read (a transform's is 128 bytes: a cache miss each).
        let transformUnderneath = additive || endsNeedUnderneath
        if keyPath == .transform {
            let underneath = transformUnderneath ? presentation.transform(at: entry) : .identity
            presentation.setTransform(animatedTransform(i, over: underneath, additive: additive), entry: entry)
        } else if keyPath == .sublayerTransform {
            let underneath = transformUnderneath ? presentation.sublayerTransform[entry] : .identity
            presentation.sublayerTransform[entry] = animatedTransform(i, over: underneath, additive: additive)
        } else if keyPath.isValueFunction {
            let v = animatedVector(i, underneath: SIMD4(repeating: keyPath.valueFunctionIdentity))
            if additive {
                let matrix = keyPath.valueFunctionMatrix(v[0], v[1])
                presentation.setTransform(matrix.concatenating(presentation.transform(at: entry)), entry: entry)
            } else {
                presentation.setValueFunction(keyPath, v[0], v[1], entry: entry)
            }
        } else if additive {
            let underneath = presentation.vector(at: keyPath, entry: entry)
            let v = animatedVector(i, underneath: SIMD4(repeating: 0))
            presentation.setVector(underneath + v, at: keyPath, entry: entry)
        } else {
            let underneath = endsNeedUnderneath ? presentation.vector(at: keyPath, entry: entry) : SIMD4(repeating: 0)
            presentation.setVector(animatedVector(i, underneath: underneath), at: keyPath, entry: entry)
        }
    }

    /// `compose` for a basic or spring animation whose ends were resolved at `add` (none
    /// is the value underneath), on a vector or value-function key path: the common case,
    /// without the general path's tests of curve, ends and key path. The same operations
    /// as `animatedVector` and the general path, so the same bits.
    @inline(__always)
    func composeResolved(
        _ i: Int, keyPath: AnimationKeyPath, ends r: Int, model: borrowing LayerStore,
        into presentation: inout PresentationCells
    ) {
        let layer = Int(layerSlots[i])
        let has = flags[i]
        let state = states[i]
        let delta = resolvedVectors[r + 1]
        let linear = resolvedVectors[r] + delta * state.progress
        let v = has.contains(.cumulative) && state.iteration != 0 ? linear + state.iteration * delta : linear
        let property = keyPath.presentationProperty
        let (entry, loaded) = presentation.entry(for: layer, writing: property)
        // Additive, or a partial key path (`position.x`, which keeps the rest): the value
        // underneath, the model's unless an earlier animation wrote it.
        let additive = has.contains(.additive)
        if !loaded && (additive || (!keyPath.writesWholeProperty && !keyPath.isValueFunction)) {
            presentation.readModel(property, entry: entry, layer: layer, model: model)
        }
        if keyPath.isValueFunction {
            guard additive else {
                presentation.setValueFunction(keyPath, v[0], v[1], entry: entry)
                return
            }
            let matrix = keyPath.valueFunctionMatrix(v[0], v[1])
            presentation.setTransform(matrix.concatenating(presentation.transform(at: entry)), entry: entry)
        } else if additive {
            let underneath = presentation.vector(at: keyPath, entry: entry)
            presentation.setVector(underneath + v, at: keyPath, entry: entry)
        } else {
            presentation.setVector(v, at: keyPath, entry: entry)
        }
    }

    /// The stored value at `start` as SIMD4 lanes.
    @inline(__always)
    func storedVector(at start: Int) -> SIMD4<Double> {
        SIMD4(values[start], values[start + 1], values[start + 2], values[start + 3])
    }

    /// The stored transform at `start` (16 doubles, row-major), without allocating.
    func storedTransform(at start: Int) -> Transform3D { Self.transform(in: values, at: start) }

    /// The transform at `start` of `v` (16 doubles, row-major), without allocating.
    static func transform(in v: [Double], at start: Int) -> Transform3D {
        Transform3D(
            m11: v[start], m12: v[start + 1], m13: v[start + 2], m14: v[start + 3],
            m21: v[start + 4], m22: v[start + 5], m23: v[start + 6], m24: v[start + 7],
            m31: v[start + 8], m32: v[start + 9], m33: v[start + 10], m34: v[start + 11],
            m41: v[start + 12], m42: v[start + 13], m43: v[start + 14], m44: v[start + 15])
    }

    /// Start and end of a basic or spring animation (section 4.1's table), with `base`
    /// for a missing value (the value underneath, or the additive identity).
    func ends(_ i: Int, base: SIMD4<Double>) -> (SIMD4<Double>, SIMD4<Double>) {
        let start = valueStarts[i]
        let has = flags[i]
        let from = storedVector(at: start)
        let to = storedVector(at: start + 4)
        let by = storedVector(at: start + 8)
        switch (has.contains(.hasFrom), has.contains(.hasTo), has.contains(.hasBy)) {
        case (true, true, _): return (from, to)
        case (true, false, true): return (from, from + by)
        case (false, true, true): return (to - by, to)
        case (true, false, false): return (from, base)
        case (false, true, false): return (base, to)
        case (false, false, true): return (base, base + by)
        case (false, false, false): return (base, base)
        }
    }

    /// The animation's own value v (before it is added to anything), for a vector or
    /// value-function key path; `underneath` is what a missing end stands for.
    func animatedVector(_ i: Int, underneath base: SIMD4<Double>) -> SIMD4<Double> {
        if curveKinds[i] == .deceleration { return decelerationOffset(i) }
        let f = states[i].progress
        let k = states[i].iteration
        let cumulative = flags[i].contains(.cumulative) && k != 0
        if curveKinds[i] == .keyframe {
            let set = keyframeSets[Int(curveIndices[i])]
            let v = keyframeVector(set, f, segment: states[i].segment)
            guard cumulative else { return v }
            return v + k * (keyframeValue(set, set.count - 1) - keyframeValue(set, 0))
        }
        let s: SIMD4<Double>
        let delta: SIMD4<Double>
        let resolved = Int(resolvedEndIndices[i])
        if resolved >= 0 {
            (s, delta) = (resolvedVectors[resolved], resolvedVectors[resolved + 1])
        } else {
            let (start, end) = ends(i, base: base)
            (s, delta) = (start, end - start)
        }
        let v = s + delta * f
        return cumulative ? v + k * delta : v
    }

    /// The value of a whole-transform animation over `underneath` (sections 7, 9).
    func animatedTransform(_ i: Int, over underneath: Transform3D, additive: Bool) -> Transform3D {
        let f = states[i].progress
        let value: Transform3D
        if curveKinds[i] == .keyframe {
            value = keyframeTransform(keyframeSets[Int(curveIndices[i])], f, segment: states[i].segment)
        } else if resolvedEndIndices[i] >= 0 {
            // `from.interpolated(to:fraction:)` with the decompositions made at `add`; the
            // ends (256 bytes) are read only when returned.
            let k = Int(resolvedEndIndices[i])
            if f == 0 || f == 1 {
                value = resolvedTransforms[f == 0 ? k : k + 1]
            } else if let a = resolvedDecompositions[k], let b = resolvedDecompositions[k + 1] {
                value = Transform3D(interpolating: a, b, fraction: f, slerp: resolvedSlerps[k / 2])
            } else {
                value = resolvedTransforms[f < 0.5 ? k : k + 1]
            }
        } else {
            let base = additive ? Transform3D.identity : underneath
            let start = valueStarts[i]
            let from = flags[i].contains(.hasFrom) ? storedTransform(at: start) : base
            let to = flags[i].contains(.hasTo) ? storedTransform(at: start + 16) : base
            value = from.interpolated(to: to, fraction: f)
        }
        return additive ? value.concatenating(underneath) : value
    }
}
