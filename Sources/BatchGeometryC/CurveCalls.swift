// The three shapes of batchgeometry.h's curve calls, written once: one struct at one
// input, one struct at many inputs, and many structs each at its own input. Each checks
// everything before it writes anything (batchgeometry.h, "Curves").

import CBatchGeometry

/// A struct of the "Curves" section that stands for a Swift value, checked on every call
/// (CurveValues.swift).
protocol CheckedCurve {
    associatedtype Curve
    /// `.invalid` naming `argument` and the first field that breaks a rule.
    func check(_ argument: @autoclosure () -> String) throws(CFailure)
    /// The Swift value of a struct that passed `check`.
    var curve: Curve { get }
}

extension CheckedCurve {
    /// The Swift value, or `.invalid` naming `argument` and the field that breaks a rule.
    @inline(__always)
    func checked(_ argument: @autoclosure () -> String) throws(CFailure) -> Curve {
        try check(argument())
        return curve
    }
}

extension bg_timing_function: CheckedCurve {}
extension bg_spring: CheckedCurve {}
extension bg_deceleration: CheckedCurve {}

/// The body of a call at one input: the struct `name` checked, then `write` into `out`.
@inline(__always)
func sampleOne<Value: CheckedCurve, Output>(
    _ function: StaticString, _ value: UnsafePointer<Value>?, _ name: String, _ out: UnsafeMutablePointer<Output>?,
    _ write: (Value.Curve, UnsafeMutablePointer<Output>) -> Void
) -> Int32 {
    cCall(function) {
        let curve = try required(value, name).pointee.checked(name)
        write(curve, try required(out, "out"))
    }
}

/// The body of a batch of one curve: the struct `name`, then the count (checked for the
/// larger of its input array and its output array, `width` outputs an input) and the
/// arrays; then `write` of each input into its `width` outputs.
@inline(__always)
func sampleBatch<Value: CheckedCurve, Output>(
    _ function: StaticString, _ value: UnsafePointer<Value>?, _ name: String, _ inputs: UnsafePointer<Double>?,
    _ inputsName: String, _ count: Int, _ out: UnsafeMutablePointer<Output>?, width: Int = 1,
    _ write: (Value.Curve, Double, UnsafeMutablePointer<Output>) -> Void
) -> Int32 {
    cCall(function) {
        let curve = try required(value, name).pointee.checked(name)
        let bytes = UInt(Swift.max(MemoryLayout<Double>.stride, width * MemoryLayout<Output>.stride))
        guard let batch = try batchArrays(count, unit: inputsName, bytesEach: bytes, inputs, inputsName, out, "out")
        else { return }
        for index in 0..<batch.count { write(curve, batch.input[index], batch.output + width * index) }
    }
}

/// The body of a batch of curves each at its own input: the count of structs `name` and
/// the arrays, then every struct (the first bad one named with its index), then `sample`
/// of each into `out`.
@inline(__always)
func sampleEach<Value: CheckedCurve>(
    _ function: StaticString, _ values: UnsafePointer<Value>?, _ name: String, _ inputs: UnsafePointer<Double>?,
    _ inputsName: String, _ count: Int, _ out: UnsafeMutablePointer<Float>?, _ sample: (Value.Curve, Double) -> Float
) -> Int32 {
    cCall(function) {
        let bytes = UInt(MemoryLayout<Value>.stride)
        guard let batch = try batchArrays(count, unit: name, bytesEach: bytes, inputs, inputsName, out, "out")
        else { return }
        let values = try required(values, name)
        for index in 0..<batch.count { try values[index].check("\(name)[\(index)]") }
        for index in 0..<batch.count { batch.output[index] = sample(values[index].curve, batch.input[index]) }
    }
}

/// A batch's count, checked against the address space for its largest entries
/// (`bytesEach`), and its two arrays, required unless the count is 0 (then nil).
@inline(__always)
func batchArrays<Input, Output>(
    _ count: Int, unit: String, bytesEach: UInt, _ input: UnsafePointer<Input>?, _ inputName: String,
    _ output: UnsafeMutablePointer<Output>?, _ outputName: String
) throws(CFailure) -> (count: Int, input: UnsafePointer<Input>, output: UnsafeMutablePointer<Output>)? {
    let count = try bufferCount(count, "count", unit: unit, bytesEach: bytesEach)
    guard count > 0 else { return nil }
    return (count, try required(input, inputName), try required(output, outputName))
}
