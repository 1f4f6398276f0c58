// Hit-test markers and the legend of a scene picture.

import BatchGeometry

extension ScenePicture {
    /// Each hit-test point: a dot joined by a line to the label of the layer it hit and
    /// captioned `k → name`, or a red cross captioned `k: miss`.
    func writeHits(_ writer: inout SVGWriter) {
        writer.open("g", [("id", "hit-tests"), ("font-size", "10")])
        for (index, point) in scene.hitTests.enumerated() {
            let marker = frame.map(point)
            let x = SVGWriter.number(marker.x)
            let y = SVGWriter.number(marker.y)
            let caption = [("x", SVGWriter.number(marker.x + 6)), ("y", SVGWriter.number(marker.y - 5))]
            guard let hit = evaluation.hits[index] else {
                let path = "M\(SVGWriter.number(marker.x - 4)),\(SVGWriter.number(marker.y - 4)) l8,8 m0,-8 l-8,8"
                writer.element(
                    "path",
                    [
                        ("class", "miss"), ("data-hit", "\(index)"), ("d", path), ("stroke", "#d62728"),
                        ("stroke-width", "2"),
                    ])
                writer.element("text", caption + [("fill", "#d62728")], content: "\(index): miss")
                continue
            }
            if let storeLayer = evaluation.storeLayers[hit], let target = labelPositions[storeLayer] {
                writer.element(
                    "line",
                    [
                        ("class", "hit-link"), ("x1", x), ("y1", y), ("x2", SVGWriter.number(target.x)),
                        ("y2", SVGWriter.number(target.y)), ("stroke", "#111111"), ("stroke-dasharray", "3 2"),
                    ])
            }
            writer.element(
                "circle",
                [
                    ("class", "hit"), ("data-hit", "\(index)"), ("data-layer", "\(hit)"), ("cx", x), ("cy", y),
                    ("r", "4"),
                    ("fill", "#111111"), ("stroke", "#ffffff"),
                ])
            writer.element("text", caption + [("fill", "#111111")], content: "\(index) → \(label(ofSceneLayer: hit))")
        }
        writer.close()
    }

    /// Legend entries: a swatch kind and its text.
    func legendItems() -> [(kind: String, text: String)] {
        var items: [(kind: String, text: String)] = []
        let shown = shownLayers
        for depth in Set(shown.map { depths[$0.storeLayer] }).sorted() {
            items.append(("depth \(depth)", "depth \(depth)"))
        }
        if options.invisible && shown.contains(where: { !$0.visible }) { items.append(("invisible", "not visible")) }
        if options.clips && evaluation.clipRects.contains(where: { $0 != nil }) { items.append(("clip", "clip rect")) }
        if options.viewport && scene.viewport != nil { items.append(("viewport", "viewport")) }
        if options.frames { items.append(("frame", "frame in superlayer")) }
        if options.hits && evaluation.hits.contains(where: { $0 != nil }) { items.append(("hit", "hit test → layer")) }
        if options.hits && evaluation.hits.contains(where: { $0 == nil }) { items.append(("miss", "hit test: miss")) }
        return items
    }

    var legendColumns: Int { max(1, Int((frame.pixelWidth - 2 * Self.margin) / 140)) }

    /// The legend, `legendColumns` entries a row, from pixel `top` down.
    func writeLegend(_ writer: inout SVGWriter, top: Double) {
        writer.open("g", [("id", "legend"), ("font-size", "11")])
        for (index, item) in legendItems().enumerated() {
            let x = Self.margin + Double(index % legendColumns) * 140
            let y = top + Double(index / legendColumns) * 20
            writeSwatch(&writer, item.kind, x: x, y: y)
            writer.element(
                "text", [("x", SVGWriter.number(x + 22)), ("y", SVGWriter.number(y + 10)), ("fill", "#333333")],
                content: item.text)
        }
        writer.close()
    }

    private func writeSwatch(_ writer: inout SVGWriter, _ kind: String, x: Double, y: Double) {
        let box = [
            ("x", SVGWriter.number(x)), ("y", SVGWriter.number(y)), ("width", "16"), ("height", "12"),
        ]
        switch kind {
        case "invisible":
            writer.element("rect", box + [("fill", "none"), ("stroke", "#777777"), ("stroke-dasharray", "1 3")])
        case "clip":
            writer.element("rect", box + [("fill", "none"), ("stroke", "#333333"), ("stroke-dasharray", "6 4")])
        case "viewport":
            writer.element("rect", box + [("fill", "none"), ("stroke", "#000000"), ("stroke-width", "2")])
        case "frame":
            writer.element("rect", box + [("fill", "none"), ("stroke", "#555555"), ("stroke-dasharray", "2 2")])
        case "hit":
            writer.element(
                "circle",
                [("cx", SVGWriter.number(x + 8)), ("cy", SVGWriter.number(y + 6)), ("r", "4"), ("fill", "#111111")])
        case "miss":
            writer.element(
                "path",
                [
                    ("d", "M\(SVGWriter.number(x + 4)),\(SVGWriter.number(y + 2)) l8,8 m0,-8 l-8,8"),
                    ("stroke", "#d62728"), ("stroke-width", "2"),
                ])
        default:
            let depth = Int(kind.split(separator: " ").last ?? "0") ?? 0
            let colour = colour(ofDepth: depth)
            writer.element(
                "rect",
                box + [("fill", colour), ("fill-opacity", "0.15"), ("stroke", colour), ("stroke-width", "1.5")])
        }
    }
}
