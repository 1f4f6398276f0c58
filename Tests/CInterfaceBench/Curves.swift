// The curve calls of batchgeometry.h against the Swift batch samplers they run, on the
// same curves (c-interface-bench's last part): the C "each" forms check every struct and
// rebuild the Swift value from it on every call (a timing function's 0.001 snap to a
// named one, a spring's closed-form constants), which the Swift calls, given built
// values, do not.

import BatchGeometry
import CBatchGeometry

/// One timing function and one spring per entry, as batchbench's `curves` kernel draws
/// them (named and custom functions in turn, the three spring regimes in turn), with an
/// input and a time each, in Swift values and in the header's structs.
final class CurveBenchData {
    var functions: [TimingFunction] = []
    var cFunctions: [bg_timing_function] = []
    var springs: [Spring] = []
    var cSprings: [bg_spring] = []
    var inputs: [Double] = []
    var times: [Double] = []
    var swiftOut: [Float] = []
    var cOut: [Float]

    init(count: Int) {
        var state: UInt64 = 0x2323
        func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        for index in 0..<count {
            let function =
                index % 2 == 0
                ? TimingFunction(TimingFunction.Name.allCases[(index / 2) % 5])
                : TimingFunction(controlPoints: unit(), unit() * 2 - 0.5, unit(), unit() * 2 - 0.5)!
            functions.append(function)
            cFunctions.append(bg_timing_function(x1: function.x1, y1: function.y1, x2: function.x2, y2: function.y2))
            let stiffness = 50 + unit() * 450
            let damping = 2 * stiffness.squareRoot() * [0.1 + unit() * 0.8, 1.0, 1.2 + unit() * 2][index % 3]
            let velocity = unit() * 10 - 5
            springs.append(
                Spring(
                    stiffness: stiffness, damping: damping, initialVelocity: velocity, allowsOverdamping: index % 3 == 2
                ))
            cSprings.append(
                bg_spring(
                    mass: 1, stiffness: stiffness, damping: damping, initial_velocity: velocity,
                    allows_overdamping: index % 3 == 2))
            inputs.append(unit())
            times.append(unit() * 1.5)
        }
        cOut = [Float](repeating: 0, count: count)
    }

    /// Stops the program unless both sides gave the same bits.
    func verify() {
        TimingFunction.values(of: functions, at: inputs, into: &swiftOut)
        check(bg_timing_function_values_each(cFunctions, inputs, inputs.count, &cOut), "bg_timing_function_values_each")
        guard swiftOut.map(\.bitPattern) == cOut.map(\.bitPattern) else { fatalError("timing functions differ") }
        Spring.progress(of: springs, at: times, into: &swiftOut)
        check(bg_spring_progress_each(cSprings, times, times.count, &cOut), "bg_spring_progress_each")
        guard swiftOut.map(\.bitPattern) == cOut.map(\.bitPattern) else { fatalError("springs differ") }
    }
}

/// The four calls, each over all the entries (the `Instance` is not used).
func curveVariants(_ data: CurveBenchData) -> [Variant] {
    [
        Variant(name: "Swift  TimingFunction.values(of:at:into:)") { _ in
            TimingFunction.values(of: data.functions, at: data.inputs, into: &data.swiftOut)
        },
        Variant(name: "C      bg_timing_function_values_each") { _ in
            check(
                bg_timing_function_values_each(data.cFunctions, data.inputs, data.inputs.count, &data.cOut),
                "bg_timing_function_values_each")
        },
        Variant(name: "Swift  Spring.progress(of:at:into:)") { _ in
            Spring.progress(of: data.springs, at: data.times, into: &data.swiftOut)
        },
        Variant(name: "C      bg_spring_progress_each") { _ in
            check(
                bg_spring_progress_each(data.cSprings, data.times, data.times.count, &data.cOut),
                "bg_spring_progress_each")
        },
    ]
}
