import BatchGeometry
import BatchGeometryWorkloads

/// One frame's script, still or live, behind one interface. (A struct with an optional
/// live script, not an enum: taking a payload out of an enum to mutate it would copy
/// the script's arrays every frame.)
struct FramePlayer {
    let mode: FrameScriptMode
    let still: FrameScript
    private var live: LiveFrameScript?

    /// The script of `mode` for `store`, just built by `workload.makeStore()`; `live` and
    /// `relayout` need an `app` workload with cards (`FramePlayer.supports`). `settled`:
    /// inserted cards have the built cards' shape (`LiveFrameScript.settled`).
    init(_ workload: Workload, mode: FrameScriptMode, settled: Bool = false, store: borrowing LayerStore) {
        self.mode = mode
        still = FrameScript(workload)
        live =
            mode == .still
            ? nil : LiveFrameScript(workload, relayout: mode == .relayout, settled: settled, store: store)
    }

    /// Whether `mode` can play on `workload`: the live scripts need the app's lists.
    static func supports(_ mode: FrameScriptMode, _ workload: Workload) -> Bool {
        mode == .still || (workload.shape == .app && workload.layerCount > AppLayout.firstCardLayer)
    }

    var viewport: Rect { still.viewport }

    /// Applies frame `frame`'s edits; returns the layers they set, added or destroyed.
    @discardableResult
    mutating func apply(frame: Int, to store: inout LayerStore) -> Int {
        if live != nil { return live!.apply(frame: frame, to: &store) }
        return still.apply(frame: frame, to: &store)
    }
}

/// The old path's answers for one frame: full passes over the whole store.
struct OldFrame {
    var world: WorldTransforms
    var rects: [RectEdges]
    var clips: [RectEdges?]
    var shown: [Bool]
    var hits: [LayerHandle?]
    var order: [LayerHandle]
}

/// Checks the output-sensitive answers against the full passes'.
enum FrameCheck {
    /// Nil when `visible` is the old path's drawing order filtered by its visibility,
    /// with the same world transforms (bit for bit), world rects and clip rects, and
    /// `hits` (the culled walk's, one per touch) are the snapshot walk's; else the first
    /// difference.
    static func compare(_ old: OldFrame, _ visible: VisibleLayers, hits: [LayerHandle?], touches: [Point]) -> String? {
        var k = 0
        for layer in old.order where old.shown[layer.index] {
            guard k < visible.count else {
                return "the frame query found \(visible.count) visible layers; the full passes also show \(layer)"
            }
            if let problem = compareLayer(k, layer, old, visible) { return problem }
            k += 1
        }
        if k != visible.count { return "the frame query found \(visible.count) visible layers, the full passes \(k)" }
        for (t, touch) in touches.enumerated() where !sameLayer(hits[t], old.hits[t]) {
            return
                "touch \(touch) hit \(hits[t].map { "\($0)" } ?? "nothing") culled, \(old.hits[t].map { "\($0)" } ?? "nothing") on the snapshot"
        }
        return nil
    }

    /// The old path's store and the new path's are two stores built alike, so their
    /// handles differ in the store tag (`LayerHandle`): the same layer is the same slot
    /// and generation.
    static func sameLayer(_ a: LayerHandle?, _ b: LayerHandle?) -> Bool {
        a?.index == b?.index && a?.generation == b?.generation
    }

    private static func compareLayer(_ k: Int, _ layer: LayerHandle, _ old: OldFrame, _ visible: VisibleLayers)
        -> String?
    {
        let got = visible.layers[k]
        guard sameLayer(got, layer) else { return "visible layer \(k) is \(got), the full passes' is \(layer)" }
        let expected = old.world[layer]
        if visible.worldTransforms[k].rowMajor.map(\.bitPattern) != expected.rowMajor.map(\.bitPattern) {
            return "world transform of \(layer) is \(visible.worldTransforms[k]), the full pass's is \(expected)"
        }
        if visible.worldRects[k] != old.rects[layer.index] {
            return "world rect of \(layer) is \(visible.worldRects[k]), the full pass's is \(old.rects[layer.index])"
        }
        if visible.clipRects[k] != old.clips[layer.index] {
            return
                "clip rect of \(layer) is \(String(describing: visible.clipRects[k])), the full pass's is \(String(describing: old.clips[layer.index]))"
        }
        return nil
    }
}
