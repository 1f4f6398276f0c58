import AllocationCounter
import XCTest

@testable import BatchGeometry

/// The batch curve samplers allocate nothing once their result arrays have the capacity,
/// in the unoptimized build too, as a frame loop that samples its animations needs
/// (`FrameLoopAllocationTests` counts the same way and explains the counter).
final class CurveAllocationTests: XCTestCase {
    func testBatchSamplersAllocateNothingOnceWarm() throws {
        try FrameLoopAllocationTests.requireAllocationCounter()
        let functions = (0..<256).map { TimingFunction(TimingFunction.Name.allCases[$0 % 5]) }
        let springs = (0..<256).map { Spring(stiffness: 100 + Double($0), damping: Double($0 % 40)) }
        let inputs = (0..<256).map { Double($0) / 255 }
        let deceleration = ScrollDeceleration(
            offset: Point(x: 0, y: 364), velocity: Point(x: 1, y: 4.6), displayScale: 2,
            scrollRange: (x: 0...100, y: 0...5000))
        var values: [Float] = []
        var offsets: [Point] = []
        var sink: Float = 0
        for frame in 0..<4 {
            let before = BGAllocationCount()
            TimingFunction.values(of: functions, at: inputs, into: &values)
            sink += values[frame]
            functions[1].values(at: inputs, into: &values)
            sink += values[frame]
            Spring.progress(of: springs, at: inputs, into: &values)
            sink += values[frame]
            springs[2].progress(at: inputs, into: &values)
            sink += values[frame]
            deceleration.offsets(at: inputs, into: &offsets)
            sink += Float(offsets[frame].y)
            let counted = BGAllocationCount() - before
            if frame > 0 { XCTAssertEqual(counted, 0, "frame \(frame) allocated") }
        }
        XCTAssertFalse(sink.isNaN)
    }
}
