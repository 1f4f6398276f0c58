// batchbench: BatchGeometry's command-line tool.
//   batchbench [run] [options]      throughput report (the default)
//   batchbench eval SCENE.json      evaluate a scene file (SCENE-FORMAT.md)
//   batchbench render SCENE.json    draw a scene as SVG (or, with --timing-function or --spring, a curve chart)
//   batchbench compare OLD NEW      compare two JSON reports
//   batchbench show REPORT.json     print a saved JSON report as a table, Markdown or SVG charts

import BatchGeometry
import BatchGeometryPictures

// A mistyped BATCHGEOMETRY_* variable is a usage error, reported before any work (the
// library itself would stop at the first kernel call).
if let problem = KernelOptions.environmentProblem {
    printError("error: \(problem)")
    exitProcess(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "run"
if arguments.first == command { arguments.removeFirst() }

switch command {
case "eval":
    exitProcess(EvalCommand.run(arguments))
case "render":
    exitProcess(RenderCommand.run(arguments, io: .process))
case "compare":
    exitProcess(CompareCommand.run(arguments))
case "show":
    exitProcess(ShowCommand.run(arguments))
case "run":
    exitProcess(RunCommand.run(arguments))
case "help":
    exitProcess(RunCommand.run(["--help"]))
default:
    printError(
        "error: unknown command '\(command)' (expected run, eval, render, compare or show; see batchbench --help)")
    exitProcess(2)
}
