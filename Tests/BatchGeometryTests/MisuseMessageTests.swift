import Foundation
import XCTest

@_spi(Testing) @testable import BatchGeometry

/// Misuse of the API is reported, not answered wrongly: a snapshot of another structure
/// (layers added, removed or moved since, or another store), a stale handle or another
/// store's, an index out of range. The
/// program stops with a message naming what is wrong; `misuse-messages` commits each
/// mistake in its own process, and this test reads its standard error (debug build;
/// scripts/misuse-messages.sh checks the release build, where `precondition` messages
/// would be stripped).
final class MisuseMessageTests: XCTestCase {
    /// Each case and a part of the message it must print.
    static let expectations: [(name: String, message: String)] = [
        ("stale-world-after-add", "stale WorldTransforms: it was computed for structure #"),
        ("stale-world-after-remove", "(3 layers), and the store's structure is now #"),
        ("stale-world-after-move", "layers were added, removed or moved since, or it comes from another store"),
        ("stale-world-after-detach", "and the store's structure is now #"),
        ("world-from-another-store", "stale WorldTransforms"),
        ("handle-out-of-range", "layer 3#0 is stale: this store has no slot 3 (3 slots)"),
        ("another-stores-handle-read", "layer 1#0 belongs to another store (store tag "),
        ("another-stores-handle-written", "layer 2#0 belongs to another store (store tag "),
        ("destroyed-layer-read", "layer 1#0 is stale: the layer was destroyed and its slot is free"),
        (
            "destroyed-layer-written-after-reuse",
            "layer 1#0 is stale: the layer was destroyed and slot 1 now holds generation 2"
        ),
        ("destroyed-subtree-read", "layer 2#0 is stale: the layer was destroyed and its slot is free"),
        ("world-layer-out-of-range", "layer 9 is out of range (this WorldTransforms covers 3 layers)"),
        ("stale-world-rects", "3 world rects for 4 layers"),
        ("flag-property-not-zero-or-one", "userInteractionEnabled is a flag: it takes 0 or 1, not 0.5"),
        ("c-kernel-environment", "BATCHGEOMETRY_C_KERNEL=avx9 is not a C kernel (expected "),
        ("animation-c-kernel-environment", "BATCHGEOMETRY_C_KERNEL=avx9 is not a C kernel (expected "),
        ("timing-function-count-mismatch", "values(of:at:into:): functions.count is 1, inputs.count is 2"),
        ("spring-count-mismatch", "Spring.progress(of:at:into:): springs.count is 2, times.count is 1"),
    ]

    func testEveryMistakeStopsWithItsMessage() throws {
        let binary = Bundle.main.bundleURL.appendingPathComponent("misuse-messages")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: binary.path), "no misuse-messages at \(binary.path)")
        for (name, message) in Self.expectations {
            let process = Process()
            process.executableURL = binary
            process.arguments = [name]
            let errors = Pipe()
            let output = Pipe()
            process.standardError = errors
            process.standardOutput = output
            try process.run()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertNotEqual(process.terminationStatus, 0, "\(name) was not stopped")
            XCTAssertTrue(
                stderr.contains(message), "\(name): stderr does not say \"\(message)\":\n\(stderr.prefix(600))")
        }
    }

    /// Snapshots carry the structure they were computed for; property changes keep it,
    /// structural changes replace it, and copies that change apart never share one.
    func testStructureVersions() throws {
        var store = LayerStore()
        let root = try store.addLayer()
        let child = try store.addLayer(superlayer: root)
        let world = store.updateWorld()
        XCTAssertEqual(world.structureVersion, store.hierarchy.structureVersion)
        XCTAssertEqual(store.worldTransforms().structureVersion, store.hierarchy.structureVersion)
        XCTAssertEqual(store.referenceWorldTransforms().structureVersion, store.hierarchy.structureVersion)
        var reused = WorldTransforms()
        store.computeWorldTransforms(into: &reused)
        XCTAssertEqual(reused.structureVersion, store.hierarchy.structureVersion)

        let before = store.hierarchy.structureVersion
        store.setPosition(Point(x: 5, y: 5), of: child)
        store.setBounds(Rect(x: 0, y: 0, width: 10, height: 10), of: root)
        XCTAssertEqual(store.hierarchy.structureVersion, before, "property changes keep the structure")
        XCTAssertEqual(store.hitTest(Point(x: 1, y: 1), in: world), root, "so an older snapshot is still accepted")

        var copy = store.copy()
        try store.addLayer()
        try copy.addLayer()
        XCTAssertNotEqual(store.hierarchy.structureVersion, before)
        XCTAssertNotEqual(
            store.hierarchy.structureVersion, copy.hierarchy.structureVersion, "copies changed apart differ")
        let afterAdd = store.hierarchy.structureVersion
        try store.insertSublayer(store.handle(at: 2)!, into: child)
        XCTAssertNotEqual(store.hierarchy.structureVersion, afterAdd)
        let afterMove = store.hierarchy.structureVersion
        try store.destroyLayer(2)
        XCTAssertNotEqual(store.hierarchy.structureVersion, afterMove)
        XCTAssertEqual(store.updateWorld().structureVersion, store.hierarchy.structureVersion)
    }
}
