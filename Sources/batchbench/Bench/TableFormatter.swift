import Foundation

/// The human-readable report (the default output of `batchbench run`).
enum TableFormatter {
    /// One line per object-graph baseline.
    static func baselineLines(_ report: BenchReport) -> [String] {
        report.baselines.map { b in
            let unit = b.kernel == BenchKernel.animations.rawValue ? "samples/s" : "layers/s"
            let check = b.verified == false ? " (DISAGREES with the store)" : ""
            return
                "\(b.workload) \(b.kernel) \(si(Double(b.layers))) layers: \(duration(b.medianSeconds)), \(si(b.layersPerSecond)) \(unit)\(check)"
        }
    }

    /// The report as aligned plain text, or (`markdown`) as a Markdown table with the same
    /// columns, for pasting into Benchmarks/README.md.
    static func text(_ report: BenchReport, markdown: Bool = false) -> String {
        let kernelsRun = BenchKernel.allCases.filter { kernel in
            report.results.contains { $0.kernel == kernel.rawValue }
        }
        var out = ""
        // In Markdown every text line is a list item, so lines do not run together.
        func line(_ s: String = "") {
            if markdown && !s.isEmpty {
                let indent = s.prefix { $0 == " " }
                out += indent + "- " + s.dropFirst(indent.count) + "\n"
            } else {
                out += s + "\n"
            }
        }
        let m = report.machine
        line("batchbench: BatchGeometry throughput (\(report.build) build, \(report.date))")
        line("CPU: \(m.cpu), \(m.cores) cores, \(m.architecture); C backend: \(m.cBackend)")
        let ceilings = report.ceiling.measurements.filter { $0.bytesPerLayer == report.ceiling.bytesPerLayer }.map {
            "\(si(Double($0.layers))) layers × \($0.threads) thread\($0.threads == 1 ? "" : "s"): \(gigabytes($0.copyBytesPerSecond)) GB/s"
        }
        line(
            "Memory ceiling (copy loop, \(report.ceiling.bytesPerLayer) bytes read + written per layer): "
                + ceilings.joined(separator: "; "))
        line("(each kernel's % of ceiling is against a copy of its own bytes per layer at its size and threads)")
        line()
        let headers = [
            "workload", "kernel", "backend", "layers", "threads", "median", "spread", "layers/s", "GB/s", "of ceiling",
            "vs objects", "vs scalar", "check",
        ]
        var rows: [[String]] = []
        for r in report.results {
            rows.append([
                r.workload, r.kernel, r.backend, si(Double(r.layers)), String(r.threads),
                duration(r.medianSeconds), String(format: "±%.0f%%", spreadPercent(r)),
                si(r.layersPerSecond), String(format: "%.2f", r.bytesPerSecond / 1e9),
                String(format: "%.0f%%", r.ceilingFraction * 100),
                r.speedupOverObjectGraph.map { String(format: "%.1f×", $0) } ?? "-",
                r.speedupOverScalar.map { String(format: "%.2f×", $0) } ?? "-",
                r.verified.map { $0 ? "ok" : "WRONG" } ?? "-",
            ])
        }
        out +=
            markdown
            ? markdownTable(headers: headers, rows: rows, rightAligned: Set(3..<headers.count - 1))
            : table(headers: headers, rows: rows, rightAligned: Set(3..<headers.count - 1))
        if !report.baselines.isEmpty {
            line()
            line(
                "Object-graph baseline (one class instance per layer, superlayer reference; animations: one animator object per animation; 1 thread):"
            )
            for text in baselineLines(report) { line("  " + text) }
        }
        let incremental = incrementalRatios(report)
        if !incremental.isEmpty {
            line()
            line(
                "1%-dirty update (world-incremental) against the full passes of the same run (their median over its median):"
            )
            for ratio in incremental { line("  " + ratio) }
        }
        let frames = frameLines(report)
        if !frames.isEmpty {
            line()
            line(Self.framesHeading)
            for frame in frames { line("  " + frame) }
        }
        out += FrameReport.sections(report, markdown: markdown)
        let singlePoints = singlePointRatios(report)
        if !singlePoints.isEmpty {
            line()
            line("One hit-test point (median over points), the snapshot walk against the culled walk:")
            for ratio in singlePoints { line("  " + ratio) }
        }
        let notes = kernelsRun.compactMap(\.unitNote)
        if !notes.isEmpty {
            line()
            for note in notes { line("Note: " + note) }
            let hitTests = Set(
                report.results.filter { $0.kernel == BenchKernel.hitTest.rawValue }
                    .map { "\($0.points ?? 0) points per call at \(si(Double($0.layers))) layers" })
            if !hitTests.isEmpty { line("Note: hit-test used " + hitTests.sorted().joined(separator: ", ")) }
        }
        line(
            "Median of the samples; spread = ± their median absolute deviation; check = the output matched the scalar reference. Bytes per layer: Benchmarks/README.md."
        )
        return out
    }

    private static let framesHeading =
        "Frames, median per frame (old: updateWorld + worldRects/clipRects/visibility + hitTest(points:in:) + drawOrder; new: visibleLayers(in:into:) + culled hitTest(_:rule:) per touch):"

    /// For every world-incremental result, how many times faster it is than the
    /// world-full-update (the full pass `updateWorld` falls back to) and the world (the
    /// per-frame pass over cached locals) results with the same workload, backend, size
    /// and threads, where those were measured.
    static func incrementalRatios(_ report: BenchReport) -> [String] {
        report.results.filter { $0.kernel == BenchKernel.worldIncremental.rawValue }.compactMap { r in
            func ratio(_ kernel: BenchKernel) -> String? {
                guard
                    let other = report.results.first(where: {
                        $0.kernel == kernel.rawValue && $0.workload == r.workload && $0.backend == r.backend
                            && $0.layers == r.layers && $0.threads == r.threads
                    })
                else { return nil }
                return String(
                    format: "%@ %@ (%.1f×)", kernel.rawValue, duration(other.medianSeconds),
                    other.medianSeconds / r.medianSeconds)
            }
            let ratios = [ratio(.worldFullUpdate), ratio(.world)].compactMap { $0 }
            guard !ratios.isEmpty else { return nil }
            return
                "\(r.workload) \(r.backend) \(si(Double(r.layers))) layers \(r.threads) thread\(r.threads == 1 ? "" : "s"): "
                + "\(duration(r.medianSeconds)); " + ratios.joined(separator: ", ")
        }
    }

    /// For every frame result: both paths' steps, their totals, the speed-up, and what
    /// the frame query saw.
    static func frameLines(_ report: BenchReport) -> [String] {
        report.results.compactMap { r in
            guard let f = r.frame else { return nil }
            let o = f.old
            let n = f.new
            return
                "\(r.workload) \(r.kernel) \(r.backend) \(si(Double(r.layers))) layers \(r.threads) thread\(r.threads == 1 ? "" : "s"): "
                + "old \(duration(o.totalSeconds)) (updateWorld \(duration(o.updateWorldSeconds)), rects+clips+visibility "
                + "\(duration(o.rectsClipsVisibilitySeconds)), hitTest \(f.touches) points \(duration(o.hitTestSeconds)), "
                + "drawOrder \(duration(o.drawOrderSeconds))); new \(duration(n.totalSeconds)) (visibleLayers "
                + "\(duration(n.visibleLayersSeconds)), \(f.touches) hitTests \(duration(n.hitTestSeconds))); "
                + "\(ratioText(f.speedup)) faster; "
                + "\(f.visibleLayers) visible, \(f.visitedLayers) visited, \(f.changedLayers) changed a frame, \(f.frames) frames"
                + (f.checkedFrames.map { $0 < f.frames ? " (\($0) checked)" : "" } ?? "")
        }
    }

    /// For every hit-test-culled result, the hit-test-point result of the same workload
    /// and size: one point each way and the ratio.
    static func singlePointRatios(_ report: BenchReport) -> [String] {
        report.results.filter { $0.kernel == BenchKernel.hitTestCulled.rawValue }.compactMap { culled in
            guard
                let snapshot = report.results.first(where: {
                    $0.kernel == BenchKernel.hitTestPoint.rawValue && $0.workload == culled.workload
                        && $0.layers == culled.layers
                })
            else { return nil }
            return "\(culled.workload) \(si(Double(culled.layers))) layers: snapshot walk "
                + "\(duration(snapshot.medianSeconds)), culled \(duration(culled.medianSeconds)) "
                + "(\(ratioText(snapshot.medianSeconds / culled.medianSeconds)))"
        }
    }

    /// `12×`, `3.4×`, `0.52×`: three significant digits at most, none after the point
    /// from 10 on.
    static func ratioText(_ ratio: Double) -> String {
        String(format: ratio >= 10 ? "%.0f×" : (ratio >= 1 ? "%.1f×" : "%.2f×"), ratio)
    }

    private static func spreadPercent(_ r: BenchReport.Result) -> Double {
        r.medianSeconds > 0 ? r.madSeconds / r.medianSeconds * 100 : 0
    }

    /// `value` with an SI prefix: 950, 12.3k, 4.56M, 1.23G.
    static func si(_ value: Double) -> String {
        let prefixes: [(Double, String)] = [(1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]
        for (scale, prefix) in prefixes where abs(value) >= scale {
            let scaled = value / scale
            return formatSignificant(scaled) + prefix
        }
        return formatSignificant(value)
    }

    private static func formatSignificant(_ value: Double) -> String {
        let text: String
        if abs(value) >= 100 {
            text = String(format: "%.0f", value)
        } else if abs(value) >= 10 {
            text = String(format: "%.1f", value)
        } else {
            text = String(format: "%.2f", value)
        }
        // 100k rather than 100.0k for round sizes.
        if text.contains(".") {
            var trimmed = text
            while trimmed.hasSuffix("0") { trimmed.removeLast() }
            if trimmed.hasSuffix(".") { trimmed.removeLast() }
            return trimmed
        }
        return text
    }

    static func gigabytes(_ bytesPerSecond: Double) -> String { String(format: "%.1f", bytesPerSecond / 1e9) }

    /// Seconds with a readable unit: 850 ns, 12.3 µs, 4.56 ms, 1.23 s.
    static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.2f s", seconds) }
        if seconds >= 1e-3 { return String(format: "%.3g ms", seconds * 1e3) }
        if seconds >= 1e-6 { return String(format: "%.3g µs", seconds * 1e6) }
        return String(format: "%.3g ns", seconds * 1e9)
    }

    /// A GitHub-flavoured Markdown table.
    static func markdownTable(headers: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
        var out = "| " + headers.joined(separator: " | ") + " |\n"
        out += "|" + headers.indices.map { rightAligned.contains($0) ? " ---: |" : " --- |" }.joined() + "\n"
        for row in rows { out += "| " + row.joined(separator: " | ") + " |\n" }
        return out
    }

    /// Columns padded to their widest cell.
    static func table(headers: [String], rows: [[String]], rightAligned: Set<Int>) -> String {
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = Swift.max(widths[i], cell.count) } }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        var out = render(headers) + "\n"
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { out += render(row) + "\n" }
        return out
    }
}
