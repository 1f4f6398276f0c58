// Running a scene: operations in order, then every query through the batch API (so
// each backend is exercised), and the output document of SCENE-FORMAT.md.

/// The answers for a scene: per layer its frame, bounds, position, world transform,
/// world rect, clip rect, visibility, opacity and world opacity, plus drawing order, hit tests and conversions.
/// `jsonText()` writes the `batchbench eval` output.
///
/// Two kinds of index: *scene* indices (positions in the file's `layers` array) and
/// *store* indices (slots of `store`, `LayerHandle.index`). `names`, `storeLayers`,
/// `drawOrder` and `hits` use scene indices; `store` and the per-layer results
/// (`frames` … `visible`) use store indices. A scene's layer k lives in slot k, so the two
/// agree; a removed layer's slot is free and its scene index maps to nil.
public struct SceneEvaluation: ~Copyable, Sendable {
    /// Layer names by scene index (nil when a layer has none).
    public let names: [String?]
    /// For each scene layer, its store index, or nil when an operation removed it.
    public let storeLayers: [Int?]
    /// The store after all operations.
    public let store: LayerStore
    /// `frame` of every layer (the getter, in the superlayer's space).
    public let frames: FrameColumns
    /// `ToWorld` of every layer.
    public let world: WorldTransforms
    /// World rect of every layer (`isNull` when entirely behind the eye).
    public let worldRects: [RectEdges]
    /// Clip rect of every layer, nil when no ancestor masks to bounds.
    public let clipRects: [RectEdges?]
    /// Visibility of every layer against the scene's viewport.
    public let visible: [Bool]
    /// World opacity of every layer (GEOMETRY.md section 6).
    public let worldOpacities: [Double]
    /// Painter's order, back to front, as scene indices.
    public let drawOrder: [Int]
    /// The layer hit by each of the scene's `hitTests` (a scene index), or nil.
    public let hits: [Int?]
    /// Each of the scene's `conversions`, or nil when the destination is singular.
    public let conversions: [Point?]
    /// The answers to the scene's curve queries (`Scene.curveQueries`).
    public internal(set) var curveOutputs = SceneCurveOutputs()
    /// The presentation tree at each of the scene's `times`, or nil when the scene has
    /// neither `animations` nor `times` (ANIMATION.md section 10).
    public internal(set) var presentation: [ScenePresentationSample]? = nil
}

extension Scene {
    /// Applies the operations in order to a copy of `store` (setters with Core
    /// Animation's semantics) and answers every query with the batch API under
    /// `options`. The scene itself is unchanged. O(layers + operations + hit tests ×
    /// layers).
    ///
    /// - Throws: `SceneError` naming `operations[k]` if an operation cannot be applied;
    ///   `init(json:)` already rejects those, so this happens only for a `Scene` whose
    ///   fields were changed afterwards. Nothing is returned then.
    public func evaluate(options: KernelOptions = .default) throws(SceneError) -> SceneEvaluation {
        var store = self.store.copy()
        var storeLayers: [Int?] = Array(0..<store.count)
        for (index, operation) in operations.enumerated() {
            try apply(
                operation, to: &store, storeLayers: &storeLayers,
                path: ScenePath(key: "operations", index: index, field: "layer"))
        }
        var sceneLayers = [Int](repeating: 0, count: store.count)
        for (sceneLayer, storeLayer) in storeLayers.enumerated() {
            if let storeLayer { sceneLayers[storeLayer] = sceneLayer }
        }
        let presentation = try presentationSamples(model: store, storeLayers: storeLayers, options: options)
        let frames = store.frames(options: options)
        let world = store.updateWorld(options: options)
        let worldRects = store.worldRects(in: world, options: options)
        let clipRects = store.clipRects(worldRects: worldRects, options: options)
        let visible = store.visibility(
            worldRects: worldRects, clipRects: clipRects, viewport: viewport, options: options)
        let hits = store.hitTestIndices(points: hitTests, in: world, rule: hitTestMode, options: options)
        var converted: [Point?] = []
        converted.reserveCapacity(conversions.count)
        for (index, conversion) in conversions.enumerated() {
            let path = ScenePath(key: "conversions", index: index)
            converted += store.convert(
                points: [conversion.point],
                from: try mappedIfAny(conversion.from, storeLayers, path.field("from")),
                to: try mappedIfAny(conversion.to, storeLayers, path.field("to")),
                in: world, options: options)
        }
        return SceneEvaluation(
            names: names, storeLayers: storeLayers, store: store, frames: frames, world: world,
            worldRects: worldRects, clipRects: clipRects, visible: visible, worldOpacities: store.worldOpacities(),
            drawOrder: store.drawOrderIndices().map { sceneLayers[$0] }, hits: hits.map { $0.map { sceneLayers[$0] } },
            conversions: converted, curveOutputs: curveQueries.evaluate(), presentation: presentation)
    }

    /// The store index of scene layer `layer`, or an error at `path` when it is out of
    /// range or was removed (only for a `Scene` changed after decoding).
    private func mapped(_ layer: Int, _ storeLayers: [Int?], _ path: ScenePath) throws(SceneError) -> Int {
        guard layer >= 0 && layer < storeLayers.count else {
            throw path.error("\(layer) is out of range (\(storeLayers.count) layers)")
        }
        guard let storeLayer = storeLayers[layer] else { throw path.error("layer \(layer) was removed") }
        return storeLayer
    }

    /// `mapped(_:_:_:)` of an optional layer (nil: the roots, or no layer).
    private func mappedIfAny(_ layer: Int?, _ storeLayers: [Int?], _ path: ScenePath) throws(SceneError) -> Int? {
        guard let layer else { return nil }
        return try mapped(layer, storeLayers, path)
    }

    /// Plays a structure operation on the store and keeps the scene-to-store map: a
    /// destroyed layer's scene index maps to nil (no other layer's slot changes). O(layers)
    /// for a removal, `insertSublayer(_:into:at:)`'s cost for a move.
    private func applyStructure(
        _ operation: SceneOperation, _ storeLayer: Int, to store: inout LayerStore,
        storeLayers: inout [Int?], path: ScenePath
    ) throws(SceneError) {
        switch operation.change {
        case .superlayer(let target, let index):
            let storeTarget = try mappedIfAny(target, storeLayers, path.field("value"))
            do {
                try store.insertSublayer(storeLayer, into: storeTarget, at: index)
            } catch {
                throw path.error("\(error)")
            }
        default:
            do {
                try store.destroyLayer(storeLayer)
            } catch {
                throw path.error("\(error)")
            }
            // The destroyed layers are the ones whose slots are free now.
            for sceneLayer in storeLayers.indices {
                if let slot = storeLayers[sceneLayer], !store.isLiveSlot(slot) { storeLayers[sceneLayer] = nil }
            }
        }
    }

    private func apply(
        _ operation: SceneOperation, to store: inout LayerStore, storeLayers: inout [Int?],
        path: ScenePath
    ) throws(SceneError) {
        let layer = try mapped(operation.layer, storeLayers, path)
        if operation.isStructural {
            return try applyStructure(operation, layer, to: &store, storeLayers: &storeLayers, path: path)
        }
        switch operation.change {
        case .frame(let rect): store.setFrame(rect, of: layer)
        case .bounds(let rect): store.setBounds(rect, of: layer)
        case .position(let point), .center(let point): store.setPosition(point, of: layer)
        case .anchorPoint(let point): store.setAnchorPoint(point, of: layer)
        case .transform(let transform): store.setTransform(transform, of: layer)
        case .sublayerTransform(let transform): store.setSublayerTransform(transform, of: layer)
        case .zPosition(let z): store.setZPosition(z, of: layer)
        case .anchorPointZ(let z): store.setAnchorPointZ(z, of: layer)
        case .contentOffset(let offset): store.setContentOffset(offset, of: layer)
        case .scrollTo(let offset):
            do {
                try store.scroll(layer, to: offset)
            } catch {
                throw path.error("scrollTo needs a scroll view, and layer \(layer) has no contentSize")
            }
        case .geometryFlipped(let value): store.setGeometryFlipped(value, of: layer)
        case .masksToBounds(let value): store.setMasksToBounds(value, of: layer)
        case .hidden(let value): store.setHidden(value, of: layer)
        case .isTransformLayer(let value): store.setTransformLayer(value, of: layer)
        case .autoresizingMask(let mask): store.setAutoresizingMask(mask, of: layer)
        case .autoresizesSubviews(let value): store.setAutoresizesSubviews(value, of: layer)
        case .property(let property, let value): store.setValue(value, of: property, at: layer)
        case .superlayer, .remove: break  // applyStructure
        }
    }
}

extension SceneEvaluation {
    /// The output document of SCENE-FORMAT.md: one entry per layer in input order, then
    /// `drawOrder`, `hits`, `conversions`, then the outputs of the curve queries the scene
    /// has (`timingFunctionOutputs`, `springOutputs`, ...). One layer per line; numbers in shortest
    /// round-trip form, non-finite ones as `"NaN"`, `"+Infinity"`, `"-Infinity"`. The
    /// same evaluation always gives the same bytes. O(layers).
    public func jsonText() -> String {
        var text = ""
        writeJSON { text += $0 }
        return text
    }

    /// The same bytes as `jsonText()`, handed to `write` in pieces of about 64 KiB, so
    /// that a scene of millions of layers is written without holding its whole output
    /// (several hundred bytes per layer) in memory.
    public func writeJSON(_ write: (String) -> Void) {
        var output = "{\n \"layers\": [\n"
        let outputProperties = LayerProperty.allCases.filter(\.isEvaluationOutput)
        output.reserveCapacity(1 << 17)
        func flushIfLarge() {
            if output.utf8.count >= 1 << 16 {
                write(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        for sceneLayer in 0..<names.count {
            defer {
                output += sceneLayer + 1 < names.count ? ",\n" : "\n"
                flushIfLarge()
            }
            guard let layer = storeLayers[sceneLayer] else {
                output += "  null"
                continue
            }
            appendLayerEntry(
                name: names[sceneLayer], frame: frames[layer], bounds: store.bounds(of: layer),
                position: store.position(of: layer), toWorld: world[layer], worldRect: worldRects[layer],
                clipRect: clipRects[layer], visible: visible[layer], properties: outputProperties,
                property: { store.value(of: $0, at: layer) }, worldOpacity: worldOpacities[layer], to: &output)
        }
        output += " ],\n \"drawOrder\": ["
        for (index, layer) in drawOrder.enumerated() {
            output += index > 0 ? ", \(layer)" : "\(layer)"
            flushIfLarge()
        }
        output += "],\n \"hits\": ["
        for (index, hit) in hits.enumerated() {
            if index > 0 { output += ", " }
            output += hit.map { "\($0)" } ?? "null"
            flushIfLarge()
        }
        output += "],\n \"conversions\": ["
        for (index, point) in conversions.enumerated() {
            if index > 0 { output += ", " }
            if let point {
                output += "["
                appendJSONNumber(point.x, to: &output)
                output += ", "
                appendJSONNumber(point.y, to: &output)
                output += "]"
            } else {
                output += "null"
            }
            flushIfLarge()
        }
        output += "]"
        if let presentation { appendPresentation(presentation, outputProperties, to: &output, write: write) }
        curveOutputs.appendJSON(to: &output)
        output += "\n}\n"
        write(output)
    }

}

/// One layer's entry of the output document (model or presentation): name, frame,
/// bounds, position, toWorld, worldRect, clipRect, visible, the table properties that are
/// evaluation output (`LayerProperty.isEvaluationOutput`, in table order: a number as a
/// number, a flag as `true`/`false`; `property` reads each) and worldOpacity.
func appendLayerEntry(
    name: String?, frame: Rect, bounds: Rect, position: Point, toWorld: Transform3D, worldRect: RectEdges,
    clipRect: RectEdges?, visible: Bool, properties: [LayerProperty], property: (LayerProperty) -> Double,
    worldOpacity: Double, to output: inout String
) {
    output += "  {\"name\": "
    if let name {
        output += "\""
        appendJSONEscaped(name, to: &output)
        output += "\""
    } else {
        output += "null"
    }
    output += ", \"frame\": "
    appendRect(frame, to: &output)
    output += ", \"bounds\": "
    appendRect(bounds, to: &output)
    output += ", \"position\": ["
    appendJSONNumber(position.x, to: &output)
    output += ", "
    appendJSONNumber(position.y, to: &output)
    output += "], \"toWorld\": "
    appendTransform(toWorld, to: &output)
    output += ", \"worldRect\": "
    appendEdges(worldRect.isNull ? nil : worldRect, to: &output)
    output += ", \"clipRect\": "
    appendEdges(clipRect, to: &output)
    output += visible ? ", \"visible\": true" : ", \"visible\": false"
    for table in properties {
        output += ", \"\(table.name)\": "
        let value = property(table)
        switch table.kind {
        case .number: appendJSONNumber(value, to: &output)
        case .bool: output += value == 1 ? "true" : "false"
        }
    }
    output += ", \"worldOpacity\": "
    appendJSONNumber(worldOpacity, to: &output)
    output += "}"
}

func appendRect(_ rect: Rect, to output: inout String) {
    output += "["
    appendJSONNumber(rect.x, to: &output)
    output += ", "
    appendJSONNumber(rect.y, to: &output)
    output += ", "
    appendJSONNumber(rect.width, to: &output)
    output += ", "
    appendJSONNumber(rect.height, to: &output)
    output += "]"
}

/// The 16 entries, row-major.
func appendTransform(_ m: Transform3D, to output: inout String) {
    output += "["
    for (index, value) in [
        m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
        m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44,
    ].enumerated() {
        if index > 0 { output += ", " }
        appendJSONNumber(value, to: &output)
    }
    output += "]"
}

/// `null` for nil; a clip that is the null rect is written as `CGRectNull`,
/// `["+Infinity", "+Infinity", 0.0, 0.0]`.
func appendEdges(_ edges: RectEdges?, to output: inout String) {
    guard let edges else {
        output += "null"
        return
    }
    appendRect(edges.rect, to: &output)
}
