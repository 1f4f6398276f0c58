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

/// Sampling a mix of animations (a timing-function position, a spring scale, a
/// three-segment keyframe, UIKit's additive bounds pair, a whole transform) allocates
/// nothing once warm: after two samples (the first grows the presentation values and the
/// store's scratch; the second still pays one-time runtime costs, about 40 allocations in
/// this unoptimized build, whatever the number of animations).
final class AnimationAllocationTests: XCTestCase {
    func testWarmSamplesAllocateNothing() throws {
        try FrameLoopAllocationTests.requireAllocationCounter()
        var model = LayerStore()
        let root = try model.addLayer()
        var animations = AnimationStore()
        var layers: [LayerHandle] = []
        for index in 0..<64 {
            let layer = try model.addLayer(superlayer: root)
            try animations.add(Self.mix(index), to: layer, in: model)
            layers.append(layer)
        }
        // Stacks: a second animation over 16 layers' first.
        for index in 0..<16 { try animations.add(Self.mix(index + 3), to: layers[index], in: model) }
        try animations.setTiming(LayerTiming(speed: 1.5), of: root, in: model)
        var values = PresentationValues()
        var sink = 0.0
        for frame in 0..<5 {
            let before = BGAllocationCount()
            try animations.sample(at: Double(frame) / 60, model: model, into: &values)
            sink += values.positionColumn[frame].x
            let counted = BGAllocationCount() - before
            if frame > 1 { XCTAssertEqual(counted, 0, "frame \(frame) allocated") }
        }
        XCTAssertEqual(values.count, 64)
        XCTAssertFalse(sink.isNaN)
    }

    private static func mix(_ index: Int) -> Animation {
        var animation: Animation
        switch index % 8 {
        case 0:
            animation = Animation(keyPath: .position, content: .basic(from: [0, 0], to: [100, 50], by: nil))
            animation.timingFunction = TimingFunction(.easeInEaseOut)
        case 1:
            animation = Animation(keyPath: .transformScale, content: .spring(Spring(), from: [0.5], to: [1], by: nil))
        case 2:
            animation = Animation(
                keyPath: .position,
                content: .keyframe(
                    Keyframes(values: [[0, 0], [10, 0], [10, 10], [0, 10]], keyTimes: [0, 0.2, 0.7, 1])))
        case 3:
            animation = Animation(keyPath: .boundsSize, content: .basic(from: [100, 100], to: [0, 0], by: nil))
            animation.isAdditive = true
            animation.timing.fillMode = .both
        case 4:
            let to = Transform3D.rotation(radians: 1, x: 0, y: 1, z: 0).rowMajor
            animation = Animation(keyPath: .transform, content: .basic(from: nil, to: to, by: nil))
        case 5:
            // Decompositions made at add: a keyframe whole transform.
            let turn = Transform3D.rotation(radians: 2, x: 0, y: 0, z: 1).rowMajor
            animation = Animation(
                keyPath: .transform, content: .keyframe(Keyframes(values: [Transform3D.identity.rowMajor, turn])))
        case 6:
            // Resolved ends, additive over the model's sublayer transform.
            let to = Transform3D.rotation(radians: 0.5, x: 1, y: 0, z: 0).rowMajor
            animation = Animation(keyPath: .sublayerTransform, content: .basic(from: nil, to: to, by: nil))
            animation.isAdditive = true
        default:
            // Part of a property: the model's position read.
            animation = Animation(keyPath: .positionY, content: .basic(from: nil, to: [40], by: nil))
            animation.timingFunction = TimingFunction(controlPoints: 0.3, 0.2, 0.6, 1.2)
        }
        animation.timing.duration = 2
        return animation
    }
}
