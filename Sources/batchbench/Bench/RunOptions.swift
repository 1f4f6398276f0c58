@_spi(Testing) import BatchGeometry
import BatchGeometryWorkloads
import Foundation

/// What `batchbench run` measures, parsed by hand from the command line (no package
/// dependencies). Every list option takes comma-separated values.
struct RunOptions {
    var kernels: [BenchKernel] = BenchKernel.defaultKernels
    /// nil: the library's default, each kernel on its measured best ("auto").
    var backends: [Backend?] = RunOptions.allBackends
    var layerCounts: [Int] = [100_000]
    var threadCounts: [Int] = RunOptions.defaultThreadCounts
    var workloads: [WorkloadShape] = [.standard]
    /// Seconds of sampling per measurement (after the warm-up).
    var minTime = 0.3
    /// Points per hit-test call; nil = `hitTestPointCount(layers:)`'s automatic choice.
    var hitTestPoints: Int?
    var seed: UInt64 = 42
    /// `--frames N`: the frame kernels time exactly N frames (nil: by `minTime`).
    var frameCount: Int?
    /// `--soak N`: N live frames of each app workload after its kernels (0: none).
    var soakFrames = 0
    /// `--check-every N`: the frame kernels run the old path (full passes) and check the
    /// new path against it on every Nth frame only (frames N, 2N, …) and on the last frame
    /// timed (1: every frame, the default).
    var checkEvery = 1
    var format = OutputFormat.table
    var measureBaseline = true
    var showProgress = true
    var showHelp = false

    /// Points per hit-test call at `layers` layers: `--points`, else 10,000 capped so a
    /// call makes at most 10 million layer tests (100 points at 100,000 layers; a call
    /// costs points × layers, about a third of a second at that cap on one core).
    func hitTestPointCount(layers: Int) -> Int {
        hitTestPoints ?? Swift.max(1, Swift.min(10_000, 10_000_000 / layers))
    }

    /// "auto" (the default each kernel runs on) and every backend forced in turn.
    static let allBackends: [Backend?] = [nil] + Backend.allCases.map { $0 }

    /// 1 and every processor this machine has (just 1 on a single-core machine).
    static var defaultThreadCounts: [Int] { activeProcessorCount > 1 ? [1, activeProcessorCount] : [1] }

    static let optionNames = [
        "--kernels", "--backends", "--layers", "--threads", "--workload", "--min-time",
        "--points", "--seed", "--format", "--no-baseline", "--quiet", "--help", "--frames", "--soak",
        "--check-every",
    ]

    /// Parses `arguments`; the error text names the option and the bad value.
    static func parse(_ arguments: [String]) throws(UsageError) -> RunOptions {
        var options = RunOptions()
        var index = 0
        while index < arguments.count {
            var name = arguments[index]
            var inlineValue: String?
            if name.hasPrefix("--"), let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            index += 1
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                defer { index += 1 }
                return arguments[index]
            }
            switch name {
            case "--kernels", "--kernel":
                options.kernels = try parseCases(try value(), name, noun: "kernel")
            case "--backends", "--backend":
                options.backends = try parseList(try value(), name) { (text) throws(UsageError) -> [Backend?] in
                    if text == "all" { return allBackends }
                    if text == "auto" { return [nil] }
                    guard let backend = Backend(rawValue: text) else {
                        throw UsageError("\(name): unknown backend '\(text)' (expected auto, scalar, simd, c or all)")
                    }
                    return [backend]
                }
            case "--layers":
                options.layerCounts = try parseList(try value(), name) { (text) throws(UsageError) in
                    [try parseCount(text, name, minimum: 1)]
                }
            case "--threads":
                options.threadCounts = try parseList(try value(), name) { (text) throws(UsageError) in
                    if text == "max" { return [activeProcessorCount] }
                    return [try parseCount(text, name, minimum: 1, example: "1,2,4 or max")]
                }
            case "--workload", "--workloads":
                options.workloads = try parseCases(try value(), name, noun: "workload")
            case "--min-time":
                options.minTime = try parseSeconds(try value())
            case "--points":
                options.hitTestPoints = try parseCount(try value(), name, minimum: 1, example: "100 or 10k")
            case "--seed":
                options.seed = try parseSeed(try value())
            case "--format":
                let text = try value()
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError("--format: expected table, json, csv, markdown or svg, got '\(text)'")
                }
                options.format = format
            case "--frames":
                options.frameCount = try parseCount(try value(), name, minimum: 1, example: "400 or 1k")
            case "--soak":
                options.soakFrames = try parseCount(try value(), name, minimum: 1, example: "1000 or 100k")
            case "--check-every":
                options.checkEvery = try parseCount(try value(), name, minimum: 1, example: "1 or 100")
            case "--no-baseline":
                options.measureBaseline = false
            case "--quiet", "-q":
                options.showProgress = false
            case "--help", "-h":
                options.showHelp = true
            default:
                if name.hasPrefix("-") {
                    var message = "unknown option '\(name)'"
                    if let guess = closestOption(to: name) { message += "; did you mean '\(guess)'?" }
                    throw UsageError(message + " (see batchbench --help)")
                }
                throw UsageError("unexpected argument '\(name)' (run takes only options; see batchbench --help)")
            }
        }
        try options.validate()
        return options
    }

    /// Option combinations that cannot run.
    private func validate() throws(UsageError) {
        if soakFrames > 0 && !workloads.contains(.app) {
            throw UsageError("--soak runs the app workload's live frames: add --workload app")
        }
    }

    private static func parseSeconds(_ text: String) throws(UsageError) -> Double {
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
            throw UsageError("--min-time: expected seconds (a number >= 0), got '\(text)'")
        }
        return seconds
    }

    private static func parseSeed(_ text: String) throws(UsageError) -> UInt64 {
        guard let seed = UInt64(text) else {
            throw UsageError("--seed: expected a non-negative integer, got '\(text)'")
        }
        return seed
    }

    /// A list of case names, or `all` for every case (`--kernels`, `--backends`,
    /// `--workloads`); an unknown name is an error that lists the known ones.
    private static func parseCases<T: CaseIterable & RawRepresentable & Equatable>(
        _ text: String, _ name: String, noun: String
    ) throws(UsageError) -> [T] where T.RawValue == String {
        try parseList(text, name) { (item) throws(UsageError) in
            if item == "all" { return Array(T.allCases) }
            guard let value = T(rawValue: item) else {
                let known = T.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("\(name): unknown \(noun) '\(item)' (expected \(known) or all)")
            }
            return [value]
        }
    }

    /// Splits `text` at commas, parses each item, and drops repeats (keeping order).
    private static func parseList<T: Equatable>(
        _ text: String, _ name: String,
        _ item: (String) throws(UsageError) -> [T]
    ) throws(UsageError) -> [T] {
        var result: [T] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { throw UsageError("\(name): empty item in '\(text)'") }
            for value in try item(trimmed) where !result.contains(value) { result.append(value) }
        }
        return result
    }

    /// A positive count: digits with optional `_`, or a `k`/`M` suffix (`100k`, `1M`).
    private static func parseCount(
        _ text: String, _ name: String, minimum: Int,
        example: String = "1000, 100k or 1M"
    ) throws(UsageError) -> Int {
        var digits = text.replacingOccurrences(of: "_", with: "")
        var multiplier = 1
        if digits.hasSuffix("k") || digits.hasSuffix("K") {
            multiplier = 1_000
            digits.removeLast()
        } else if digits.hasSuffix("M") || digits.hasSuffix("m") {
            multiplier = 1_000_000
            digits.removeLast()
        }
        guard let number = Int(digits), number >= minimum, number <= Int(Int32.max) / multiplier else {
            throw UsageError("\(name): expected a whole number >= \(minimum) (like \(example)), got '\(text)'")
        }
        return number * multiplier
    }

    /// The known option nearest to `name` by edit distance, if it is close.
    static func closestOption(to name: String) -> String? {
        let scored = optionNames.map { ($0, editDistance(Array(name), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return nil }
        return best.0
    }
}

enum OutputFormat: String {
    case table, json, csv, markdown, svg
}

/// A command-line mistake: printed as `error: <message>`, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for (i, ca) in a.enumerated() {
        var current = [i + 1]
        for (j, cb) in b.enumerated() {
            current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}

extension Optional where Wrapped == Backend {
    /// The name reports use: the backend's, or "auto" for the library's per-kernel choice.
    var benchName: String { self?.rawValue ?? "auto" }
}
