// The batch samplers of the curves (TimingFunction.values, Spring.progress): one loop for
// one curve at many inputs and one for many curves each at its own input, written once.
// Both are inlined into each caller with its sample function, so each compiles to the
// loop it replaced.

/// `sample` at every input, written to `results` (resized to `inputs.count`; entry i is
/// `sample(inputs[i])`). O(inputs); no allocation once `results` has the capacity.
@inline(__always)
func sampleCurve(at inputs: [Double], into results: inout [Float], _ sample: (Double) -> Float) {
    results.resize(to: inputs.count, filler: 0)
    for index in inputs.indices { results[index] = sample(inputs[index]) }
}

/// Each curve at its own input: entry i of `results` (resized to `inputs.count`) is
/// `sample(curves[i], inputs[i])`. The counts must be equal, else the program stops with
/// `"<caller>: <curvesName>.count is …, <inputsName>.count is … (they must be equal)"`.
/// O(count); no allocation once `results` has the capacity.
@inline(__always)
func sampleCurves<Curve>(
    _ curves: [Curve], at inputs: [Double], into results: inout [Float],
    names: (caller: StaticString, curves: StaticString, inputs: StaticString), _ sample: (Curve, Double) -> Float
) {
    require(
        curves.count == inputs.count,
        "\(names.caller): \(names.curves).count is \(curves.count), \(names.inputs).count is \(inputs.count) "
            + "(they must be equal)")
    results.resize(to: inputs.count, filler: 0)
    for index in inputs.indices { results[index] = sample(curves[index], inputs[index]) }
}
