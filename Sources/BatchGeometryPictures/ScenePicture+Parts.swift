// The parts of a scene picture, each written in one pass over the evaluation.

import BatchGeometry

extension ScenePicture {
    /// A layer as drawn: scene index, store index, and whether the library calls it
    /// visible.
    struct Shown {
        var sceneLayer: Int
        var storeLayer: Int
        var visible: Bool
    }

    /// The layers drawn, back to front: first those outside the drawing order (hidden
    /// subtrees), then the drawing order; invisible ones only when `options.invisible`.
    var shownLayers: [Shown] {
        var shown: [Shown] = []
        let inDrawOrder = Set(evaluation.drawOrder)
        if options.invisible {
            for (sceneLayer, storeLayer) in evaluation.storeLayers.enumerated() where !inDrawOrder.contains(sceneLayer)
            {
                if let storeLayer {
                    shown.append(Shown(sceneLayer: sceneLayer, storeLayer: storeLayer, visible: false))
                }
            }
        }
        for sceneLayer in evaluation.drawOrder {
            guard let storeLayer = evaluation.storeLayers[sceneLayer] else { continue }
            let visible = evaluation.visible[storeLayer]
            if visible || options.invisible {
                shown.append(Shown(sceneLayer: sceneLayer, storeLayer: storeLayer, visible: visible))
            }
        }
        return shown
    }

    /// Each shown layer's projected quad, filled lightly and stroked in its depth's
    /// colour; invisible ones as faint dotted outlines.
    func writeLayers(_ writer: inout SVGWriter) {
        writer.open("g", [("id", "layers")])
        for layer in shownLayers {
            let points = frame.mapPolygon(quads[layer.storeLayer])
            guard !points.isEmpty else { continue }
            let colour = colour(ofDepth: depths[layer.storeLayer])
            var attributes = [
                ("class", layer.visible ? "layer" : "layer invisible"), ("data-layer", "\(layer.sceneLayer)"),
                ("points", SVGWriter.points(points)),
            ]
            if layer.visible {
                attributes += [("fill", colour), ("fill-opacity", "0.15"), ("stroke", colour), ("stroke-width", "1.5")]
            } else {
                attributes += [
                    ("fill", "none"), ("stroke", colour), ("stroke-opacity", "0.4"), ("stroke-dasharray", "1 3"),
                ]
            }
            writer.element("polygon", attributes)
        }
        writer.close()
    }

    /// Each shown layer's frame (in its superlayer's space) through the superlayer's
    /// world transform (the world itself for a root).
    func writeFrames(_ writer: inout SVGWriter) {
        writer.open("g", [("id", "frames")])
        for layer in shownLayers {
            let superlayer = evaluation.store.handle(at: layer.storeLayer).flatMap {
                evaluation.store.superlayer(of: $0)
            }
            let transform = superlayer.map { evaluation.world[$0] } ?? .identity
            let points = frame.mapPolygon(transform.projectedPolygon(of: evaluation.frames[layer.storeLayer]))
            guard !points.isEmpty else { continue }
            writer.element(
                "polygon",
                [
                    ("class", "frame"), ("data-layer", "\(layer.sceneLayer)"), ("points", SVGWriter.points(points)),
                    ("fill", "none"), ("stroke", "#555555"), ("stroke-width", "1"), ("stroke-dasharray", "2 2"),
                ])
        }
        writer.close()
    }

    /// Every distinct clip rect of a drawn layer, dashed, in drawing order.
    func writeClipRects(_ writer: inout SVGWriter) {
        writer.open("g", [("id", "clip-rects")])
        var seen = Set<RectEdges>()
        for sceneLayer in evaluation.drawOrder {
            guard let storeLayer = evaluation.storeLayers[sceneLayer],
                let clip = evaluation.clipRects[storeLayer], seen.insert(clip).inserted,
                let rect = frame.mapRect(clip)
            else { continue }
            writer.element("rect", rectAttributes(rect, "clip") + [("stroke", "#333333"), ("stroke-dasharray", "6 4")])
        }
        writer.close()
    }

    /// The scene's viewport, when it has one.
    func writeViewport(_ writer: inout SVGWriter) {
        guard let viewport = scene.viewport, let rect = frame.mapRect(viewport.edges) else { return }
        writer.element("rect", rectAttributes(rect, "viewport") + [("stroke", "#000000"), ("stroke-width", "2")])
    }

    private func rectAttributes(
        _ rect: (x: Double, y: Double, width: Double, height: Double), _ kind: String
    ) -> [(String, String)] {
        [
            ("class", kind), ("x", SVGWriter.number(rect.x)), ("y", SVGWriter.number(rect.y)),
            ("width", SVGWriter.number(rect.width)), ("height", SVGWriter.number(rect.height)), ("fill", "none"),
        ]
    }

    /// Each shown layer's name at the centre of what is drawn of it.
    func writeLabels(_ writer: inout SVGWriter) {
        writer.open("g", [("id", "labels"), ("font-size", "11"), ("text-anchor", "middle")])
        for layer in shownLayers {
            guard let position = labelPositions[layer.storeLayer] else { continue }
            writer.element(
                "text",
                [
                    ("class", "label"), ("data-layer", "\(layer.sceneLayer)"), ("x", SVGWriter.number(position.x)),
                    ("y", SVGWriter.number(position.y + 4)), ("fill", layer.visible ? "#111111" : "#999999"),
                ], content: label(ofSceneLayer: layer.sceneLayer))
        }
        writer.close()
    }
}
