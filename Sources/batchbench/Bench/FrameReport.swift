import AllocationCounter
import BatchGeometry
import BatchGeometryWorkloads

#if canImport(Glibc)
import Glibc
#endif

/// The frame kernels' detail (`BenchReport.FrameDetail`) from their frames, and its text.
enum FrameReport {
    static func detail(_ frames: [FrameFixture.Times], mode: FrameScriptMode, viewport: Rect, animations: Int? = nil)
        -> BenchReport.FrameDetail
    {
        func median(_ value: (FrameFixture.Times) -> Double) -> Double { medianOf(frames.map(value)) }
        func medianCount(_ value: (FrameFixture.Times) -> Int) -> Int { Int(median { Double(value($0)) }) }
        // The old path's steps over the frames it ran on (`--check-every`).
        let checked = frames.filter(\.checked)
        func oldMedian(_ value: (FrameFixture.Times) -> Double) -> Double { medianOf(checked.map(value)) }
        let old = BenchReport.FrameDetail.OldPath(
            updateWorldSeconds: oldMedian(\.updateWorld),
            rectsClipsVisibilitySeconds: oldMedian(\.rectsClipsVisibility), hitTestSeconds: oldMedian(\.hitTest),
            drawOrderSeconds: oldMedian(\.drawOrder), totalSeconds: oldMedian(\.oldTotal))
        let new = BenchReport.FrameDetail.NewPath(
            visibleLayersSeconds: median(\.visibleLayers), hitTestSeconds: median(\.culledHitTests),
            totalSeconds: median(\.newTotal))
        var detail = BenchReport.FrameDetail(
            frames: frames.count, viewport: [viewport.x, viewport.y, viewport.width, viewport.height],
            touches: FrameScript.touchCount, changedLayers: medianCount(\.changed),
            visibleLayers: medianCount(\.visible), visitedLayers: medianCount(\.visited),
            old: old, new: new, speedup: old.totalSeconds / new.totalSeconds)
        detail.checkedFrames = checked.count
        detail.script = animations == nil ? mode.rawValue : "\(mode.rawValue)+animations"
        if let animations {
            detail.animations = animations
            detail.animationTime = distribution(frames.map(\.animation))
            detail.animationParts = [
                "restore": median(\.restore), "modelEdits": median(\.modelEdits), "sample": median(\.sample),
                "apply": median(\.apply),
                // A count, not seconds: the animations the sample culled (frame-animated).
                "culled": Double(medianCount(\.culled)),
            ]
        }
        detail.frameTime = distribution(frames.map(\.frameTotal))
        detail.queryTime = distribution(frames.map(\.newTotal))
        detail.editTime = distribution(frames.map(\.edits))
        detail.allocations = allocations(frames)
        detail.testedSublayers = medianCount(\.tested)
        detail.refreshedLayers = medianCount(\.refreshed)
        detail.rebuiltIndexes = medianCount(\.rebuiltIndexes)
        detail.rebuiltIndexEntries = medianCount(\.rebuiltIndexEntries)
        detail.slotsFirst = frames.first?.slots
        detail.slotsLast = frames.last?.slots
        detail.stalls = stalls(frames, median: detail.frameTime?.medianSeconds ?? 0)
        dumpFrames(frames, script: detail.script ?? mode.rawValue)
        return detail
    }

    /// With `BATCHBENCH_FRAME_TIMES=1`, one line a frame on standard error (times in µs):
    /// the slow frames' edits, query and cost counters, allocations and minor page
    /// faults, to find what makes them slow.
    private static func dumpFrames(_ frames: [FrameFixture.Times], script: String) {
        guard getenv("BATCHBENCH_FRAME_TIMES") != nil else { return }
        func us(_ s: Double) -> Int { Int((s * 1e6).rounded()) }
        var out =
            "frame-times \(script): frame total edits query hits changed refreshed visited tested rebuilt allocs faults"
        for f in frames {
            let values = [
                f.frame, us(f.frameTotal), us(f.edits), us(f.visibleLayers), us(f.culledHitTests), f.changed,
                f.refreshed, f.visited, f.tested, f.rebuiltIndexEntries, f.allocations, f.pageFaults,
            ]
            out += "\nframe-times \(script): " + values.map(String.init).joined(separator: " ")
        }
        printError(out)
    }

    /// Median, 99th percentile (nearest rank), maximum and first of `values`.
    static func distribution(_ values: [Double]) -> BenchReport.FrameDetail.Distribution {
        let sorted = values.sorted()
        let rank = Swift.max(0, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)
        return .init(
            medianSeconds: medianOf(values), p99Seconds: sorted.isEmpty ? 0 : sorted[rank],
            maxSeconds: sorted.last ?? 0, firstSeconds: values.first ?? 0)
    }

    private static func allocations(_ frames: [FrameFixture.Times]) -> BenchReport.FrameDetail.Allocations {
        let rest = frames.dropFirst()
        func mean(_ values: [Int]) -> Double { values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count) }
        return .init(
            counted: BGAllocationCounterIsActive() != 0,
            medianPerFrame: medianOf(frames.map { Double($0.allocations) }),
            meanPerFrame: mean(frames.map(\.allocations)), maxPerFrame: frames.map(\.allocations).max() ?? 0,
            firstFrame: frames.first?.allocations ?? 0,
            editsMeanAfterFirst: mean(rest.map(\.editAllocations)),
            animationMeanAfterFirst: mean(rest.map(\.animationAllocations)),
            queriesMeanAfterFirst: mean(rest.map(\.queryAllocations)),
            framesWithAllocations: frames.filter { $0.allocations > 0 }.count)
    }

    private static func stalls(_ frames: [FrameFixture.Times], median: Double) -> [BenchReport.FrameDetail.Stall] {
        frames.filter { $0.frameTotal > 3 * median }.sorted { $0.frameTotal > $1.frameTotal }.prefix(20).map {
            .init(
                frame: $0.frame, seconds: $0.frameTotal, allocations: $0.allocations, slots: $0.slots,
                editSeconds: $0.edits, querySeconds: $0.newTotal, refreshedLayers: $0.refreshed,
                rebuiltIndexes: $0.rebuiltIndexes, rebuiltIndexEntries: $0.rebuiltIndexEntries)
        }
    }

    // MARK: Text

    /// The issue-22 sections of the text report: the scripts side by side, the soaks.
    static func sections(_ report: BenchReport, markdown: Bool) -> String {
        var out = ""
        let bullet = markdown ? "- " : ""
        if let live = liveTable(report, markdown: markdown) {
            out +=
                "\n" + bullet
                + "Frames of the scripts (issue 22), over every timed frame: frame = the script's edits + visibleLayers(in:into:) + 5 culled hit tests; p99 nearest rank; first = the first frame after warmUp(); allocations on every thread (mean, max); visited/tested/refreshed/index rebuilds: medians of the cost counters; stalls = frames over 3× the median:\n"
            out += live
        }
        let animated = animatedLines(report)
        if !animated.isEmpty {
            out +=
                "\n" + bullet
                + "Frames with animations (frame-animated: the sample culled to the viewport; frame-animated-unculled: every animation sampled; issue 23): animation = keep the previous sample (restore: a swap) + the model's edits + sample + updatePresentation(from:to:model:) (apply: the restore and the apply in one pass); ratio = its frame time over frame's, same run:\n"
            for line in animated { out += (markdown ? "  - " : "  ") + line + "\n" }
        }
        let soaks = soakLines(report)
        if !soaks.isEmpty {
            out += "\n" + bullet + "Soak (--soak), resident memory from /proc/self/statm:\n"
            for soak in soaks { out += (markdown ? "  - " : "  ") + soak + "\n" }
        }
        return out
    }

    /// The frame results with issue 22's detail, one row each, the scripts of a workload
    /// and size side by side.
    static func liveTable(_ report: BenchReport, markdown: Bool) -> String? {
        let rows = report.results.filter { $0.frame?.frameTime != nil }
        guard !rows.isEmpty else { return nil }
        let headers = [
            "workload", "layers", "script", "frame med", "frame p99", "frame max", "first", "queries med",
            "queries p99",
            "edits med",
            "allocs/frame", "visited", "tested", "refreshed", "index rebuilds", "stalls",
        ]
        let cells = rows.map { liveRow($0, $0.frame!) }
        let right = Set(1..<headers.count).subtracting([2])
        return markdown
            ? TableFormatter.markdownTable(headers: headers, rows: cells, rightAligned: right)
            : TableFormatter.table(headers: headers, rows: cells, rightAligned: right)
    }

    private static func liveRow(_ r: BenchReport.Result, _ f: BenchReport.FrameDetail) -> [String] {
        let d = TableFormatter.duration
        let frame = f.frameTime!
        let query = f.queryTime!
        let allocs = f.allocations.map {
            $0.counted ? String(format: "%.1f (max %d)", $0.meanPerFrame, $0.maxPerFrame) : "not counted"
        }
        let stalls = (f.stalls ?? []).prefix(3).map { "#\($0.frame) \(d($0.seconds))" }
        return [
            r.workload, TableFormatter.si(Double(r.layers)), f.script ?? "still", d(frame.medianSeconds),
            d(frame.p99Seconds), d(frame.maxSeconds), d(frame.firstSeconds), d(query.medianSeconds),
            d(query.p99Seconds), d(f.editTime?.medianSeconds ?? 0), allocs ?? "-", String(f.visitedLayers),
            f.testedSublayers.map(String.init) ?? "-", f.refreshedLayers.map(String.init) ?? "-",
            "\(f.rebuiltIndexes ?? 0) (\(f.rebuiltIndexEntries ?? 0) entries)",
            stalls.isEmpty ? "none" : stalls.joined(separator: ", ") + ((f.stalls?.count ?? 0) > 3 ? ", …" : ""),
        ]
    }

    /// One line per frame-animated result.
    static func animatedLines(_ report: BenchReport) -> [String] {
        let d = TableFormatter.duration
        return report.results.compactMap { r in
            guard let f = r.frame, let count = f.animations, let frame = f.frameTime, let step = f.animationTime
            else { return nil }
            let ratio = f.ratioToStill.map {
                String(format: "%.2f× median, %.2f× p99, %.2f× max", $0.median, $0.p99, $0.max)
            }
            let parts = ["restore", "modelEdits", "sample", "apply"].map { "\($0) \(d(f.animationParts?[$0] ?? 0))" }
                .joined(separator: ", ")
            let allocations = f.allocations.map { String(format: "%.1f allocations a frame", $0.meanPerFrame) }
            let culled = Int(f.animationParts?["culled"] ?? 0)
            return "\(r.kernel): \(r.workload) \(TableFormatter.si(Double(r.layers))) layers, \(count) animations "
                + "(\(culled) culled, median): frame "
                + "\(d(frame.medianSeconds)) / p99 \(d(frame.p99Seconds)) / max \(d(frame.maxSeconds)); animation "
                + "\(d(step.medianSeconds)) / p99 \(d(step.p99Seconds)) (\(parts)); queries \(d(f.queryTime?.medianSeconds ?? 0)), "
                + "\(f.refreshedLayers ?? 0) refreshed; ratio to frame: \(ratio ?? "no frame result")"
                + "; \(allocations ?? "allocations not counted")"
        }
    }

    /// One line per soak run.
    static func soakLines(_ report: BenchReport) -> [String] {
        (report.soak ?? []).map { s in
            let mb = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1e6) }
            let after = s.residentBytesAfter1000.map { ", after 1,000 frames \(mb($0))" } ?? ""
            let d = TableFormatter.duration
            return "\(s.workload) \(TableFormatter.si(Double(s.layers))) layers, \(s.frames) \(s.script) frames: "
                + "resident \(mb(s.residentBytesStart)) at the start\(after), \(mb(s.residentBytesEnd)) at the end; "
                + "slots \(s.slotsStart) → \(s.slotsEnd), live layers \(s.layersStart) → \(s.layersEnd); "
                + "frame \(d(s.frameTime.medianSeconds)) / p99 \(d(s.frameTime.p99Seconds)) / max "
                + "\(d(s.frameTime.maxSeconds)); \(String(format: "%.1f", s.allocationsMeanPerFrame)) allocations a "
                + "frame; last frame \(s.verified ? "matched the full passes" : "DID NOT match the full passes")"
        }
    }
}
