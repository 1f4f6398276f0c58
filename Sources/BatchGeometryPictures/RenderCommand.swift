// `batchbench render SCENE.json [-o OUT.svg]`, with its I/O handed in so that tests can
// run it without files or a process.

import BatchGeometry

/// The `render` subcommand: reads a scene, draws it, writes the SVG to a file or to
/// standard output. The output is written only after the whole picture is drawn, so a
/// malformed scene leaves no file behind.
package enum RenderCommand {
    /// What the command does to the outside world.
    package struct IO {
        /// The bytes of a file, or of standard input for `-`; or a message why not.
        package var read: (String) -> Result<[UInt8], RenderIOError>
        /// Writes the whole text to a file (created or replaced); a message why not.
        package var writeFile: (String, String) -> RenderIOError?
        /// Writes text to standard output.
        package var writeOutput: (String) -> Void
        /// Writes one line (without its newline) to standard error.
        package var writeError: (String) -> Void

        /// I/O through the given functions.
        package init(
            read: @escaping (String) -> Result<[UInt8], RenderIOError>,
            writeFile: @escaping (String, String) -> RenderIOError?,
            writeOutput: @escaping (String) -> Void, writeError: @escaping (String) -> Void
        ) {
            self.read = read
            self.writeFile = writeFile
            self.writeOutput = writeOutput
            self.writeError = writeError
        }
    }

    /// Runs `batchbench render` with `arguments` (after the word `render`).
    ///
    /// - Returns: the exit status: 0 on success; 2 for `--help`-less usage mistakes, an
    ///   unreadable input, a malformed scene or an unwritable output, each with one line
    ///   `error: …` through `io.writeError`, and then nothing written anywhere else.
    package static func run(_ arguments: [String], io: IO) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            io.writeOutput(RenderOptions.usage + "\n")
            return 0
        }
        let parsed: (options: RenderOptions, files: [String], output: String?)
        do {
            parsed = try RenderOptions.parse(arguments)
        } catch {
            io.writeError("error: render: \(error.message)")
            return 2
        }
        if !parsed.options.curves.isEmpty {
            guard parsed.files.isEmpty else {
                io.writeError("error: render: a curve chart takes no scene file, got \(parsed.files.count)")
                return 2
            }
            return write(CurveChart.svg(parsed.options.curves, options: parsed.options), to: parsed.output, io: io)
        }
        guard parsed.files.count == 1 else {
            io.writeError(
                "error: render: expected one scene file (or - for stdin), got \(parsed.files.count); see batchbench render --help"
            )
            return 2
        }
        let path = parsed.files[0]
        let shownPath = oneLine(path == "-" ? "<stdin>" : path)
        let svg: String
        switch io.read(path) {
        case .failure(let failure):
            io.writeError("error: \(shownPath): \(failure.message)")
            return 2
        case .success(let bytes):
            do {
                if parsed.options.times.isEmpty {
                    svg = try SceneRenderer.render(json: bytes, options: parsed.options)
                } else {
                    svg = try SceneRenderer.renderPresentation(json: bytes, options: parsed.options)
                }
            } catch let error as SceneError {
                io.writeError("error: \(error.description)")
                return 2
            } catch let error as RenderUsageError {
                io.writeError("error: render: \(error.message)")
                return 2
            } catch {
                io.writeError("error: render: \(error)")
                return 2
            }
        }
        return write(svg, to: parsed.output, io: io)
    }

    /// Writes the finished picture to `output`, or to standard output when nil.
    private static func write(_ svg: String, to output: String?, io: IO) -> Int32 {
        guard let output else {
            io.writeOutput(svg)
            return 0
        }
        if let failure = io.writeFile(output, svg) {
            io.writeError("error: \(oneLine(output)): \(failure.message)")
            return 2
        }
        return 0
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

/// Why a file could not be read or written (the system's reason, one line).
package struct RenderIOError: Error, Equatable {
    /// The reason, e.g. `cannot open: No such file or directory`.
    package var message: String
    /// An error with this message.
    package init(message: String) {
        self.message = message
    }
}
