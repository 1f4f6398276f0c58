// The hierarchy of a scene's layers as its structure operations change it, played at
// decode time so that every structural error is reported before anything runs
// (SCENE-FORMAT.md, "Structure operations").

/// Superlayers, ordered sublayer lists and removals of a scene's layers, by scene index.
struct SceneStructure {
    private var parents: [Int?]
    private var sublayers: [[Int]]
    private var roots: [Int]
    /// For each layer, the index of the operation that removed it; nil while it exists.
    private(set) var removedBy: [Int?]

    /// The hierarchy as the `layers` array built it. O(layers).
    init(_ store: borrowing LayerStore) {
        parents = (0..<store.count).map { store.superlayer(of: $0) }
        sublayers = (0..<store.count).map { store.sublayers(of: $0) }
        roots = store.rootIndices
        removedBy = Array(repeating: nil, count: store.count)
    }

    /// Throws at `path` when an earlier operation removed `layer`.
    func checkAlive(_ layer: Int, _ path: ScenePath) throws(SceneError) {
        if let operation = removedBy[layer] {
            throw path.error("layer \(layer) was removed by operations[\(operation)]")
        }
    }

    /// Checks a structure operation against the hierarchy so far, then plays it. Other
    /// operations change nothing here.
    mutating func apply(_ operation: SceneOperation, operationIndex: Int, layerCountPhrase: String) throws(SceneError) {
        switch operation.change {
        case .superlayer(let target, let index):
            try move(operation.layer, to: target, at: index, operationIndex, layerCountPhrase)
        case .remove:
            remove(operation.layer, by: operationIndex)
        default:
            break
        }
    }

    private mutating func move(
        _ layer: Int, to target: Int?, at index: Int?, _ operation: Int,
        _ layerCountPhrase: String
    ) throws(SceneError) {
        let valuePath = ScenePath(key: "operations", index: operation, field: "value")
        if let target {
            guard target >= 0 && target < parents.count else {
                throw valuePath.error("\(target) is out of range (\(layerCountPhrase))")
            }
            try checkAlive(target, valuePath)
            var ancestor: Int? = target
            while let current = ancestor {
                if current == layer {
                    throw valuePath.error(
                        target == layer
                            ? "layer \(layer) cannot be its own superlayer"
                            : "moving layer \(layer) under layer \(target) would make a cycle (\(target) is inside \(layer)'s subtree)"
                    )
                }
                ancestor = parents[current]
            }
        }
        let others = (target.map { sublayers[$0] } ?? roots).filter { $0 != layer }
        if let index, index < 0 || index > others.count {
            let count = others.count
            let owner =
                target.map { "layer \($0) has \(count) \(count == 1 ? "sublayer" : "sublayers")" }
                ?? (count == 1 ? "there is 1 root" : "there are \(count) roots")
            throw ScenePath(key: "operations", index: operation, field: "index")
                .error("\(index) is out of range (0...\(others.count): \(owner) besides layer \(layer))")
        }
        detach(layer)
        let position = index ?? others.count
        if let target { sublayers[target].insert(layer, at: position) } else { roots.insert(layer, at: position) }
        parents[layer] = target
    }

    private mutating func remove(_ layer: Int, by operation: Int) {
        detach(layer)
        var stack = [layer]
        while let current = stack.popLast() {
            removedBy[current] = operation
            stack += sublayers[current]
        }
    }

    private mutating func detach(_ layer: Int) {
        if let parent = parents[layer] {
            sublayers[parent].removeAll { $0 == layer }
        } else {
            roots.removeAll { $0 == layer }
        }
        parents[layer] = nil
    }
}
