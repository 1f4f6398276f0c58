// `batchbench render` through RenderCommand with in-memory I/O: a malformed scene is one
// error line, exit status 2, and no file.

import BatchGeometry
import XCTest

@testable import BatchGeometryPictures

final class RenderCommandTests: XCTestCase {
    /// Records what the command did.
    final class Recorder {
        var files: [String: String] = [:]
        var output = ""
        var errors: [String] = []
        var inputs: [String: [UInt8]] = [:]

        var io: RenderCommand.IO {
            RenderCommand.IO(
                read: { path in
                    self.inputs[path].map { .success($0) }
                        ?? .failure(RenderIOError(message: "cannot open: No such file or directory"))
                },
                writeFile: { path, text in
                    self.files[path] = text
                    return nil
                },
                writeOutput: { self.output += $0 }, writeError: { self.errors.append($0) })
        }
    }

    func testMalformedScenesGiveOneErrorLineAndNoFile() throws {
        let malformed = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("BatchGeometryTests/Fixtures/malformed")
        let names = try FileManager.default.contentsOfDirectory(atPath: malformed.path).filter { $0.hasSuffix(".json") }
            .sorted()
        XCTAssertGreaterThan(names.count, 5)
        for name in names {
            let recorder = Recorder()
            recorder.inputs["scene.json"] = [UInt8](try Data(contentsOf: malformed.appendingPathComponent(name)))
            let status = RenderCommand.run(["scene.json", "-o", "out.svg"], io: recorder.io)
            XCTAssertEqual(status, 2, name)
            XCTAssertEqual(recorder.files.count, 0, name)
            XCTAssertEqual(recorder.output, "", name)
            XCTAssertEqual(recorder.errors.count, 1, name)
            XCTAssertTrue(recorder.errors.first?.hasPrefix("error: ") == true, name)
            XCTAssertFalse(recorder.errors.first?.contains("\n") == true, name)
        }
    }

    func testTheErrorIsEvalsMessage() throws {
        let bytes = Array(#"{"layers": [{"parent": 7}]}"#.utf8)
        let recorder = Recorder()
        recorder.inputs["s.json"] = bytes
        XCTAssertEqual(RenderCommand.run(["s.json", "-o", "out.svg"], io: recorder.io), 2)
        var expected = ""
        XCTAssertThrowsError(try Scene(json: bytes).layerCount) {
            expected = "error: \(($0 as! SceneError).description)"
        }
        XCTAssertEqual(recorder.errors, [expected])
        XCTAssertThrowsError(try SceneRenderer.render(json: bytes)) { XCTAssertTrue($0 is SceneError) }
    }

    func testMissingFileAndBadOptions() {
        let cases: [([String], String)] = [
            (["none.json"], "error: none.json: cannot open: No such file or directory"),
            ([], "error: render: expected one scene file (or - for stdin), got 0; see batchbench render --help"),
            (
                ["a.json", "--width", "9"],
                "error: render: --width: expected a number of pixels from 100 to 100000, got '9'"
            ),
            (["a.json", "--colour"], "error: render: unknown option '--colour'; see batchbench render --help"),
            (["a.json", "-o"], "error: render: -o: expected a value"),
        ]
        for (arguments, message) in cases {
            let recorder = Recorder()
            XCTAssertEqual(RenderCommand.run(arguments, io: recorder.io), 2, "\(arguments)")
            XCTAssertEqual(recorder.errors, [message])
            XCTAssertTrue(recorder.files.isEmpty)
        }
    }

    func testAGoodSceneGoesToTheFileOrToStandardOutput() throws {
        let recorder = Recorder()
        recorder.inputs["card.json"] = try fixtureBytes("render/card-flip.scene.json")
        XCTAssertEqual(RenderCommand.run(["card.json", "-o", "card.svg", "--frames"], io: recorder.io), 0)
        XCTAssertEqual(recorder.output, "")
        XCTAssertEqual(recorder.errors, [])
        var options = RenderOptions()
        options.frames = true
        XCTAssertEqual(
            recorder.files["card.svg"], try SceneRenderer.render(json: recorder.inputs["card.json"]!, options: options))
        XCTAssertEqual(RenderCommand.run(["card.json"], io: recorder.io), 0)
        XCTAssertEqual(recorder.output, try SceneRenderer.render(json: recorder.inputs["card.json"]!))
        XCTAssertEqual(recorder.files.count, 1)
    }

    func testHelpListsEveryOption() {
        let recorder = Recorder()
        XCTAssertEqual(RenderCommand.run(["--help"], io: recorder.io), 0)
        for option in [
            "-o", "--width", "--height", "--frames", "--no-labels", "--no-clips", "--no-hits", "--no-viewport",
            "--no-legend", "--omit-invisible",
        ] {
            XCTAssertTrue(recorder.output.contains(option + " "), option)
        }
    }
}
