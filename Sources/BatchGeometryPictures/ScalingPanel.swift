// One small line chart: a kernel's rate per backend over thread counts or sizes, with
// the memory ceiling dashed.

/// A kernel's scaling lines, one per backend, over `values` (evenly spaced).
struct ScalingPanel {
    static let columns = 4
    static let width = 230.0
    static let height = 180.0

    let chart: Chart
    let kernel: String
    /// "threads" or "layers".
    let axis: String
    let values: [Int]
    /// The result's x value, or nil when the result is not on this panel's line.
    let key: (ChartReport.Result) -> Int?
    let left: Double
    let top: Double

    /// Points `(x index, rate)` of `backend`.
    func series(_ backend: String) -> [(Int, Double)] {
        chart.results.compactMap { result in
            guard result.kernel == kernel, result.backend == backend, let value = key(result),
                let index = values.firstIndex(of: value)
            else { return nil }
            return (index, result.layersPerSecond)
        }
    }

    /// The ceiling at each x value, at the kernel's bytes per layer.
    var ceilingSeries: [(Int, Double)] {
        guard let bytes = chart.results.first(where: { $0.kernel == kernel })?.bytesPerLayer else { return [] }
        return values.enumerated().compactMap { index, value in
            let layers = axis == "threads" ? chart.layers : value
            let threads = axis == "threads" ? value : chart.threads
            return chart.report.ceilingLayersPerSecond(layers: layers, threads: threads, bytesPerLayer: bytes)
                .map { (index, $0) }
        }
    }

    func write(_ writer: inout SVGWriter) {
        let plot = (left: left + 46, right: left + Self.width - 16, top: top + 22, bottom: top + Self.height - 38)
        let lines = chart.backends.map { ($0, series($0)) }.filter { !$0.1.isEmpty }
        let ceiling = ceilingSeries
        let yAxis = ValueAxis(values: lines.flatMap { $0.1.map(\.1) } + ceiling.map(\.1), allowLog: false)
        func point(_ entry: (Int, Double)) -> Point2D {
            let spread = values.count > 1 ? Double(entry.0) / Double(values.count - 1) : 0.5
            return Point2D(
                plot.left + spread * (plot.right - plot.left),
                plot.bottom - yAxis.fraction(entry.1) * (plot.bottom - plot.top))
        }
        writer.open("g", [("class", "panel"), ("data-kernel", kernel)])
        writer.element(
            "text", [("x", SVGWriter.number(left + 6)), ("y", SVGWriter.number(top + 14)), ("font-size", "12")],
            content: kernel)
        writeAxes(&writer, yAxis: yAxis, plot: plot, xPosition: { point(($0, 0)).x })
        if ceiling.count > 1 {
            writer.element(
                "polyline",
                [
                    ("class", "ceiling"), ("points", SVGWriter.points(ceiling.map(point))), ("fill", "none"),
                    ("stroke", "#d62728"), ("stroke-dasharray", "4 3"),
                ])
        }
        for (backend, entries) in lines {
            let colour = chart.colour(ofBackend: backend)
            writer.element(
                "polyline",
                [
                    ("class", "scaling"), ("data-backend", backend), ("points", SVGWriter.points(entries.map(point))),
                    ("fill", "none"), ("stroke", colour), ("stroke-width", "1.5"),
                ])
            for entry in entries {
                let p = point(entry)
                writer.element(
                    "circle",
                    [("cx", SVGWriter.number(p.x)), ("cy", SVGWriter.number(p.y)), ("r", "2.5"), ("fill", colour)])
            }
        }
        writer.close()
    }

    private func writeAxes(
        _ writer: inout SVGWriter, yAxis: ValueAxis, plot: (left: Double, right: Double, top: Double, bottom: Double),
        xPosition: (Int) -> Double
    ) {
        writer.element(
            "rect",
            [
                ("x", SVGWriter.number(plot.left)), ("y", SVGWriter.number(plot.top)),
                ("width", SVGWriter.number(plot.right - plot.left)),
                ("height", SVGWriter.number(plot.bottom - plot.top)),
                ("fill", "none"), ("stroke", "#cccccc"),
            ])
        for tick in yAxis.ticks
        where tick == yAxis.low || tick == yAxis.high || tick == yAxis.ticks[yAxis.ticks.count / 2] {
            writer.element(
                "text",
                [
                    ("x", SVGWriter.number(plot.left - 4)),
                    ("y", SVGWriter.number(plot.bottom - yAxis.fraction(tick) * (plot.bottom - plot.top) + 3)),
                    ("font-size", "9"), ("text-anchor", "end"),
                ], content: compactNumber(tick))
        }
        for (index, value) in values.enumerated() {
            writer.element(
                "text",
                [
                    ("x", SVGWriter.number(xPosition(index))), ("y", SVGWriter.number(plot.bottom + 13)),
                    ("font-size", "9"), ("text-anchor", "middle"),
                ], content: axis == "threads" ? "\(value)" : compactNumber(Double(value)))
        }
        writer.element(
            "text",
            [
                ("x", SVGWriter.number((plot.left + plot.right) / 2)), ("y", SVGWriter.number(plot.bottom + 27)),
                ("font-size", "9"), ("text-anchor", "middle"), ("fill", "#555555"),
            ], content: axis)
    }
}
