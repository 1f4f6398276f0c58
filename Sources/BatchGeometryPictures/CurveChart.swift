// `batchbench render --timing-function … | --spring …`: a chart of timing functions
// (progress over the time fraction, with their control points) or of springs (position
// over seconds, with where each settles), sampled through the library's batch forms.

import BatchGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Draws charts of curves as SVG.
package enum CurveChart {
    /// Samples per curve: the polyline has one more point.
    static let samples = 240

    /// A chart of `curves`, all timing functions or all springs (the caller checks), at
    /// `options.width` pixels wide with a plot `options.height` pixels high (500 when
    /// nil), and a legend below it when `options.legend`. The same curves and options
    /// always give the same bytes.
    ///
    /// - Complexity: O(curves × samples), plus each spring's settling search.
    package static func svg(_ curves: [ChartCurve], options: RenderOptions = RenderOptions()) -> String {
        CurvePicture(curves: curves, options: options).svg()
    }
}

/// One linear axis: its range and tick step, both round numbers.
struct CurveAxis {
    var low: Double
    var high: Double
    var step: Double

    /// The round range holding `low ... high`, with about five ticks.
    init(holding low: Double, _ high: Double) {
        let span = Swift.max(high - low, 1e-9)
        step = ValueAxis.roundStep(span / 5)
        self.low = (low / step).rounded(.down) * step
        self.high = Swift.max((high / step).rounded(.up) * step, self.low + step)
    }

    /// The ticks from `low` to `high`.
    var ticks: [Double] {
        let count = Int(((high - low) / step).rounded())
        return (0...count).map { low + Double($0) * step }
    }
}

/// One chart being drawn: the curves sampled, the axes and the plot's pixel rectangle.
struct CurvePicture {
    static let margin = 16.0
    static let plotLeft = 64.0
    static let titleHeight = 34.0
    static let legendRow = 20.0

    let curves: [ChartCurve]
    let options: RenderOptions
    let springs: Bool
    /// Per curve: the sample times (fractions or seconds) and values.
    let times: [Double]
    let values: [[Float]]
    let x: CurveAxis
    let y: CurveAxis
    let plot: (left: Double, right: Double, top: Double, bottom: Double)

    init(curves: [ChartCurve], options: RenderOptions) {
        self.curves = curves
        self.options = options
        springs = curves.contains { if case .spring = $0 { true } else { false } }
        let x = springs ? CurveAxis(holding: 0, Self.horizon(of: curves) * 1.1) : CurveAxis(holding: 0, 1)
        self.x = x
        let times = (0...CurveChart.samples).map { x.low + (x.high - x.low) * Double($0) / Double(CurveChart.samples) }
        var values: [[Float]] = []
        var extent = (low: 0.0, high: 1.0)
        for curve in curves {
            var sampled: [Float] = []
            switch curve {
            case .timingFunction(let function):
                function.values(at: times, into: &sampled)
                extent.low = Swift.min(extent.low, Double(function.y1), Double(function.y2))
                extent.high = Swift.max(extent.high, Double(function.y1), Double(function.y2))
            case .spring(let spring): spring.progress(at: times, into: &sampled)
            }
            for value in sampled where value.isFinite {
                extent = (Swift.min(extent.low, Double(value)), Swift.max(extent.high, Double(value)))
            }
            values.append(sampled)
        }
        self.times = times
        self.values = values
        y = CurveAxis(holding: extent.low, extent.high)
        let top = Self.titleHeight + 8
        plot = (Self.plotLeft, options.width - Self.margin, top, top + (options.height ?? 500))
    }

    /// How many seconds a spring chart shows before its margin: the longest settling
    /// duration, each capped at 20 perceptual durations (an undamped spring never settles).
    static func horizon(of curves: [ChartCurve]) -> Double {
        var horizon = 0.0
        for case .spring(let spring) in curves {
            let shown = Swift.min(spring.settlingDuration, 20 * spring.perceptualDuration)
            horizon = Swift.max(horizon, shown > 0 ? shown : spring.perceptualDuration)
        }
        return horizon > 0 ? horizon : 1
    }

    /// The pixel position of the value-space point (`time`, `value`).
    func pixel(_ time: Double, _ value: Double) -> Point2D {
        Point2D(
            plot.left + (time - x.low) / (x.high - x.low) * (plot.right - plot.left),
            plot.bottom - (value - y.low) / (y.high - y.low) * (plot.bottom - plot.top))
    }

    func colour(_ index: Int) -> String { ScenePicture.palette[index % ScenePicture.palette.count] }

    /// The whole document: title, grid and axes, curves with their marks, legend.
    func svg() -> String {
        let legendHeight = options.legend ? Double(curves.count) * Self.legendRow + 8 : 0
        var writer = SVGWriter(width: options.width, height: plot.bottom + 40 + legendHeight)
        let title =
            springs
            ? "Springs: position over seconds (from 0 toward 1), as f32(x(t))"
            : "Timing functions: progress over the time fraction, with control points"
        writer.element(
            "text", [("x", SVGWriter.number(Self.margin)), ("y", "20"), ("font-size", "13"), ("fill", "#333333")],
            content: title)
        writeGrid(&writer)
        writer.open("g", [("id", "curves")])
        for index in curves.indices {
            writeMarks(&writer, index)
            writeCurve(&writer, index)
        }
        writer.close()
        if options.legend { writeLegend(&writer, top: plot.bottom + 40) }
        return writer.finish()
    }
}
