// The parts of a curve chart: grid, curves, their marks, legend.

import BatchGeometry

extension CurvePicture {
    /// The plot's frame (its value ranges as data attributes, for readers and tests),
    /// grid lines with tick labels, the axis names, and for springs the end value 1.
    func writeGrid(_ writer: inout SVGWriter) {
        let n = SVGWriter.number
        writer.open("g", [("id", "grid")])
        writer.element(
            "rect",
            [
                ("class", "plot"), ("x", n(plot.left)), ("y", n(plot.top)), ("width", n(plot.right - plot.left)),
                ("height", n(plot.bottom - plot.top)), ("data-x-low", "\(x.low)"), ("data-x-high", "\(x.high)"),
                ("data-y-low", "\(y.low)"), ("data-y-high", "\(y.high)"), ("fill", "none"), ("stroke", "#999999"),
            ])
        for tick in x.ticks {
            let at = pixel(tick, y.low).x
            writer.element(
                "line",
                [("x1", n(at)), ("y1", n(plot.top)), ("x2", n(at)), ("y2", n(plot.bottom)), ("stroke", "#eeeeee")])
            writer.element(
                "text", [("x", n(at)), ("y", n(plot.bottom + 14)), ("font-size", "10"), ("text-anchor", "middle")],
                content: n(tick))
        }
        for tick in y.ticks {
            let at = pixel(x.low, tick).y
            let stroke = tick == 0 || tick == 1 ? "#bbbbbb" : "#eeeeee"
            writer.element(
                "line", [("x1", n(plot.left)), ("y1", n(at)), ("x2", n(plot.right)), ("y2", n(at)), ("stroke", stroke)])
            writer.element(
                "text",
                [("x", n(plot.left - 6)), ("y", n(at)), ("dy", "3"), ("font-size", "10"), ("text-anchor", "end")],
                content: n(tick))
        }
        writer.element(
            "text",
            [
                ("x", n((plot.left + plot.right) / 2)), ("y", n(plot.bottom + 30)), ("font-size", "11"),
                ("text-anchor", "middle"),
            ], content: springs ? "time (s)" : "time fraction (input)")
        writer.element(
            "text",
            [
                ("x", n(Self.margin)), ("y", n((plot.top + plot.bottom) / 2)), ("font-size", "11"),
                ("text-anchor", "middle"),
                ("transform", "rotate(-90 \(n(Self.margin + 4)) \(n((plot.top + plot.bottom) / 2)))"),
            ], content: springs ? "position" : "progress")
        writer.close()
    }

    /// Curve `index` as one polyline of its samples (non-finite samples left out).
    func writeCurve(_ writer: inout SVGWriter, _ index: Int) {
        var points: [Point2D] = []
        for (time, value) in zip(times, values[index]) where value.isFinite {
            points.append(pixel(time, Double(value)))
        }
        writer.element(
            "polyline",
            [
                ("class", "curve"), ("data-curve", "\(index)"), ("points", SVGWriter.points(points)),
                ("fill", "none"), ("stroke", colour(index)), ("stroke-width", "2"),
            ])
    }

    /// A timing function's control points, joined to the ends they pull; a spring's
    /// settling time, a dashed vertical line when it falls inside the chart.
    func writeMarks(_ writer: inout SVGWriter, _ index: Int) {
        let n = SVGWriter.number
        switch curves[index] {
        case .timingFunction(let function):
            let ends = [pixel(0, 0), pixel(1, 1)]
            let controls = [
                pixel(Double(function.x1), Double(function.y1)), pixel(Double(function.x2), Double(function.y2)),
            ]
            for (end, control) in zip(ends, controls) {
                writer.element(
                    "line",
                    [
                        ("class", "handle"), ("data-curve", "\(index)"), ("x1", n(end.x)), ("y1", n(end.y)),
                        ("x2", n(control.x)), ("y2", n(control.y)), ("stroke", colour(index)),
                        ("stroke-opacity", "0.6"), ("stroke-dasharray", "4 3"),
                    ])
                writer.element(
                    "circle",
                    [
                        ("class", "control-point"), ("data-curve", "\(index)"), ("cx", n(control.x)),
                        ("cy", n(control.y)), ("r", "3.5"), ("fill", colour(index)),
                    ])
            }
        case .spring(let spring):
            let settling = spring.settlingDuration
            guard settling <= x.high else { return }
            let at = pixel(settling, y.low).x
            writer.element(
                "line",
                [
                    ("class", "settling"), ("data-curve", "\(index)"), ("data-seconds", "\(settling)"), ("x1", n(at)),
                    ("y1", n(plot.top)), ("x2", n(at)), ("y2", n(plot.bottom)), ("stroke", colour(index)),
                    ("stroke-opacity", "0.7"), ("stroke-dasharray", "2 3"),
                ])
        }
    }

    /// One row per curve: its colour and caption.
    func writeLegend(_ writer: inout SVGWriter, top: Double) {
        let n = SVGWriter.number
        writer.open("g", [("id", "legend")])
        for (index, curve) in curves.enumerated() {
            let y = top + Double(index) * Self.legendRow + 10
            writer.element(
                "line",
                [
                    ("x1", n(Self.margin)), ("y1", n(y)), ("x2", n(Self.margin + 24)), ("y2", n(y)),
                    ("stroke", colour(index)), ("stroke-width", "3"),
                ])
            writer.element(
                "text", [("x", n(Self.margin + 32)), ("y", n(y)), ("dy", "4"), ("font-size", "11")],
                content: curve.caption)
        }
        writer.close()
    }
}
