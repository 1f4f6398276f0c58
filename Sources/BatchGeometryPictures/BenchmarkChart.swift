// `batchbench show REPORT.json --format svg`: a report's rates as bars by kernel and
// backend with the memory ceiling, then scaling lines over threads and sizes.

/// Draws benchmark reports as SVG charts.
package enum BenchmarkChart {
    /// The charts of one workload of `report`: bars of layers per second by kernel and
    /// backend at the selected size and thread count, the memory ceiling of each kernel
    /// as a red line across its group; then, when the report has several thread counts
    /// (or sizes) for that workload, one small line chart per kernel over them. The same
    /// report and selection always give the same bytes.
    ///
    /// - Throws: `ChartError` when no result matches the selection.
    /// - Complexity: O(results × ceiling measurements).
    package static func svg(_ report: ChartReport, selection: ChartSelection = ChartSelection()) throws(ChartError)
        -> String
    {
        let chart = try Chart(report: report, selection: selection)
        return chart.svg()
    }
}

/// No results to chart: the message says what the report has.
package struct ChartError: Error, Equatable, CustomStringConvertible {
    /// One line, without `error: `.
    package var description: String
}

/// One chart document being drawn, with its selection resolved.
struct Chart {
    static let width = 960.0
    static let margin = 20.0
    static let backendColours = ["scalar": "#7f7f7f", "simd": "#1f77b4", "c": "#ff7f0e"]
    static let otherColours = ["#2ca02c", "#9467bd", "#8c564b", "#e377c2"]

    let report: ChartReport
    let workload: String
    let layers: Int
    let threads: Int
    /// The workload's results, in report order.
    let results: [ChartReport.Result]
    /// Kernels and backends in order of first appearance.
    let kernels: [String]
    let backends: [String]

    init(report: ChartReport, selection: ChartSelection) throws(ChartError) {
        self.report = report
        guard let workload = selection.workload ?? report.results.first?.workload else {
            throw ChartError(description: "the report has no results")
        }
        self.workload = workload
        results = report.results.filter { $0.workload == workload }
        guard let largest = results.map(\.layers).max() else {
            let workloads = Self.ordered(report.results.map(\.workload)).joined(separator: ", ")
            throw ChartError(description: "no results for workload '\(workload)' (the report has: \(workloads))")
        }
        let layers = selection.layers ?? largest
        let threads = selection.threads ?? results.filter { $0.layers == layers }.map(\.threads).max() ?? 0
        self.layers = layers
        self.threads = threads
        guard results.contains(where: { $0.layers == layers && $0.threads == threads }) else {
            let sizes = Self.ordered(results.map { "\($0.layers) layers × \($0.threads) threads" })
            throw ChartError(
                description:
                    "no '\(workload)' results at \(layers) layers and \(threads) threads (the report has: \(sizes.joined(separator: ", ")))"
            )
        }
        kernels = Self.ordered(results.map(\.kernel))
        backends = Self.ordered(results.map(\.backend))
    }

    /// The distinct values in order of first appearance.
    static func ordered(_ values: [String]) -> [String] {
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }

    func colour(ofBackend backend: String) -> String {
        Self.backendColours[backend]
            ?? Self.otherColours[(backends.firstIndex(of: backend) ?? 0) % Self.otherColours.count]
    }

    /// The results shown as bars.
    var barResults: [ChartReport.Result] { results.filter { $0.layers == layers && $0.threads == threads } }

    /// The thread counts measured at the bars' size, and the sizes at the bars' threads.
    var threadCounts: [Int] { Set(results.filter { $0.layers == layers }.map(\.threads)).sorted() }
    var sizes: [Int] { Set(results.filter { $0.threads == threads }.map(\.layers)).sorted() }

    func svg() -> String {
        let panelRows = { (count: Int) in
            count > 1 ? (kernels.count + ScalingPanel.columns - 1) / ScalingPanel.columns : 0
        }
        let threadTop = 90 + BarChart.height
        let sizeTop = threadTop + Double(panelRows(threadCounts.count)) * ScalingPanel.height + 30
        let bottom = sizeTop + Double(panelRows(sizes.count)) * ScalingPanel.height + 30
        var writer = SVGWriter(width: Self.width, height: bottom)
        writeHeader(&writer)
        BarChart(chart: self).write(&writer, top: 70)
        if threadCounts.count > 1 {
            writeScaling(&writer, top: threadTop, axis: "threads", values: threadCounts) {
                $0.layers == layers ? $0.threads : nil
            }
        }
        if sizes.count > 1 {
            writeScaling(&writer, top: sizeTop, axis: "layers", values: sizes) {
                $0.threads == threads ? $0.layers : nil
            }
        }
        return writer.finish()
    }

    private func writeHeader(_ writer: inout SVGWriter) {
        let machine = "\(report.machine.cpu), \(report.machine.cores) cores"
        writer.element(
            "text", [("x", SVGWriter.number(Self.margin)), ("y", "24"), ("font-size", "15"), ("font-weight", "bold")],
            content: "batchbench: \(workload) workload, \(report.build) build, \(machine)")
        writer.element(
            "text", [("x", SVGWriter.number(Self.margin)), ("y", "42"), ("font-size", "11"), ("fill", "#555555")],
            content: "\(report.date). Rates in the units each kernel counts (Benchmarks/README.md).")
        var x = Self.margin
        for backend in backends {
            writer.element(
                "rect",
                [
                    ("x", SVGWriter.number(x)), ("y", "50"), ("width", "14"), ("height", "10"),
                    ("fill", colour(ofBackend: backend)),
                ])
            writer.element(
                "text", [("x", SVGWriter.number(x + 18)), ("y", "59"), ("font-size", "11")], content: backend)
            x += 80
        }
        writer.element(
            "line",
            [
                ("x1", SVGWriter.number(x)), ("y1", "55"), ("x2", SVGWriter.number(x + 14)), ("y2", "55"),
                ("stroke", "#d62728"), ("stroke-width", "2"),
            ])
        writer.element(
            "text", [("x", SVGWriter.number(x + 18)), ("y", "59"), ("font-size", "11")],
            content: "memory-copy ceiling at the kernel's bytes per layer")
    }

    /// A caption, then one `ScalingPanel` per kernel over `values` (threads or sizes).
    private func writeScaling(
        _ writer: inout SVGWriter, top: Double, axis: String, values: [Int], key: @escaping (ChartReport.Result) -> Int?
    ) {
        let fixed = axis == "threads" ? "at \(layers) layers" : "on \(threads) thread\(threads == 1 ? "" : "s")"
        writer.element(
            "text",
            [
                ("x", SVGWriter.number(Self.margin)), ("y", SVGWriter.number(top + 16)), ("font-size", "13"),
                ("font-weight", "bold"),
            ],
            content: "Scaling with \(axis), \(fixed)")
        writer.open("g", [("id", "scaling-\(axis)")])
        for (index, kernel) in kernels.enumerated() {
            let panel = ScalingPanel(
                chart: self, kernel: kernel, axis: axis, values: values, key: key,
                left: Self.margin + Double(index % ScalingPanel.columns) * ScalingPanel.width,
                top: top + 24 + Double(index / ScalingPanel.columns) * ScalingPanel.height)
            panel.write(&writer)
        }
        writer.close()
    }
}
