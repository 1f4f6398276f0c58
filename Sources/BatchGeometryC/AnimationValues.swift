// The plain structs of batchgeometry.h's "Animations" section, checked and turned into the
// Swift values they stand for (`Animation`, `LayerTiming`), and the presentation values
// turned into `bg_presentation`. Every count is checked before its array is read, so a
// struct with a wrong count is refused, naming the field, before anything is added.

import BatchGeometry
import CBatchGeometry

/// The object behind a `bg_animations *` (retained by `bg_animations_create`, released by
/// `bg_animations_destroy`): the animations and the presentation values of the latest
/// sample and of the one before it (swapped by every sample, so that a warm frame loop
/// allocates nothing), which `bg_store_update_presentation` moves a store between.
final class CAnimations {
    /// The animations (Swift: `AnimationStore`).
    var animations = AnimationStore()
    /// The latest sample's presentation values.
    var presentation = PresentationValues()
    /// The presentation values of the sample before the latest (empty before the second).
    var previous = PresentationValues()

    /// The set behind `pointer`; a NULL pointer is `.null(name)`.
    @inline(__always)
    static func from(_ pointer: OpaquePointer?, _ name: String = "animations") throws(CFailure) -> CAnimations {
        guard let pointer else { throw CFailure.null(name) }
        return Unmanaged<CAnimations>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// A new `bg_animations *`, owned by the caller.
    static func make() -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(CAnimations()).toOpaque())
    }
}

/// An `AnimationError` as a C failure: the field under the argument's name, spelled as
/// the header spells it (`animation.key_times[2]: must be 1`).
func animationFailure(_ error: AnimationError, argument: String) -> CFailure {
    let cField = cFieldNames[error.field] ?? error.field
    let element = error.element.map { "[\($0)]" } ?? ""
    let name = argument.isEmpty ? cField : "\(argument).\(cField)"
    return CFailure.invalid("\(name)\(element): \(error.message)")
}

/// Runs `body`, reporting an `AnimationError` it throws as `animationFailure(_:argument:)`
/// does: the one place the shims translate the Swift API's errors.
func reportingAnimationErrors<T>(argument: String = "", _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as AnimationError {
        throw animationFailure(error, argument: argument)
    }
}

/// The Swift API's field names and the header's.
private let cFieldNames = [
    "fromValue": "from_value", "toValue": "to_value", "byValue": "by_value", "values": "values",
    "keyTimes": "key_times", "timingFunctions": "timing_functions", "calculationMode": "calculation_mode",
    "timingFunction": "timing_function", "cumulative": "cumulative", "beginTime": "timing.begin_time",
    "duration": "timing.duration", "speed": "timing.speed", "timeOffset": "timing.time_offset",
    "repeatCount": "timing.repeat_count", "repeatDuration": "timing.repeat_duration",
]

/// The most numbers one value takes (a whole transform).
private let maximumValueCount = 16

extension bg_animation {
    /// The Swift animation these fields describe, every field and count checked (`.invalid`
    /// or `.null` naming `animation.<field>`); then `Animation.problem()`'s rules, reported
    /// the same way. Reads the caller's arrays; O(values).
    func animation() throws(CFailure) -> Animation {
        guard let path = key_path else { throw CFailure.null("animation.key_path") }
        let name = String(cString: path)
        guard let keyPath = AnimationKeyPath(rawValue: name) else {
            throw CFailure.invalid(
                "animation.key_path \"\(name)\" is not an animatable key path (ANIMATION.md section 8)")
        }
        guard value_count >= 1 && value_count <= maximumValueCount else {
            throw CFailure.invalid(
                "animation.value_count must be 1 to \(maximumValueCount), got \(sizeValue(value_count))")
        }
        var animation = Animation(keyPath: keyPath, content: .basic(from: nil, to: nil, by: nil))
        animation.timing = try timing.checked()
        animation.isAdditive = additive
        animation.isCumulative = cumulative
        if has_timing_function {
            animation.timingFunction = try timing_function.checked("animation.timing_function")
        }
        switch kind {
        case Int32(BG_ANIMATION_BASIC):
            animation.content = .basic(from: value(from_value), to: value(to_value), by: value(by_value))
        case Int32(BG_ANIMATION_SPRING):
            let spring = try self.spring.checked("animation.spring")
            animation.content = .spring(spring, from: value(from_value), to: value(to_value), by: value(by_value))
        case Int32(BG_ANIMATION_KEYFRAME):
            animation.content = .keyframe(try keyframes())
        default:
            throw CFailure.invalid(
                "animation.kind \(kind) is not an animation kind (BG_ANIMATION_BASIC 0 to BG_ANIMATION_KEYFRAME 2)")
        }
        if let problem = animation.problem() { throw animationFailure(problem, argument: "animation") }
        return animation
    }

    /// `value_count` numbers at `pointer`, or nil for NULL.
    private func value(_ pointer: UnsafePointer<Double>?) -> [Double]? {
        pointer.map { Array(UnsafeBufferPointer(start: $0, count: value_count)) }
    }

    /// The keyframe fields, counts checked before each array is read.
    private func keyframes() throws(CFailure) -> Keyframes {
        let count = try bufferCount(
            keyframe_count, "animation.keyframe_count", unit: "values", bytesEach: UInt(8 * value_count))
        guard count >= 1 else { throw CFailure.invalid("animation.keyframe_count must be at least 1, got 0") }
        let numbers = try required(values, "animation.values")
        let values = (0..<count).map { k in
            Array(UnsafeBufferPointer(start: numbers + k * value_count, count: value_count))
        }
        let modes = CalculationMode.allCases
        guard calculation_mode >= 0 && Int(calculation_mode) < modes.count else {
            throw CFailure.invalid(
                "animation.calculation_mode \(calculation_mode) is not a calculation mode "
                    + "(BG_CALCULATION_MODE_LINEAR 0 to BG_CALCULATION_MODE_CUBIC \(modes.count - 1))")
        }
        var keyTimes: [Double]?
        if let times = key_times {
            let count = try bufferCount(key_time_count, "animation.key_time_count", unit: "times", bytesEach: 8)
            keyTimes = Array(UnsafeBufferPointer(start: times, count: count))
        }
        var functions: [TimingFunction]?
        if let curves = timing_functions {
            let count = try bufferCount(
                timing_function_count, "animation.timing_function_count", unit: "functions", bytesEach: 16)
            functions = []
            for k in 0..<count {
                functions!.append(try curves[k].checked("animation.timing_functions[\(k)]"))
            }
        }
        return Keyframes(
            values: values, keyTimes: keyTimes, timingFunctions: functions,
            calculationMode: modes[Int(calculation_mode)])
    }
}

extension bg_media_timing {
    /// The Swift timing; `.invalid` for a fill mode out of range, naming the struct as
    /// `name` (the numbers are checked with the animation, `Animation.problem()`).
    func checked(_ name: String = "animation.timing") throws(CFailure) -> AnimationTiming {
        let modes = FillMode.allCases
        guard fill_mode >= 0 && Int(fill_mode) < modes.count else {
            throw CFailure.invalid(
                "\(name).fill_mode \(fill_mode) is not a fill mode "
                    + "(BG_FILL_MODE_REMOVED 0 to BG_FILL_MODE_BOTH \(modes.count - 1))")
        }
        var timing = AnimationTiming()
        timing.beginTime = begin_time
        timing.duration = duration
        timing.speed = speed
        timing.timeOffset = time_offset
        timing.repeatCount = repeat_count
        timing.repeatDuration = repeat_duration
        timing.autoreverses = autoreverses
        timing.fillMode = modes[Int(fill_mode)]
        timing.removedOnCompletion = removed_on_completion
        return timing
    }

    /// Core Animation's defaults (`AnimationTiming()`).
    static var defaults: bg_media_timing {
        let timing = AnimationTiming()
        return bg_media_timing(
            begin_time: timing.beginTime, duration: timing.duration, speed: timing.speed,
            time_offset: timing.timeOffset, repeat_count: timing.repeatCount,
            repeat_duration: timing.repeatDuration, fill_mode: Int32(BG_FILL_MODE_REMOVED),
            autoreverses: timing.autoreverses, removed_on_completion: timing.removedOnCompletion)
    }
}

extension bg_presentation {
    /// The values of `layer` (`raw` its handle in C): bounds, position, anchor point, z,
    /// anchor z, transforms and opacity.
    init(layer raw: bg_layer, _ values: PresentationLayer) {
        self.init()
        layer = raw
        bounds = (values.bounds.x, values.bounds.y, values.bounds.width, values.bounds.height)
        position = (values.position.x, values.position.y)
        anchor_point = (values.anchorPoint.x, values.anchorPoint.y)
        z_position = values.zPosition
        anchor_point_z = values.anchorPointZ
        transform = values.transform.cTuple
        sublayer_transform = values.sublayerTransform.cTuple
        opacity = values.opacity
    }

    /// The model values of live `layer` of `store` (a layer no animation touched).
    init(model store: borrowing LayerStore, layer: LayerHandle) {
        self.init()
        self.layer = layer.rawValue
        let bounds = store.bounds(of: layer)
        self.bounds = (bounds.x, bounds.y, bounds.width, bounds.height)
        let position = store.position(of: layer)
        self.position = (position.x, position.y)
        let anchor = store.anchorPoint(of: layer)
        anchor_point = (anchor.x, anchor.y)
        z_position = store.zPosition(of: layer)
        anchor_point_z = store.anchorPointZ(of: layer)
        transform = store.transform(of: layer).cTuple
        sublayer_transform = store.sublayerTransform(of: layer).cTuple
        opacity = store.opacity(of: layer)
    }
}

/// 16 doubles, as C's `double[16]` imports.
typealias CMatrix = (
    Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
    Double, Double
)

extension Transform3D {
    /// The 16 numbers, row-major, as a C array field.
    var cTuple: CMatrix {
        (m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44)
    }
}
