// batchgeometry.h, "Curves": timing functions and springs (docs/ANIMATION.md sections 3
// and 5), one at a time and in batch. Each checks its structs (CurveValues.swift) and
// counts before writing anything, then runs the Swift call the header names.

import BatchGeometry
import CBatchGeometry

/// `bg_timing_function_named`: `TimingFunction(_:)`.
@_cdecl("bg_timing_function_named")
public func bgTimingFunctionNamed(_ name: Int32, _ out: UnsafeMutablePointer<bg_timing_function>?) -> Int32 {
    cCall("bg_timing_function_named") {
        let out = try required(out, "out")
        let names = TimingFunction.Name.allCases
        guard name >= 0 && Int(name) < names.count else {
            throw CFailure.invalid(
                "\(name) is not a timing function name (BG_TIMING_FUNCTION_DEFAULT 0 to "
                    + "BG_TIMING_FUNCTION_EASE_IN_EASE_OUT \(names.count - 1))")
        }
        out.pointee = bg_timing_function(TimingFunction(names[Int(name)]))
    }
}

/// `bg_timing_function_make`: `TimingFunction(controlPoints:_:_:_:)`, each number checked.
@_cdecl("bg_timing_function_make")
public func bgTimingFunctionMake(
    _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ out: UnsafeMutablePointer<bg_timing_function>?
) -> Int32 {
    cCall("bg_timing_function_make") {
        let out = try required(out, "out")
        guard x1 >= 0 && x1 <= 1 else { throw CFailure.invalid("x1 must be in [0, 1], got \(x1)") }
        guard y1.isFinite else { throw CFailure.invalid("y1 must be finite, got \(y1)") }
        guard x2 >= 0 && x2 <= 1 else { throw CFailure.invalid("x2 must be in [0, 1], got \(x2)") }
        guard y2.isFinite else { throw CFailure.invalid("y2 must be finite, got \(y2)") }
        out.pointee = bg_timing_function(TimingFunction(controlPoints: x1, y1, x2, y2)!)
    }
}

/// `bg_timing_function_get_name`: `TimingFunction.name`, the index in `Name.allCases`.
@_cdecl("bg_timing_function_get_name")
public func bgTimingFunctionGetName(
    _ function: UnsafePointer<bg_timing_function>?, _ out: UnsafeMutablePointer<Int32>?
) -> Int32 {
    cCall("bg_timing_function_get_name") {
        let function = try required(function, "function").pointee.checked("function")
        let out = try required(out, "out")
        let index = function.name.flatMap { TimingFunction.Name.allCases.firstIndex(of: $0) }
        out.pointee = index.map { Int32($0) } ?? Int32(BG_TIMING_FUNCTION_CUSTOM)
    }
}

/// `bg_timing_function_value`: `TimingFunction.value(at:)`.
@_cdecl("bg_timing_function_value")
public func bgTimingFunctionValue(
    _ function: UnsafePointer<bg_timing_function>?, _ input: Double, _ out: UnsafeMutablePointer<Float>?
) -> Int32 {
    sampleOne("bg_timing_function_value", function, "function", out) { $1.pointee = $0.value(at: input) }
}

/// `bg_timing_function_values`: `values(at:into:)`, straight into the caller's array.
@_cdecl("bg_timing_function_values")
public func bgTimingFunctionValues(
    _ function: UnsafePointer<bg_timing_function>?, _ inputs: UnsafePointer<Double>?, _ count: Int,
    _ out: UnsafeMutablePointer<Float>?
) -> Int32 {
    sampleBatch("bg_timing_function_values", function, "function", inputs, "inputs", count, out) {
        $2.pointee = $0.value(at: $1)
    }
}

/// `bg_timing_function_values_each`: `TimingFunction.values(of:at:into:)`; every struct
/// is checked before the first value is written.
@_cdecl("bg_timing_function_values_each")
public func bgTimingFunctionValuesEach(
    _ functions: UnsafePointer<bg_timing_function>?, _ inputs: UnsafePointer<Double>?, _ count: Int,
    _ out: UnsafeMutablePointer<Float>?
) -> Int32 {
    sampleEach("bg_timing_function_values_each", functions, "functions", inputs, "inputs", count, out) {
        $0.value(at: $1)
    }
}

/// `bg_spring_for_view_animation`: `Spring(viewAnimationDuration:dampingRatio:initialVelocity:)`'s
/// parameters, as `viewAnimationParameters` gives them (not replaced).
@_cdecl("bg_spring_for_view_animation")
public func bgSpringForViewAnimation(
    _ duration: Double, _ dampingRatio: Double, _ initialVelocity: Double, _ out: UnsafeMutablePointer<bg_spring>?
) -> Int32 {
    cCall("bg_spring_for_view_animation") {
        let out = try required(out, "out")
        guard !duration.isNaN else { throw CFailure.invalid("duration is NaN") }
        guard !dampingRatio.isNaN else { throw CFailure.invalid("damping_ratio is NaN") }
        guard initialVelocity.isFinite else {
            throw CFailure.invalid("initial_velocity must be finite, got \(initialVelocity)")
        }
        let parameters = Spring.viewAnimationParameters(
            duration: duration, dampingRatio: dampingRatio, initialVelocity: initialVelocity)
        out.pointee = bg_spring(
            mass: parameters.mass, stiffness: parameters.stiffness, damping: parameters.damping,
            initial_velocity: initialVelocity, allows_overdamping: false)
    }
}

/// `bg_spring_value`: `Spring.value(at:)`.
@_cdecl("bg_spring_value")
public func bgSpringValue(_ spring: UnsafePointer<bg_spring>?, _ time: Double, _ out: UnsafeMutablePointer<Double>?)
    -> Int32
{
    sampleOne("bg_spring_value", spring, "spring", out) { $1.pointee = $0.value(at: time) }
}

/// `bg_spring_progress`: `progress(at:into:)`, straight into the caller's array.
@_cdecl("bg_spring_progress")
public func bgSpringProgress(
    _ spring: UnsafePointer<bg_spring>?, _ times: UnsafePointer<Double>?, _ count: Int,
    _ out: UnsafeMutablePointer<Float>?
) -> Int32 {
    sampleBatch("bg_spring_progress", spring, "spring", times, "times", count, out) { $2.pointee = $0.progress(at: $1) }
}

/// `bg_spring_progress_each`: `Spring.progress(of:at:into:)`; every struct is checked
/// before the first value is written.
@_cdecl("bg_spring_progress_each")
public func bgSpringProgressEach(
    _ springs: UnsafePointer<bg_spring>?, _ times: UnsafePointer<Double>?, _ count: Int,
    _ out: UnsafeMutablePointer<Float>?
) -> Int32 {
    sampleEach("bg_spring_progress_each", springs, "springs", times, "times", count, out) { $0.progress(at: $1) }
}

/// `bg_spring_get_durations`: `duration(forEpsilon:speed:)`, `settlingDuration`, `perceptualDuration`.
@_cdecl("bg_spring_get_durations")
public func bgSpringGetDurations(
    _ spring: UnsafePointer<bg_spring>?, _ epsilon: Double, _ speed: Double,
    _ out: UnsafeMutablePointer<bg_spring_durations>?
) -> Int32 {
    cCall("bg_spring_get_durations") {
        let spring = try required(spring, "spring").pointee.checked("spring")
        let out = try required(out, "out")
        try checkDurationArguments(epsilon: epsilon, speed: speed)
        out.pointee = bg_spring_durations(spring, epsilon: epsilon, speed: speed)
    }
}

/// `bg_spring_get_durations_each`: `bg_spring_get_durations` of every spring, all checked first.
@_cdecl("bg_spring_get_durations_each")
public func bgSpringGetDurationsEach(
    _ springs: UnsafePointer<bg_spring>?, _ count: Int, _ epsilon: Double, _ speed: Double,
    _ out: UnsafeMutablePointer<bg_spring_durations>?
) -> Int32 {
    cCall("bg_spring_get_durations_each") {
        let bytes = UInt(MemoryLayout<bg_spring>.stride)
        try checkDurationArguments(epsilon: epsilon, speed: speed)
        guard let batch = try batchArrays(count, unit: "springs", bytesEach: bytes, springs, "springs", out, "out")
        else { return }
        for index in 0..<batch.count { try batch.input[index].check("springs[\(index)]") }
        for index in 0..<batch.count {
            batch.output[index] = bg_spring_durations(
                batch.input[index].curve, epsilon: epsilon, speed: speed)
        }
    }
}

/// Durations need a number for epsilon and speed (any, NaN aside).
private func checkDurationArguments(epsilon: Double, speed: Double) throws(CFailure) {
    guard !epsilon.isNaN else { throw CFailure.invalid("epsilon is NaN") }
    guard !speed.isNaN else { throw CFailure.invalid("speed is NaN") }
}
