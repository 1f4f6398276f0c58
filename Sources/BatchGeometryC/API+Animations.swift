// batchgeometry.h, "Animations: the presentation tree": a `bg_animations *` (CAnimations,
// AnimationValues.swift) holds an `AnimationStore` and the presentation values of its
// latest sample; the model is a `bg_store *` it only reads. Each function checks every
// argument before it changes anything, then runs the Swift call the header names.

@_spi(CInterface) import BatchGeometry
import CBatchGeometry

/// `bg_animation_init`: Core Animation's defaults.
@_cdecl("bg_animation_init")
public func bgAnimationInit(_ animation: UnsafeMutablePointer<bg_animation>?) -> Int32 {
    cCall("bg_animation_init") {
        let animation = try required(animation, "animation")
        var value = bg_animation()
        value.kind = Int32(BG_ANIMATION_BASIC)
        value.calculation_mode = Int32(BG_CALCULATION_MODE_LINEAR)
        value.timing = .defaults
        value.spring = bg_spring(mass: 1, stiffness: 100, damping: 10, initial_velocity: 0, allows_overdamping: false)
        animation.pointee = value
    }
}

/// `bg_animations_create`: `AnimationStore()`.
@_cdecl("bg_animations_create")
public func bgAnimationsCreate(_ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall("bg_animations_create") {
        try required(out, "out").pointee = CAnimations.make()
    }
}

/// `bg_animations_destroy`: frees the set (NULL: nothing).
@_cdecl("bg_animations_destroy")
public func bgAnimationsDestroy(_ animations: OpaquePointer?) {
    guard let animations else { return }
    Unmanaged<CAnimations>.fromOpaque(UnsafeRawPointer(animations)).release()
}

/// `bg_animations_add`: `add(_:to:in:)`, the struct checked first.
@_cdecl("bg_animations_add")
public func bgAnimationsAdd(
    _ animations: OpaquePointer?, _ store: OpaquePointer?, _ layer: bg_layer,
    _ animation: UnsafePointer<bg_animation>?, _ out: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_animations_add") {
        let set = try CAnimations.from(animations)
        let box = try CStore.from(store)
        let animation = try required(animation, "animation")
        let out = try required(out, "out")
        let handle = try box.live(layer)
        let value = try animation.pointee.animation()
        out.pointee = try reportingAnimationErrors(argument: "animation") {
            try set.animations.add(value, to: handle, in: box.store)
        }
    }
}

/// `bg_animations_add_deceleration`: `addDeceleration(_:to:in:timing:)`, the structs
/// checked first (the Swift call checks only what it reads: the start offset and velocity).
@_cdecl("bg_animations_add_deceleration")
public func bgAnimationsAddDeceleration(
    _ animations: OpaquePointer?, _ store: OpaquePointer?, _ layer: bg_layer,
    _ deceleration: UnsafePointer<bg_deceleration>?, _ timing: UnsafePointer<bg_media_timing>?,
    _ out: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_animations_add_deceleration") {
        let set = try CAnimations.from(animations)
        let box = try CStore.from(store)
        let deceleration = try required(deceleration, "deceleration")
        let out = try required(out, "out")
        let handle = try box.live(layer)
        let curve = try deceleration.pointee.checked("deceleration")
        let value = try (timing?.pointee ?? .defaults).checked("timing")
        out.pointee = try reportingAnimationErrors {
            try set.animations.addDeceleration(curve, to: handle, in: box.store, timing: value)
        }
    }
}

/// `bg_animations_remove`: `remove(_:)`.
@_cdecl("bg_animations_remove")
public func bgAnimationsRemove(_ animations: OpaquePointer?, _ number: Int) -> Int32 {
    cCall("bg_animations_remove") {
        let set = try CAnimations.from(animations)
        guard number >= 0 && number < set.animations.count else {
            throw CFailure.invalid(
                "number \(sizeValue(number)) is out of range (\(set.animations.count) animations added)")
        }
        try reportingAnimationErrors { try set.animations.remove(number) }
    }
}

/// `bg_animations_set_layer_timing`: `setTiming(_:of:in:)`.
@_cdecl("bg_animations_set_layer_timing")
public func bgAnimationsSetLayerTiming(
    _ animations: OpaquePointer?, _ store: OpaquePointer?, _ layer: bg_layer, _ timing: UnsafePointer<bg_layer_timing>?
) -> Int32 {
    cCall("bg_animations_set_layer_timing") {
        let set = try CAnimations.from(animations)
        let box = try CStore.from(store)
        let timing = try required(timing, "timing").pointee
        let handle = try box.live(layer)
        let value = LayerTiming(beginTime: timing.begin_time, speed: timing.speed, timeOffset: timing.time_offset)
        try reportingAnimationErrors { try set.animations.setTiming(value, of: handle, in: box.store) }
    }
}

/// `bg_animations_sample`: `sample(at:model:into:)` into the set's older presentation
/// values, which then become the latest (the latest become the previous); on an error the
/// two are swapped back, so nothing changed.
@_cdecl("bg_animations_sample")
public func bgAnimationsSample(_ animations: OpaquePointer?, _ store: OpaquePointer?, _ time: Double) -> Int32 {
    cCall("bg_animations_sample") {
        let set = try CAnimations.from(animations)
        let box = try CStore.from(store)
        swap(&set.previous, &set.presentation)
        do {
            try reportingAnimationErrors {
                try set.animations.sample(at: time, model: box.store, into: &set.presentation)
            }
        } catch {
            swap(&set.previous, &set.presentation)
            throw error
        }
    }
}

/// `bg_animations_presentation_count`: `PresentationValues.count`.
@_cdecl("bg_animations_presentation_count")
public func bgAnimationsPresentationCount(_ animations: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall("bg_animations_presentation_count") {
        let set = try CAnimations.from(animations)
        try required(out, "out").pointee = set.presentation.count
    }
}

/// `bg_animations_get_presentation`: `values(of:model:)`, or the model's values.
@_cdecl("bg_animations_get_presentation")
public func bgAnimationsGetPresentation(
    _ animations: OpaquePointer?, _ store: OpaquePointer?, _ layer: bg_layer,
    _ out: UnsafeMutablePointer<bg_presentation>?, _ animated: UnsafeMutablePointer<Bool>?
) -> Int32 {
    cCall("bg_animations_get_presentation") {
        let set = try CAnimations.from(animations)
        let box = try CStore.from(store)
        let out = try required(out, "out")
        let animated = try required(animated, "animated")
        let handle = try box.live(layer)
        if let values = set.presentation.values(of: handle, model: box.store) {
            out.pointee = bg_presentation(layer: layer, values)
            animated.pointee = true
        } else {
            out.pointee = bg_presentation(model: box.store, layer: handle)
            animated.pointee = false
        }
    }
}

/// `bg_animations_get_presentations`: every animated layer's values, in order.
@_cdecl("bg_animations_get_presentations")
public func bgAnimationsGetPresentations(
    _ animations: OpaquePointer?, _ store: OpaquePointer?, _ out: UnsafeMutablePointer<bg_presentation>?,
    _ capacity: Int, _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_animations_get_presentations") {
        let set = try CAnimations.from(animations)
        let box = try CStore.from(store)
        let count = try required(count, "count")
        if capacity != 0 && out == nil { throw CFailure.null("out") }
        let presentation = set.presentation
        if sizeArgument(capacity) < presentation.count {
            count.pointee = presentation.count
            try checkCapacity(capacity, needed: presentation.count)
        }
        for k in 0..<presentation.count {
            let slot = presentation.layers[k]
            let handle = box.store.handle(at: slot)
            guard let values = presentation.values(ofLayerAt: slot, model: box.store) else {
                throw CFailure.invalid("store has no slot \(slot): pass the store the animations were sampled with")
            }
            out![k] = bg_presentation(layer: handle?.rawValue ?? noLayer, values)
        }
        count.pointee = presentation.count
    }
}

/// `bg_animations_get_finished`: `finished`.
@_cdecl("bg_animations_get_finished")
public func bgAnimationsGetFinished(
    _ animations: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?, _ capacity: Int,
    _ count: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_animations_get_finished") {
        let set = try CAnimations.from(animations)
        let count = try required(count, "count")
        if capacity != 0 && out == nil { throw CFailure.null("out") }
        let finished = set.animations.finished
        if sizeArgument(capacity) < finished.count {
            count.pointee = finished.count
            try checkCapacity(capacity, needed: finished.count)
        }
        for (k, number) in finished.enumerated() { out![k] = number }
        count.pointee = finished.count
    }
}

/// `bg_store_apply_presentation`: `applyPresentation(_:)`.
@_cdecl("bg_store_apply_presentation")
public func bgStoreApplyPresentation(_ store: OpaquePointer?, _ animations: OpaquePointer?) -> Int32 {
    cCall("bg_store_apply_presentation") {
        let box = try CStore.from(store)
        let set = try CAnimations.from(animations)
        let presentation = set.presentation
        box.mutate { $0.applyPresentation(presentation) }
    }
}

/// `bg_store_restore_model_values`: `restoreModelValues(of:from:)`.
@_cdecl("bg_store_restore_model_values")
public func bgStoreRestoreModelValues(
    _ store: OpaquePointer?, _ animations: OpaquePointer?, _ model: OpaquePointer?
) -> Int32 {
    cCall("bg_store_restore_model_values") {
        let box = try CStore.from(store)
        let set = try CAnimations.from(animations)
        let modelBox = try modelStore(model, of: store)
        let presentation = set.presentation
        box.mutate { $0.restoreModelValues(of: presentation, from: modelBox.store) }
    }
}

/// `bg_store_update_presentation`: `updatePresentation(from:to:model:)` from the sample
/// before the latest to the latest.
@_cdecl("bg_store_update_presentation")
public func bgStoreUpdatePresentation(
    _ store: OpaquePointer?, _ animations: OpaquePointer?, _ model: OpaquePointer?
) -> Int32 {
    cCall("bg_store_update_presentation") {
        let box = try CStore.from(store)
        let set = try CAnimations.from(animations)
        let modelBox = try modelStore(model, of: store)
        let previous = set.previous
        let next = set.presentation
        box.mutate { $0.updatePresentation(from: previous, to: next, model: modelBox.store) }
    }
}

/// The model store of a presentation call: a second store, read without taking its
/// debug-build lock (`CStore.from` takes one store per call), after a check that it is not
/// `store` itself.
private func modelStore(_ model: OpaquePointer?, of store: OpaquePointer?) throws(CFailure) -> CStore {
    guard let model else { throw CFailure.null("model") }
    guard model != store else {
        throw CFailure.invalid("model is store: the model values come from another store (the one sampled)")
    }
    let modelBox = Unmanaged<CStore>.fromOpaque(UnsafeRawPointer(model)).takeUnretainedValue()
    #if DEBUG
    if modelBox.destroyed { throw CFailure.invalid("model \(model) was destroyed by bg_store_destroy") }
    #endif
    return modelBox
}
