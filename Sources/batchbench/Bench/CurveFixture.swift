import BatchGeometry
import BatchGeometryWorkloads

/// The `curves` kernel's animations (issue 23's hot paths: the timing-function solve and
/// the spring evaluation): per layer of the workload, one timing function with an input
/// in [0, 1] and one spring with a time in [0, 1.5] s, sampled through the batch forms
/// into arrays reused by every call, as an engine samples its running animations each
/// frame. The functions take the five named curves and custom ones in turn (custom
/// control points random, y allowed to overshoot); the springs take the three regimes in
/// turn. Everything follows from the layer count and the seed.
final class CurveFixture {
    let functions: [TimingFunction]
    let inputs: [Double]
    let springs: [Spring]
    let times: [Double]
    private(set) var functionValues: [Float] = []
    private(set) var springValues: [Float] = []
    /// Folds in one value of every call so no call can be optimized away.
    private(set) var sink = 0.0

    init(count: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed ^ 0x2323)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var functions: [TimingFunction] = []
        var springs: [Spring] = []
        var inputs: [Double] = []
        var times: [Double] = []
        functions.reserveCapacity(count)
        springs.reserveCapacity(count)
        let names = TimingFunction.Name.allCases
        for index in 0..<count {
            if index % 2 == 0 {
                functions.append(TimingFunction(names[(index / 2) % names.count]))
            } else {
                let y1 = unit() * 2 - 0.5
                let y2 = unit() * 2 - 0.5
                functions.append(TimingFunction(controlPoints: unit(), y1, unit(), y2) ?? TimingFunction(.linear))
            }
            let stiffness = 50 + unit() * 450
            let critical = 2 * stiffness.squareRoot()
            let dampingFactor = [0.1 + unit() * 0.8, 1.0, 1.2 + unit() * 2][index % 3]
            springs.append(
                Spring(
                    stiffness: stiffness, damping: critical * dampingFactor, initialVelocity: unit() * 10 - 5,
                    allowsOverdamping: index % 3 == 2))
            inputs.append(unit())
            times.append(unit() * 1.5)
        }
        self.functions = functions
        self.springs = springs
        self.inputs = inputs
        self.times = times
    }

    /// One frame's samples: every timing function at its input, every spring at its time.
    func run() {
        TimingFunction.values(of: functions, at: inputs, into: &functionValues)
        Spring.progress(of: springs, at: times, into: &springValues)
        sink += Double(functionValues[functionValues.count - 1]) + Double(springValues[springValues.count - 1])
    }

    /// Nil when every sample of the last call is the one-at-a-time call's, bit for bit
    /// (`TimingFunction.value(at:)`, `Spring.progress(at:)`); else one example.
    var problem: String? {
        guard functionValues.count == functions.count, springValues.count == springs.count else {
            return "no samples"
        }
        for index in functions.indices {
            let expected = functions[index].value(at: inputs[index])
            if functionValues[index].bitPattern != expected.bitPattern {
                return "\(functions[index]) at \(inputs[index]) gave \(functionValues[index]), not \(expected)"
            }
            let spring = springs[index].progress(at: times[index])
            if springValues[index].bitPattern != spring.bitPattern {
                return "spring \(index) at \(times[index]) s gave \(springValues[index]), not \(spring)"
            }
        }
        return nil
    }
}
