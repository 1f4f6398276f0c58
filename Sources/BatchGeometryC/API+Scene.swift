// batchgeometry.h, "Scene files": decoding a scene from bytes, evaluating it as
// `batchbench eval` does, and stores of its layers before and after its operations.

import BatchGeometry
import CBatchGeometry

/// What a `bg_scene *` points at.
final class CScene {
    let scene: Scene
    init(_ scene: consuming Scene) { self.scene = scene }
}

/// What a `bg_evaluation *` points at: the answers and their JSON text (NUL-terminated,
/// owned here and freed with it).
final class CEvaluation {
    let evaluation: SceneEvaluation
    let text: UnsafeMutablePointer<CChar>
    let length: Int

    init(_ evaluation: consuming SceneEvaluation) {
        var bytes: [UInt8] = []
        evaluation.writeJSON { bytes.append(contentsOf: $0.utf8) }
        self.evaluation = evaluation
        length = bytes.count
        text = .allocate(capacity: bytes.count + 1)
        for (k, byte) in bytes.enumerated() { text[k] = CChar(bitPattern: byte) }
        text[bytes.count] = 0
    }

    deinit { text.deallocate() }
}

/// The object of class `T` behind an opaque pointer; NULL is `.null(name)`.
@inline(__always)
private func object<T: AnyObject>(_ pointer: OpaquePointer?, _ name: String, as type: T.Type) throws(CFailure) -> T {
    guard let pointer else { throw CFailure.null(name) }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
}

/// A retained opaque pointer to `object`, owned by the caller.
private func retained<T: AnyObject>(_ object: T) -> OpaquePointer {
    OpaquePointer(Unmanaged.passRetained(object).toOpaque())
}

/// `bg_scene_load`: `Scene(json:)`.
@_cdecl("bg_scene_load")
public func bgSceneLoad(_ json: UnsafeRawPointer?, _ length: Int, _ out: UnsafeMutablePointer<OpaquePointer?>?)
    -> Int32
{
    cCall("bg_scene_load") {
        let out = try required(out, "out")
        let length = try bufferCount(length, "length", unit: "bytes", bytesEach: 1)
        if length > 0 && json == nil { throw CFailure.null("json") }
        let bytes = json.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
        out.pointee = retained(CScene(try Scene(json: bytes)))
    }
}

/// `bg_scene_destroy`: frees a scene (NULL: nothing).
@_cdecl("bg_scene_destroy")
public func bgSceneDestroy(_ scene: OpaquePointer?) {
    guard let scene else { return }
    Unmanaged<CScene>.fromOpaque(UnsafeRawPointer(scene)).release()
}

/// `bg_scene_layer_count`: `Scene.layerCount`.
@_cdecl("bg_scene_layer_count")
public func bgSceneLayerCount(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<Int>?) -> Int32 {
    cCall("bg_scene_layer_count") {
        let scene = try object(scene, "scene", as: CScene.self)
        try required(out, "out").pointee = scene.scene.layerCount
    }
}

/// `bg_scene_store`: a store of `Scene.store`, the layers before the operations.
@_cdecl("bg_scene_store")
public func bgSceneStore(_ scene: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall("bg_scene_store") {
        let scene = try object(scene, "scene", as: CScene.self)
        let out = try required(out, "out")
        out.pointee = CStore.make(scene.scene.store.copy(), options: try processDefaultOptions())
    }
}

/// `bg_scene_evaluate`: `Scene.evaluate(options:)`.
@_cdecl("bg_scene_evaluate")
public func bgSceneEvaluate(
    _ scene: OpaquePointer?, _ backend: Int32, _ threads: Int32, _ out: UnsafeMutablePointer<OpaquePointer?>?
) -> Int32 {
    cCall("bg_scene_evaluate") {
        let scene = try object(scene, "scene", as: CScene.self)
        let out = try required(out, "out")
        let options = try kernelOptions(backend: backend, threads: threads)
        out.pointee = retained(CEvaluation(try scene.scene.evaluate(options: options)))
    }
}

/// `bg_evaluation_destroy`: frees an evaluation (NULL: nothing).
@_cdecl("bg_evaluation_destroy")
public func bgEvaluationDestroy(_ evaluation: OpaquePointer?) {
    guard let evaluation else { return }
    Unmanaged<CEvaluation>.fromOpaque(UnsafeRawPointer(evaluation)).release()
}

/// `bg_evaluation_json`: the `batchbench eval` output, borrowed.
@_cdecl("bg_evaluation_json")
public func bgEvaluationJSON(
    _ evaluation: OpaquePointer?, _ text: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ length: UnsafeMutablePointer<Int>?
) -> Int32 {
    cCall("bg_evaluation_json") {
        let evaluation = try object(evaluation, "evaluation", as: CEvaluation.self)
        let text = try required(text, "text")
        text.pointee = UnsafePointer(evaluation.text)
        length?.pointee = evaluation.length
    }
}

/// `bg_evaluation_store`: a store of `SceneEvaluation.store`, the layers after the operations.
@_cdecl("bg_evaluation_store")
public func bgEvaluationStore(_ evaluation: OpaquePointer?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cCall("bg_evaluation_store") {
        let evaluation = try object(evaluation, "evaluation", as: CEvaluation.self)
        let out = try required(out, "out")
        out.pointee = CStore.make(evaluation.evaluation.store.copy(), options: try processDefaultOptions())
    }
}

/// `bg_evaluation_layer`: the handle of a scene layer in the evaluated store.
@_cdecl("bg_evaluation_layer")
public func bgEvaluationLayer(_ evaluation: OpaquePointer?, _ sceneIndex: Int, _ out: UnsafeMutablePointer<UInt64>?)
    -> Int32
{
    cCall("bg_evaluation_layer") {
        let evaluation = try object(evaluation, "evaluation", as: CEvaluation.self)
        let out = try required(out, "out")
        let index = sizeArgument(sceneIndex)
        let layers = evaluation.evaluation.storeLayers
        guard index < layers.count else {
            throw CFailure.staleLayer("scene layer \(sizeValue(sceneIndex)) is out of range (\(layers.count) layers)")
        }
        guard let slot = layers[index], let handle = evaluation.evaluation.store.handle(at: slot) else {
            throw CFailure.staleLayer("scene layer \(index) was removed by an operation")
        }
        out.pointee = handle.rawValue
    }
}
