import Foundation

/// `batchbench compare OLD.json NEW.json [--threshold PERCENT]`: the change of every
/// result present in both reports; exit 1 when any got slower than the threshold.
enum CompareCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var files: [String] = []
        var threshold = 10.0
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" {
                writeStandardOutput(helpText)
                return 0
            }
            if argument == "--threshold" || argument.hasPrefix("--threshold=") {
                let text: String
                if let equals = argument.firstIndex(of: "=") {
                    text = String(argument[argument.index(after: equals)...])
                } else {
                    guard index < arguments.count else { return usage("--threshold needs a value (a percentage)") }
                    text = arguments[index]
                    index += 1
                }
                guard let value = Double(text.hasSuffix("%") ? String(text.dropLast()) : text), value.isFinite,
                    value >= 0
                else {
                    return usage("--threshold: expected a percentage >= 0, got '\(text)'")
                }
                threshold = value
            } else if argument.hasPrefix("-") && argument != "-" {
                return usage("unknown option '\(argument)' (compare takes OLD.json NEW.json [--threshold PERCENT])")
            } else {
                files.append(argument)
            }
        }
        guard files.count == 2 else {
            return usage("compare needs exactly two reports, OLD.json and NEW.json (got \(files.count))")
        }
        let old: ComparedReport
        let new: ComparedReport
        do {
            old = try ComparedReport.load(files[0])
            new = try ComparedReport.load(files[1])
        } catch {
            printError("error: \(error)")
            return 2
        }
        let comparison = Comparison(old: old, new: new, thresholdPercent: threshold)
        writeStandardOutput(comparison.text())
        return comparison.regressions.isEmpty ? 0 : 1
    }

    private static func usage(_ message: String) -> Int32 {
        printError("error: \(message); see batchbench --help")
        return 2
    }
}

/// The part of a run report that compare needs; other fields are ignored, so reports
/// from later versions with more fields still compare.
struct ComparedReport: Decodable {
    struct Result: Decodable {
        var workload: String?
        var kernel: String
        var backend: String
        var layers: Int
        var threads: Int
        var layersPerSecond: Double
    }
    var results: [Result]
    var build: String?

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    static func load(_ path: String) throws(LoadError) -> ComparedReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw LoadError(description: "\(path): \(reason)")
        }
        do {
            return try JSONDecoder().decode(ComparedReport.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            throw LoadError(
                description: "\(path): not a batchbench JSON report: missing '\(pathText(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw LoadError(
                description: "\(path): not a batchbench JSON report: wrong type at '\(pathText(context.codingPath))'")
        } catch let DecodingError.valueNotFound(_, context) {
            throw LoadError(
                description: "\(path): not a batchbench JSON report: null at '\(pathText(context.codingPath))'")
        } catch {
            throw LoadError(description: "\(path): not valid JSON (make it with batchbench --format json)")
        }
    }

    private static func pathText(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
            in: CharacterSet(charactersIn: "."))
    }
}

/// The change of every result found in both reports, by workload, kernel, backend,
/// layers and threads.
struct Comparison {
    struct Row {
        var key: String
        var oldRate: Double
        var newRate: Double
        var change: Double { newRate / oldRate - 1 }
    }
    var rows: [Row] = []
    var onlyOld: [String] = []
    var onlyNew: [String] = []
    var thresholdPercent: Double
    var notes: [String] = []

    init(old: ComparedReport, new: ComparedReport, thresholdPercent: Double) {
        self.thresholdPercent = thresholdPercent
        func key(_ r: ComparedReport.Result) -> String {
            "\(r.workload ?? "standard") \(r.kernel) \(r.backend) \(r.layers) layers \(r.threads) thread\(r.threads == 1 ? "" : "s")"
        }
        var newByKey: [String: ComparedReport.Result] = [:]
        for r in new.results { newByKey[key(r)] = r }
        var seen = Set<String>()
        for r in old.results {
            let k = key(r)
            seen.insert(k)
            if let n = newByKey[k] {
                rows.append(Row(key: k, oldRate: r.layersPerSecond, newRate: n.layersPerSecond))
            } else {
                onlyOld.append(k)
            }
        }
        onlyNew = new.results.map(key).filter { !seen.contains($0) }
        if old.build == "debug" || new.build == "debug" {
            notes.append("warning: a debug-build report is being compared; its numbers mean nothing")
        }
    }

    /// Results slower than the threshold.
    var regressions: [Row] { rows.filter { $0.change * 100 < -thresholdPercent } }

    func text() -> String {
        var rowsText: [[String]] = []
        for row in rows {
            let verdict =
                row.change * 100 < -thresholdPercent ? "SLOWER" : (row.change * 100 > thresholdPercent ? "faster" : "")
            rowsText.append([
                row.key, TableFormatter.si(row.oldRate), TableFormatter.si(row.newRate),
                String(format: "%+.1f%%", row.change * 100), verdict,
            ])
        }
        var out = TableFormatter.table(
            headers: ["result", "old layers/s", "new layers/s", "change", ""],
            rows: rowsText, rightAligned: [1, 2, 3])
        for k in onlyOld { out += "only in OLD: \(k)\n" }
        for k in onlyNew { out += "only in NEW: \(k)\n" }
        for note in notes { out += note + "\n" }
        if rows.isEmpty { out += "no result appears in both reports\n" }
        let slower = regressions.count
        out +=
            slower == 0
            ? "no result slower than \(formatPercent(thresholdPercent))% (\(rows.count) compared)\n"
            : "\(slower) of \(rows.count) results slower than \(formatPercent(thresholdPercent))%\n"
        return out
    }

    private func formatPercent(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
