// `batchbench eval SCENE.json`: evaluates a scene file (SCENE-FORMAT.md) and prints
// the answers as JSON on stdout. A bad scene or unreadable input prints exactly one line
// `error: <path>: <message>` on stderr, nothing on stdout, and exits with status 2.

import BatchGeometry

enum EvalCommand {
    static let usage = """
        usage: batchbench eval SCENE.json     (or - to read the scene from stdin)

        Builds the scene's layers with BatchGeometry, applies its operations, answers its
        queries and prints one JSON document on stdout (SCENE-FORMAT.md, Output).
        The backend and threads come from BATCHGEOMETRY_BACKEND (scalar, simd, c) and
        BATCHGEOMETRY_THREADS; the output is the same for all of them.

        Exit status: 0 on success; 2 for a malformed scene or unreadable input, with one
        line 'error: <where>: <what>' on stderr and nothing on stdout.
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            writeStandardOutput(usage + "\n")
            return 0
        }
        guard arguments.count == 1 else {
            printError(
                "error: eval: expected one scene file (or - for stdin), got \(arguments.count) arguments; see batchbench eval --help"
            )
            return 2
        }
        let path = arguments[0]
        if path.hasPrefix("-") && path != "-" {
            printError("error: eval: unknown option '\(path)'; see batchbench eval --help")
            return 2
        }
        let shownPath = path == "-" ? "<stdin>" : path
        let bytes: [UInt8]
        switch readAllBytes(path: path) {
        case .success(let content): bytes = content
        case .failure(let failure):
            printError("error: \(oneLine(shownPath)): \(failure.message)")
            return 2
        }
        do {
            let scene = try Scene(json: bytes)
            let evaluation = try scene.evaluate()
            // Evaluation is complete before the first byte is written, so an error
            // never leaves partial output.
            evaluation.writeJSON { writeStandardOutputPiece($0) }
            flushStandardOutput()
            return 0
        } catch {
            printError("error: \(error.description)")
            return 2
        }
    }

    /// A file name as it can appear in the one-line error message.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
