// The C interface's debug-build checks (Sources/BatchGeometryC/DebugChecks.swift): a store
// used by two threads' calls at once, used after bg_store_destroy or destroyed twice is a
// status and a message, not a crash. `swift test` builds in debug, where they exist.

import CBatchGeometry
import Dispatch
import XCTest

@testable import BatchGeometryC

#if DEBUG
final class DebugChecksTests: XCTestCase {
    private func message() -> String { String(cString: bgLastErrorMessage()!) }

    func testUseAfterDestroyAndDestroyTwiceAreReported() {
        var store: OpaquePointer?
        XCTAssertEqual(bgStoreCreate(0, &store), bg_status(BG_OK))
        var layer: UInt64 = 0
        XCTAssertEqual(bgLayerAdd(store, noLayer, &layer), bg_status(BG_OK))
        bgStoreDestroy(store)
        var count = 7
        XCTAssertEqual(bgStoreLayerCount(store, &count), bg_status(BG_ERROR_INVALID_ARGUMENT))
        XCTAssertEqual(
            message(), "bg_store_layer_count: store \(store!) was destroyed by bg_store_destroy (a debug-build check)")
        XCTAssertEqual(count, 7)
        bgStoreDestroy(store)
        XCTAssertEqual(message(), "bg_store_destroy: store \(store!) was already destroyed (a debug-build check)")
    }

    /// Another thread's call holds the store (taken as `CStore.from` takes it): this
    /// thread's calls fail at once and change nothing; once it is given back they work.
    func testAStoreInUseByAnotherThreadIsReported() throws {
        var store: OpaquePointer?
        XCTAssertEqual(bgStoreCreate(0, &store), bg_status(BG_OK))
        defer { bgStoreDestroy(store) }
        let taken = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let address = UInt(bitPattern: store)  // Sendable, unlike the pointer
        DispatchQueue.global().async {
            _ = try? CStore.from(OpaquePointer(bitPattern: address))  // what a call does first
            taken.signal()
            done.wait()
            StoreOwnership.leave()  // what cCall does last
            taken.signal()
        }
        taken.wait()
        var layer: UInt64 = 0
        XCTAssertEqual(bgLayerAdd(store, noLayer, &layer), bg_status(BG_ERROR_INVALID_ARGUMENT))
        XCTAssertEqual(
            message(),
            "bg_layer_add: store \(store!) is in use by a call on another thread: a store is used from one thread "
                + "at a time (a debug-build check)")
        bgStoreDestroy(store)  // refused too: the other call still holds it
        XCTAssertEqual(
            message(),
            "bg_store_destroy: store \(store!) is in use by a call on another thread: a store is used from one "
                + "thread at a time (a debug-build check)")
        done.signal()
        taken.wait()
        XCTAssertEqual(bgLayerAdd(store, noLayer, &layer), bg_status(BG_OK))
        var count = 0
        XCTAssertEqual(bgStoreLayerCount(store, &count), bg_status(BG_OK))
        XCTAssertEqual(count, 1)
    }

    /// Two threads calling on one store: each call either runs alone or is refused with
    /// the message; nothing crashes, and the refused calls change nothing.
    func testTwoThreadsOnOneStoreNeverCrash() {
        var store: OpaquePointer?
        XCTAssertEqual(bgStoreCreate(0, &store), bg_status(BG_OK))
        defer { bgStoreDestroy(store) }
        var root: UInt64 = 0
        XCTAssertEqual(bgLayerAdd(store, noLayer, &root), bg_status(BG_OK))
        let added = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        defer { added.deallocate() }
        // Handed to both threads on purpose: the race is what this test is about.
        struct Shared: @unchecked Sendable {
            let store: OpaquePointer?
            let root: UInt64
            let added: UnsafeMutablePointer<Int>
        }
        let shared = Shared(store: store, root: root, added: added)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let (store, root, added) = (shared.store, shared.root, shared.added)
            var ok = 0
            for _ in 0..<2000 {
                var layer: UInt64 = 0
                let status = bgLayerAdd(store, root, &layer)
                if status == bg_status(BG_OK) {
                    ok += 1
                } else {
                    XCTAssertEqual(status, bg_status(BG_ERROR_INVALID_ARGUMENT))
                }
                _ = bgStoreUpdateWorld(store)
            }
            added[thread] = ok
        }
        var count = 0
        XCTAssertEqual(bgStoreLayerCount(store, &count), bg_status(BG_OK))
        XCTAssertEqual(count, 1 + added[0] + added[1])
    }
}
#endif
