// Value axes and number captions for the benchmark charts.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A vertical value axis: linear from 0, or logarithmic over whole decades.
struct ValueAxis {
    var low: Double
    var high: Double
    var logarithmic: Bool

    /// Logarithmic when the values span more than a factor of 20 (bars of very
    /// different kernels stay readable), else linear from 0 to a round number.
    init(values: [Double], allowLog: Bool = true) {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let largest = positive.max() ?? 1
        let smallest = positive.min() ?? 1
        if allowLog && largest / smallest > 20 {
            logarithmic = true
            low = pow(10, floor(log10(smallest)))
            high = pow(10, ceil(log10(largest)))
            if high <= low { high = low * 10 }
        } else {
            logarithmic = false
            low = 0
            high = Self.roundStep(largest / 5) * 5
            while high < largest { high += Self.roundStep(largest / 5) }
        }
    }

    /// 1, 2 or 5 times a power of ten, at least `raw`.
    static func roundStep(_ raw: Double) -> Double {
        guard raw > 0 && raw.isFinite else { return 1 }
        let magnitude = pow(10, floor(log10(raw)))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= raw { return factor * magnitude }
        return 10 * magnitude
    }

    /// Where `value` lies between `low` (0) and `high` (1), clamped to that range.
    func fraction(_ value: Double) -> Double {
        let raw: Double
        if logarithmic {
            raw = value > 0 ? (log10(value) - log10(low)) / (log10(high) - log10(low)) : 0
        } else {
            raw = value / high
        }
        return raw.isNaN ? 0 : Swift.min(Swift.max(raw, 0), 1)
    }

    /// The tick values: each decade, or six steps from 0.
    var ticks: [Double] {
        if logarithmic {
            var ticks: [Double] = []
            var tick = low
            while tick <= high * 1.0001 {
                ticks.append(tick)
                tick *= 10
            }
            return ticks
        }
        return (0...5).map { high * Double($0) / 5 }
    }
}

/// A rate with three significant digits and a unit: `1.23G`, `456M`, `12.3k`, `7.5`.
func compactNumber(_ value: Double) -> String {
    for (scale, unit) in [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")] where value.magnitude >= scale * 0.9995 {
        return threeDigits(value / scale) + unit
    }
    return threeDigits(value)
}

private func threeDigits(_ value: Double) -> String {
    let decimals = value.magnitude >= 100 ? 0.0 : value.magnitude >= 10 ? 1 : 2
    let unit = pow(10, decimals)
    return SVGWriter.number((value * unit).rounded() / unit)
}
