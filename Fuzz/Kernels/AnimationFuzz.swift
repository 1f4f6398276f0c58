// The kernel fuzzer's animations (issue 23: "the fuzzers gain animations"): random
// animations on a random store, sampled at increasing times, put into a copy of the model
// (`applyPresentation`) and taken out again (`restoreModelValues`); a second copy follows
// the same samples by `updatePresentation(from:to:model:)` alone (two samples, swapped).
//
// Oracles:
// - a malformed animation (or a NaN or backward time) throws and changes nothing;
// - after `applyPresentation`, every property the sample wrote reads back as the sample's
//   value and every other one as the model's; the store's invariants hold, and the
//   output-sensitive queries on the presentation tree equal its full passes;
// - after `restoreModelValues`, every animatable property equals the model's again;
// - after each `updatePresentation`, the second copy's animatable properties equal the
//   first's after `applyPresentation` (its definition: restore the previous sample, apply
//   the next), and its invariants hold.

import FuzzSupport

@_spi(Testing) @testable import BatchGeometry

/// The key paths the fuzzer animates (a vector, a part, a value function, whole matrices).
let fuzzedKeyPaths: [AnimationKeyPath] = [
    .position, .positionX, .bounds, .boundsSize, .anchorPoint, .zPosition, .opacity, .transform,
    .transformScale, .transformRotationZ, .transformTranslation, .sublayerTransform,
]

func checkAnimations(_ model: borrowing LayerStore, _ input: inout FuzzInput) {
    guard model.count > 0 else { return }
    var animations = AnimationStore()
    for _ in 0..<(1 + input.int(below: 6)) {
        guard let layer = model.handle(at: input.int(below: model.count)) else { continue }
        let animation = fuzzedAnimation(&input)
        let before = animations.count
        do {
            try animations.add(animation, to: layer, in: model)
        } catch {
            if animations.count != before { fuzzFailure("a rejected animation (\(error)) was added") }
        }
    }
    var values = PresentationValues()
    var previous = PresentationValues()
    var screen = model.copy()
    var fused = model.copy()
    var time = -0.5
    for round in 0..<3 {
        time += Double(input.int(below: 40)) / 40
        swap(&previous, &values)
        do {
            try animations.sample(at: time, model: model, into: &values)
        } catch {
            fuzzFailure("round \(round): sampling at \(time) failed: \(error)")
        }
        if (try? animations.sample(at: .nan, model: model, into: &values)) != nil {
            fuzzFailure("a NaN time was sampled")
        }
        screen.applyPresentation(values)
        checkPresented(screen, values, model, round: round)
        checkOutputSensitiveQueries(screen, &input)
        fused.updatePresentation(from: previous, to: values, model: model)
        checkFused(fused, screen, model, round: round)
        screen.restoreModelValues(of: values, from: model)
        checkRestored(screen, model, round: round)
    }
}

/// One random animation (sometimes malformed: wrong arity, bad key times).
func fuzzedAnimation(_ input: inout FuzzInput) -> Animation {
    let keyPath = fuzzedKeyPaths[input.int(below: fuzzedKeyPaths.count)]
    let arity = input.int(below: 12) == 0 ? 1 + input.int(below: 4) : keyPath.arity
    func value() -> [Double] {
        guard keyPath.isWholeTransform && arity == keyPath.arity else {
            return (0..<arity).map { _ in input.moderate() / 8 }
        }
        let rotation = Transform3D.rotation(radians: input.moderate() / 64, x: 0, y: 0, z: 1)
        return rotation.concatenating(.translation(x: input.moderate(), y: input.moderate())).rowMajor
    }
    var timing = AnimationTiming()
    timing.beginTime = input.moderate() / 64
    timing.duration = Double(input.int(below: 8)) / 8
    timing.speed = [1, 2, 0.5, -1, 0][input.int(below: 5)]
    timing.repeatCount = Double(input.int(below: 3))
    timing.autoreverses = input.bool()
    timing.fillMode = FillMode.allCases[input.int(below: FillMode.allCases.count)]
    timing.removedOnCompletion = input.bool()
    let content: Animation.Content
    switch input.int(below: 3) {
    case 0: content = .basic(from: input.bool() ? value() : nil, to: value(), by: input.bool() ? value() : nil)
    case 1:
        let spring = Spring(stiffness: 50 + Double(input.int(below: 250)), damping: 5 + Double(input.int(below: 25)))
        content = .spring(spring, from: value(), to: value(), by: nil)
    default:
        let count = 1 + input.int(below: 4)
        let keyTimes = input.bool() ? (0..<count).map { Double($0) / Double(Swift.max(1, count - 1)) } : nil
        let mode = CalculationMode.allCases[input.int(below: CalculationMode.allCases.count)]
        content = .keyframe(
            Keyframes(values: (0..<count).map { _ in value() }, keyTimes: keyTimes, calculationMode: mode))
    }
    let functions: [TimingFunction?] = [nil, TimingFunction(.easeInEaseOut), TimingFunction(.easeOut)]
    return Animation(
        keyPath: keyPath, content: content, timing: timing, timingFunction: functions[input.int(below: 3)],
        isAdditive: input.bool(), isCumulative: input.int(below: 4) == 0)
}

/// The animatable properties of layer `slot` as bit patterns, NaNs and zeros folded: a
/// transform whose non-affine entries are zeros is stored in the affine columns, which give
/// those entries back as +0 whatever the zero's sign was (numerically the same matrix).
func animatableBits(_ store: borrowing LayerStore, _ slot: Int) -> [UInt64] {
    let bounds = store.bounds(of: slot)
    let scalars = [
        bounds.x, bounds.y, bounds.width, bounds.height, store.position(of: slot).x, store.position(of: slot).y,
        store.anchorPoint(of: slot).x, store.anchorPoint(of: slot).y, store.zPosition(of: slot),
        store.anchorPointZ(of: slot), Double(store.opacity(of: slot)),
    ]
    let all = scalars + store.transform(of: slot).rowMajor + store.sublayerTransform(of: slot).rowMajor
    return all.map(foldedBits)
}

/// The same properties of a `PresentationLayer`, in the same order, folded the same way.
func animatableBits(_ values: PresentationLayer) -> [UInt64] {
    let scalars = [
        values.bounds.x, values.bounds.y, values.bounds.width, values.bounds.height, values.position.x,
        values.position.y, values.anchorPoint.x, values.anchorPoint.y, values.zPosition, values.anchorPointZ,
        Double(values.opacity),
    ]
    let all = scalars + values.transform.rowMajor + values.sublayerTransform.rowMajor
    return all.map(foldedBits)
}

/// After `applyPresentation`: each animated layer reads back as the sample (its written
/// properties) over the model (the rest); every other layer as the model.
func checkPresented(
    _ screen: borrowing LayerStore, _ values: PresentationValues, _ model: borrowing LayerStore, round: Int
) {
    for slot in 0..<model.count where model.isLiveSlot(slot) {
        let expected = values.values(ofLayerAt: slot, model: model).map(animatableBits) ?? animatableBits(model, slot)
        let got = animatableBits(screen, slot)
        if let k = got.indices.first(where: { got[$0] != expected[$0] }) {
            fuzzFailure(
                "round \(round): layer \(slot) after applyPresentation differs from the sample in property value \(k)"
                    + " (0-10 bounds to opacity, 11-26 transform, 27-42 sublayerTransform): "
                    + "\(Double(bitPattern: got[k])) vs \(Double(bitPattern: expected[k]))")
        }
    }
    let violations = screen._invariantViolations()
    if !violations.isEmpty { fuzzFailure("round \(round) presented: \(violations.joined(separator: "; "))") }
}

/// After `restoreModelValues`: every layer reads as the model again.
func checkRestored(_ screen: borrowing LayerStore, _ model: borrowing LayerStore, round: Int) {
    for slot in 0..<model.count
    where model.isLiveSlot(slot) && animatableBits(screen, slot) != animatableBits(model, slot) {
        fuzzFailure("round \(round): layer \(slot) after restoreModelValues differs from the model")
    }
}

/// After `updatePresentation`: every layer reads as `screen` after restore then apply
/// (zeros' signs folded: the fused call may keep a 0 where the two wrote a −0).
func checkFused(
    _ fused: borrowing LayerStore, _ screen: borrowing LayerStore, _ model: borrowing LayerStore, round: Int
) {
    for slot in 0..<model.count
    where model.isLiveSlot(slot) && animatableBits(fused, slot) != animatableBits(screen, slot) {
        fuzzFailure("round \(round): layer \(slot) after updatePresentation differs from restore then apply")
    }
    let violations = fused._invariantViolations()
    if !violations.isEmpty { fuzzFailure("round \(round) updated: \(violations.joined(separator: "; "))") }
}

/// `value`'s bits with every NaN one NaN and −0 as +0.
func foldedBits(_ value: Double) -> UInt64 {
    value.isNaN ? Double.nan.bitPattern : value == 0 ? 0 : value.bitPattern
}
