import Foundation

/// `batchbench show REPORT.json [--format table|markdown|csv]`: prints a saved JSON
/// report again, e.g. as the Markdown table Benchmarks/README.md holds.
enum ShowCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var file: String?
        var format = OutputFormat.table
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--help", "-h":
                writeStandardOutput(helpText)
                return 0
            case "--format":
                guard index < arguments.count, let chosen = OutputFormat(rawValue: arguments[index]) else {
                    printError("error: --format: expected table, markdown, csv or json; see batchbench --help")
                    return 2
                }
                format = chosen
                index += 1
            default:
                if argument.hasPrefix("-") && argument != "-" || file != nil {
                    printError(
                        "error: unexpected argument '\(argument)' (show takes REPORT.json [--format FORMAT]); see batchbench --help"
                    )
                    return 2
                }
                file = argument
            }
        }
        guard let file else {
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
        switch format {
        case .table: writeStandardOutput(TableFormatter.text(report))
        case .markdown: writeStandardOutput(TableFormatter.text(report, markdown: true))
        case .csv: writeStandardOutput(report.csvText())
        case .json:
            guard let text = try? report.jsonText() else { return 1 }
            writeStandardOutput(text)
        }
        return 0
    }
}
