// The `layers` array: each object is read into a small buffer, then the layer is created
// in the store right away (so memory is the store, not a list of decoded objects), with
// the creation order of SCENE-FORMAT.md. Parents that come later in the array are linked
// once every layer exists.

/// The keys of one layer object, before the layer is created.
private struct LayerFields {
    var name: String?
    var parent: Int?
    var bounds: Rect?
    var position: Point?
    var frame: Rect?
    var anchorPoint: Point?
    var zPosition: Double?
    var anchorPointZ: Double?
    var transform: Transform3D?
    var sublayerTransform: Transform3D?
    var geometryFlipped: Bool?
    var masksToBounds: Bool?
    var hidden: Bool?
    var isTransformLayer: Bool?
    var contentSize: Size?
    var contentInset: EdgeInsets?
    var autoresizingMask: AutoresizingMask?
    var autoresizesSubviews: Bool?
    /// `beginTime`, `speed`, `timeOffset` (ANIMATION.md 2.1).
    var timing = LayerTiming()
    /// The table properties given (`LayerProperty`), in file order.
    var properties: [(LayerProperty, Double)] = []
}

private let layerKeyList = [
    "name", "parent", "bounds", "position", "frame", "anchorPoint", "zPosition", "anchorPointZ", "transform",
    "sublayerTransform", "geometryFlipped", "masksToBounds", "hidden", "isTransformLayer", "contentSize",
    "contentInset",
    "autoresizingMask", "autoresizesSubviews", "beginTime", "speed", "timeOffset",
]
private let layerKeys = (layerKeyList + LayerProperty.allCases.map(\.name)).joined(separator: ", ")

extension SceneDecoder {
    mutating func decodeLayers() throws(SceneError) {
        let path = ScenePath(key: "layers")
        try reader.beginArray(path, expected: "an array of layer objects")
        var first = true
        while try reader.nextElement(first: &first, path) {
            let layerPath = path.at(index: store.count)
            let fields = try readLayerFields(layerPath)
            try createLayer(fields, layerPath)
        }
    }

    private mutating func readLayerFields(_ path: ScenePath) throws(SceneError) -> LayerFields {
        try reader.beginObject(path, expected: "a layer object")
        var fields = LayerFields()
        var seen: UInt64 = 0  // one bit per known key (a bitmask: no allocation per layer)
        var first = true
        while let key = try reader.nextKey(first: &first, path) {
            let keyPath = path.field(key)
            if let property = LayerProperty(name: key) {
                let bit = layerKeyList.count + Int(property.rawValue)
                guard seen & (1 << bit) == 0 else { throw keyPath.error("duplicate key") }
                seen |= 1 << bit
                fields.properties.append((property, try readPropertyValue(property, keyPath)))
                continue
            }
            guard let bit = layerKeyList.firstIndex(of: key) else {
                throw keyPath.error("unknown key (a layer has \(layerKeys))")
            }
            guard seen & (1 << bit) == 0 else { throw keyPath.error("duplicate key") }
            seen |= 1 << bit
            switch key {
            case "name": fields.name = try reader.readString(keyPath)
            case "parent": fields.parent = reader.skipNull() ? nil : try reader.readIndex(keyPath)
            case "bounds": fields.bounds = try readRect(keyPath, "[x, y, width, height]")
            case "position": fields.position = try readPoint(keyPath, "[x, y]")
            case "frame": fields.frame = try readRect(keyPath, "[x, y, width, height]")
            case "anchorPoint": fields.anchorPoint = try readPoint(keyPath, "[x, y]")
            case "zPosition": fields.zPosition = try reader.readNumber(keyPath)
            case "anchorPointZ": fields.anchorPointZ = try reader.readNumber(keyPath)
            case "transform": fields.transform = try readTransform(keyPath)
            case "sublayerTransform": fields.sublayerTransform = try readTransform(keyPath)
            case "geometryFlipped": fields.geometryFlipped = try reader.readBool(keyPath)
            case "masksToBounds": fields.masksToBounds = try reader.readBool(keyPath)
            case "hidden": fields.hidden = try reader.readBool(keyPath)
            case "isTransformLayer": fields.isTransformLayer = try reader.readBool(keyPath)
            case "contentSize": fields.contentSize = try readSize(keyPath)
            case "contentInset": fields.contentInset = try readInsets(keyPath)
            case "autoresizingMask": fields.autoresizingMask = try readAutoresizingMask(keyPath)
            case "autoresizesSubviews": fields.autoresizesSubviews = try reader.readBool(keyPath)
            case "beginTime": fields.timing.beginTime = try readFiniteNumber(keyPath)
            case "speed": fields.timing.speed = try readFiniteNumber(keyPath)
            case "timeOffset": fields.timing.timeOffset = try readFiniteNumber(keyPath)
            default: throw keyPath.error("unknown key (a layer has \(layerKeys))")
            }
        }
        if fields.contentInset != nil && fields.contentSize == nil {
            throw path.field("contentInset").error("needs contentSize (only a scroll view has insets)")
        }
        return fields
    }

    /// Creates the layer: anchorPoint, then frame (as `initWithFrame:`, the transform
    /// still identity), then bounds, position, then the rest. Creation never autoresizes:
    /// a layer's sublayers come later in the array, or are linked after every layer exists.
    private mutating func createLayer(_ fields: LayerFields, _ path: ScenePath) throws(SceneError) {
        let layer = store.count
        let linkNow = fields.parent.map { $0 >= 0 && $0 < layer } ?? true
        do {
            try store.addLayer(superlayer: linkNow ? fields.parent : nil)
        } catch {
            throw path.error("\(error)")
        }
        if !linkNow, let parent = fields.parent { lateParents.append((layer, parent)) }
        names.append(fields.name)
        layerTimings.append(fields.timing)
        if let anchorPoint = fields.anchorPoint { store.setAnchorPoint(anchorPoint, of: layer) }
        if let frame = fields.frame { store.setFrame(frame, of: layer) }
        if let bounds = fields.bounds { store.setBounds(bounds, of: layer) }
        if let position = fields.position { store.setPosition(position, of: layer) }
        if let zPosition = fields.zPosition { store.setZPosition(zPosition, of: layer) }
        if let anchorPointZ = fields.anchorPointZ { store.setAnchorPointZ(anchorPointZ, of: layer) }
        if let transform = fields.transform { store.setTransform(transform, of: layer) }
        if let transform = fields.sublayerTransform { store.setSublayerTransform(transform, of: layer) }
        if let value = fields.geometryFlipped { store.setGeometryFlipped(value, of: layer) }
        if let value = fields.masksToBounds { store.setMasksToBounds(value, of: layer) }
        if let value = fields.hidden { store.setHidden(value, of: layer) }
        if let value = fields.isTransformLayer { store.setTransformLayer(value, of: layer) }
        if let mask = fields.autoresizingMask { store.setAutoresizingMask(mask, of: layer) }
        if let value = fields.autoresizesSubviews { store.setAutoresizesSubviews(value, of: layer) }
        for (property, value) in fields.properties { store.setValue(value, of: property, at: layer) }
        if let contentSize = fields.contentSize {
            store.setScrollView(
                ScrollViewState(contentSize: contentSize, contentInset: fields.contentInset ?? .zero),
                of: layer)
        }
    }

    /// A table property's value (`LayerProperty.kind`): a number (or a number word), or
    /// `true`/`false` read as 1/0.
    private mutating func readPropertyValue(_ property: LayerProperty, _ path: ScenePath) throws(SceneError) -> Double {
        switch property.kind {
        case .number: return try reader.readNumber(path)
        case .bool: return try reader.readBool(path) ? 1 : 0
        }
    }

    /// Checks and links the parents that could not be linked when their child was
    /// created (a parent later in the array); a parent cycle is an error naming the
    /// smallest layer index on the cycle. Sublayer order stays the array order: such a
    /// parent's late children (indices below it) go first, then its children linked at
    /// creation (indices above it), which are appended again to keep them after. Every
    /// link is an append, O(1) apart from setParent's cycle walk (O(depth)).
    mutating func linkLateParents() throws(SceneError) {
        guard !lateParents.isEmpty else { return }
        let count = store.count
        var declaredParent: [Int: Int] = [:]
        var lateChildren: [Int: [Int]] = [:]
        for (layer, parent) in lateParents {
            guard parent >= 0 && parent < count else {
                throw ScenePath(key: "layers", index: layer, field: "parent")
                    .error("\(parent) is out of range (\(layerCountPhrase))")
            }
            if parent == layer {
                throw ScenePath(key: "layers", index: layer, field: "parent").error("a layer cannot be its own parent")
            }
            declaredParent[layer] = parent
            lateChildren[parent, default: []].append(layer)
        }
        try rejectCycles(declaredParent)
        for parent in lateChildren.keys.sorted() {
            let children = lateChildren[parent]! + store.sublayers(of: parent)
            for child in children {
                do {
                    try store.insertSublayer(child, into: parent)
                } catch {
                    throw ScenePath(key: "layers", index: child, field: "parent").error("\(error)")
                }
            }
        }
    }

    /// Every cycle contains a late link (a link to an earlier parent cannot close one),
    /// so walks start at late-linked layers only. Each layer is walked once: O(count).
    private func rejectCycles(_ declaredParent: [Int: Int]) throws(SceneError) {
        func parent(of layer: Int) -> Int? { declaredParent[layer] ?? store.superlayer(of: layer) }
        var walkOf = [Int32](repeating: 0, count: store.count)  // 0 = not yet visited
        for (start, _) in lateParents where walkOf[start] == 0 {
            let walk = Int32(start + 1)
            var current: Int? = start
            while let layer = current, walkOf[layer] == 0 {
                walkOf[layer] = walk
                current = parent(of: layer)
            }
            guard let repeated = current, walkOf[repeated] == walk else { continue }
            // `repeated` is on the cycle: list it from its smallest member.
            var cycle = [repeated]
            var next = parent(of: repeated)!
            while next != repeated {
                cycle.append(next)
                next = parent(of: next)!
            }
            let smallest = cycle.indices.min { cycle[$0] < cycle[$1] }!
            cycle = Array(cycle[smallest...] + cycle[..<smallest])
            let shown =
                cycle.prefix(8).map(String.init).joined(separator: " -> ")
                + (cycle.count > 8 ? " -> ..." : "") + " -> \(cycle[0])"
            throw ScenePath(key: "layers", index: cycle[0], field: "parent")
                .error("\(parent(of: cycle[0])!) makes a parent cycle (parent chain \(shown))")
        }
    }
}
