// The curves `batchbench render` charts (`--timing-function`, `--spring`): what each
// option's value means, read with the rules of the C interface (a value Core Animation
// would silently replace is refused).

import BatchGeometry

/// A curve of a chart: a timing function (progress over the time fraction) or a spring
/// (its position over seconds).
package enum ChartCurve: Equatable, Sendable {
    /// A timing function, named or custom.
    case timingFunction(TimingFunction)
    /// A spring, moving from 0 toward 1.
    case spring(Spring)

    /// `--timing-function NAME` (`easeInEaseOut`, ...) or `--timing-function x1,y1,x2,y2`
    /// (x1 and x2 in [0, 1], all finite).
    static func timingFunction(_ text: String) throws(RenderUsageError) -> ChartCurve {
        if let name = TimingFunction.Name(rawValue: text) { return .timingFunction(TimingFunction(name)) }
        let names = TimingFunction.Name.allCases.map(\.rawValue).joined(separator: ", ")
        let usage = "--timing-function: expected a name (\(names)) or x1,y1,x2,y2 with x1 and x2 in [0, 1]"
        let numbers = try Self.numbers(text, count: 4...4, usage: usage)
        guard let function = TimingFunction(controlPoints: numbers[0], numbers[1], numbers[2], numbers[3]) else {
            throw RenderUsageError(message: "\(usage), got '\(text)'")
        }
        return .timingFunction(function)
    }

    /// `--spring MASS,STIFFNESS,DAMPING[,VELOCITY]`: mass and stiffness positive, damping
    /// 0 or more, all finite.
    static func spring(_ text: String) throws(RenderUsageError) -> ChartCurve {
        let usage =
            "--spring: expected MASS,STIFFNESS,DAMPING[,VELOCITY] with mass and stiffness positive and damping 0 or more"
        let numbers = try Self.numbers(text, count: 3...4, usage: usage)
        guard numbers[0] > 0, numbers[1] > 0, numbers[2] >= 0 else {
            throw RenderUsageError(message: "\(usage), got '\(text)'")
        }
        return .spring(
            Spring(
                mass: numbers[0], stiffness: numbers[1], damping: numbers[2],
                initialVelocity: numbers.count == 4 ? numbers[3] : 0))
    }

    /// Comma-separated finite numbers, as many as `count` allows.
    private static func numbers(_ text: String, count: ClosedRange<Int>, usage: String) throws(RenderUsageError)
        -> [Double]
    {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Double($0.trimmingSpaces) }
        guard numbers.count == parts.count, count.contains(numbers.count), numbers.allSatisfy(\.isFinite) else {
            throw RenderUsageError(message: "\(usage), got '\(text)'")
        }
        return numbers
    }

    /// The legend's words: the function and its points, or the spring's parameters,
    /// regime and durations.
    var caption: String {
        switch self {
        case .timingFunction(let function):
            let points =
                "(\(SVGWriter.number(Double(function.x1))), \(SVGWriter.number(Double(function.y1)))), "
                + "(\(SVGWriter.number(Double(function.x2))), \(SVGWriter.number(Double(function.y2))))"
            return "\(function.name?.rawValue ?? "custom"): \(points)"
        case .spring(let spring):
            let n = SVGWriter.number
            return "mass \(n(spring.mass)), stiffness \(n(spring.stiffness)), damping \(n(spring.damping)), "
                + "velocity \(n(spring.initialVelocity)): ζ \(n(spring.dampingRatio)) (\(Self.words(spring.regime))), "
                + "settles in \(n(spring.settlingDuration)) s, perceptual \(n(spring.perceptualDuration)) s"
        }
    }
}

extension ChartCurve {
    /// A regime in words.
    static func words(_ regime: Spring.Regime) -> String {
        switch regime {
        case .underdamped: return "underdamped"
        case .criticallyDamped: return "critically damped"
        case .overdamped: return "overdamped"
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
