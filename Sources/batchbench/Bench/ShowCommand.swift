import BatchGeometryPictures
import Foundation

/// `batchbench show REPORT.json [--format table|markdown|csv|json|svg]`: prints a saved
/// JSON report again, e.g. as the Markdown table Benchmarks/README.md holds, or as SVG
/// charts (`--workload`, `--layers`, `--threads` pick what the charts show).
enum ShowCommand {
    struct Options {
        var file: String?
        var format = OutputFormat.table
        var selection = ChartSelection()
    }

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(helpText)
            return 0
        }
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            printError("error: \(error)")
            return 2
        }
        guard let file = options.file else {
            printError("error: show needs a report file (REPORT.json); see batchbench --help")
            return 2
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            printError(
                "error: \(file): \(FileManager.default.fileExists(atPath: file) ? "cannot be read" : "does not exist")")
            return 2
        }
        let report: BenchReport
        do {
            report = try JSONDecoder().decode(BenchReport.self, from: data)
        } catch {
            printError("error: \(file): not a complete batchbench JSON report (\(error))")
            return 2
        }
        switch options.format {
        case .table: writeStandardOutput(TableFormatter.text(report))
        case .markdown: writeStandardOutput(TableFormatter.text(report, markdown: true))
        case .csv: writeStandardOutput(report.csvText())
        case .json:
            guard let text = try? report.jsonText() else { return 1 }
            writeStandardOutput(text)
        case .svg:
            do {
                writeStandardOutput(try BenchmarkChart.svg(report.chartReport, selection: options.selection))
            } catch {
                printError("error: \(file): \(error)")
                return 2
            }
        }
        return 0
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var index = 0
        func value(_ name: String) throws(UsageError) -> String {
            guard index < arguments.count else { throw UsageError("\(name): expected a value") }
            index += 1
            return arguments[index - 1]
        }
        func count(_ name: String) throws(UsageError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number > 0 else {
                throw UsageError("\(name): expected a positive integer, got '\(text)'")
            }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--format":
                guard let chosen = OutputFormat(rawValue: try value(argument)) else {
                    throw UsageError("--format: expected table, markdown, csv, json or svg; see batchbench --help")
                }
                options.format = chosen
            case "--workload": options.selection.workload = try value(argument)
            case "--layers": options.selection.layers = try count(argument)
            case "--threads": options.selection.threads = try count(argument)
            default:
                if argument.hasPrefix("-") && argument != "-" || options.file != nil {
                    throw UsageError(
                        "unexpected argument '\(argument)' (show takes REPORT.json [--format FORMAT] [--workload W] [--layers N] [--threads N]); see batchbench --help"
                    )
                }
                options.file = argument
            }
        }
        return options
    }
}
