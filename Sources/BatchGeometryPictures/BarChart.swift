// The bar chart of a report: layers per second by kernel (groups) and backend (bars),
// with each kernel's memory ceiling as a red line across its group.

/// The bars of one chart, at the chart's size and thread count.
struct BarChart {
    static let height = 340.0
    static let plotLeft = 76.0

    let chart: Chart

    /// Each kernel's ceiling in layers per second (nil when not measured), by the bytes
    /// per layer of its first result.
    var ceilings: [String: Double] {
        var ceilings: [String: Double] = [:]
        for kernel in chart.kernels {
            guard let result = chart.barResults.first(where: { $0.kernel == kernel }) else { continue }
            ceilings[kernel] = chart.report.ceilingLayersPerSecond(
                layers: chart.layers, threads: chart.threads, bytesPerLayer: result.bytesPerLayer)
        }
        return ceilings
    }

    func write(_ writer: inout SVGWriter, top: Double) {
        let ceilings = self.ceilings
        let axis = ValueAxis(values: chart.barResults.map(\.layersPerSecond) + Array(ceilings.values))
        let plot = (
            left: Self.plotLeft, right: Chart.width - Chart.margin, top: top + 34, bottom: top + Self.height - 40
        )
        let scale = axis.logarithmic ? "log scale" : "linear scale"
        writer.element(
            "text",
            [
                ("x", SVGWriter.number(Chart.margin)), ("y", SVGWriter.number(top + 16)), ("font-size", "13"),
                ("font-weight", "bold"),
            ],
            content:
                "Layers per second at \(chart.layers) layers, \(chart.threads) thread\(chart.threads == 1 ? "" : "s") (\(scale))"
        )
        writer.open("g", [("id", "bars")])
        writeGrid(&writer, axis: axis, plot: plot)
        let groupWidth = (plot.right - plot.left) / Double(chart.kernels.count)
        for (group, kernel) in chart.kernels.enumerated() {
            let groupLeft = plot.left + Double(group) * groupWidth
            writeGroup(
                &writer, kernel: kernel, left: groupLeft, width: groupWidth, axis: axis, plot: (plot.top, plot.bottom))
            if let ceiling = ceilings[kernel] {
                let y = SVGWriter.number(plot.bottom - axis.fraction(ceiling) * (plot.bottom - plot.top))
                writer.element(
                    "line",
                    [
                        ("class", "ceiling"), ("data-kernel", kernel), ("x1", SVGWriter.number(groupLeft + 4)),
                        ("y1", y),
                        ("x2", SVGWriter.number(groupLeft + groupWidth - 4)), ("y2", y), ("stroke", "#d62728"),
                        ("stroke-width", "2"),
                    ])
            }
            writer.element(
                "text",
                [
                    ("x", SVGWriter.number(groupLeft + groupWidth / 2)), ("y", SVGWriter.number(plot.bottom + 16)),
                    ("font-size", "11"), ("text-anchor", "middle"),
                ], content: kernel)
        }
        writer.close()
    }

    /// One bar per backend that has a result for `kernel`, its rate written above it.
    private func writeGroup(
        _ writer: inout SVGWriter, kernel: String, left: Double, width: Double, axis: ValueAxis,
        plot: (top: Double, bottom: Double)
    ) {
        let barWidth = width * 0.8 / Double(chart.backends.count)
        for (index, backend) in chart.backends.enumerated() {
            guard let result = chart.barResults.first(where: { $0.kernel == kernel && $0.backend == backend }) else {
                continue
            }
            let x = left + width * 0.1 + Double(index) * barWidth
            let y = plot.bottom - axis.fraction(result.layersPerSecond) * (plot.bottom - plot.top)
            writer.element(
                "rect",
                [
                    ("class", "bar"), ("data-kernel", kernel), ("data-backend", backend),
                    ("data-rate", compactNumber(result.layersPerSecond)), ("x", SVGWriter.number(x)),
                    ("y", SVGWriter.number(y)), ("width", SVGWriter.number(barWidth - 2)),
                    ("height", SVGWriter.number(plot.bottom - y)), ("fill", chart.colour(ofBackend: backend)),
                ])
            writer.element(
                "text",
                [
                    ("x", SVGWriter.number(x + barWidth / 2 - 1)), ("y", SVGWriter.number(y - 3)), ("font-size", "9"),
                    ("text-anchor", "middle"),
                ], content: compactNumber(result.layersPerSecond))
        }
    }

    private func writeGrid(
        _ writer: inout SVGWriter, axis: ValueAxis, plot: (left: Double, right: Double, top: Double, bottom: Double)
    ) {
        for tick in axis.ticks {
            let y = SVGWriter.number(plot.bottom - axis.fraction(tick) * (plot.bottom - plot.top))
            writer.element(
                "line",
                [
                    ("x1", SVGWriter.number(plot.left)), ("y1", y), ("x2", SVGWriter.number(plot.right)), ("y2", y),
                    ("stroke", "#dddddd"),
                ])
            writer.element(
                "text",
                [
                    ("x", SVGWriter.number(plot.left - 6)), ("y", y), ("dy", "3"), ("font-size", "10"),
                    ("text-anchor", "end"),
                ], content: compactNumber(tick))
        }
    }
}
