import XCTest

@_spi(Testing) @testable import BatchGeometry

/// One presentation store kept across frames (restore the previous sample, edit both
/// stores, sample, apply) holds, frame after frame, the sample's value of each property
/// it wrote and the model's of every other: the transform comparisons that read the kind
/// first (identity, or a kind that changed, settle without the matrix) write what the
/// full comparisons wrote.
final class PresentationRestoreTests: XCTestCase {
    func testAKeptPresentationStoreEqualsAFreshCopyEveryFrame() throws {
        for seed in UInt64(0)..<4 {
            var random = SplitMix64(seed: 9100 + seed)
            var model = LayerStore()
            let root = try model.addLayer()
            model.setFrame(Rect(0, 0, 800, 800), of: root)
            var layers: [LayerHandle] = []
            for _ in 0..<40 {
                let layer = try model.addLayer(superlayer: layers.isEmpty || random.chance(50) ? root : layers[0])
                model.setFrame(Rect(random.unit() * 700, random.unit() * 700, 40, 40), of: layer)
                model.setTransform(Self.randomTransform(&random), of: layer)
                if random.chance(20) { model.setSublayerTransform(.perspective(distance: 500), of: layer) }
                layers.append(layer)
            }
            var animations = AnimationStore()
            for layer in layers where random.chance(70) {
                try animations.add(Self.randomAnimation(&random), to: layer, in: model)
            }
            var values = PresentationValues()
            var screen = model.copy()
            for frame in 0..<50 {
                screen.restoreModelValues(of: values, from: model)
                if random.chance(30) {  // the host's edit, to both stores
                    let layer = layers[random.below(layers.count)]
                    let transform = Self.randomTransform(&random)
                    model.setTransform(transform, of: layer)
                    screen.setTransform(transform, of: layer)
                }
                try animations.sample(at: Double(frame) / 30, model: model, into: &values)
                screen.applyPresentation(values)
                // The reference: the sample's value where it wrote one, else the model's
                // (compared with `==`, as the writes are: -0 and 0 are the same value).
                var expected: [Int: (Transform3D?, Transform3D?, Point?)] = [:]
                for k in 0..<values.layers.count {
                    let written = values.touched[k]
                    expected[values.layers[k]] = (
                        written.contains(.transform) ? values.transform(at: k) : nil,
                        written.contains(.sublayerTransform) ? values.sublayerTransformColumn[k] : nil,
                        written.contains(.position) ? values.positionColumn[k] : nil
                    )
                }
                for layer in layers {
                    let label = "seed \(seed) frame \(frame) layer \(layer.index)"
                    let sampled = expected[layer.index]
                    XCTAssertEqual(
                        screen.transform(of: layer).rowMajor,
                        (sampled?.0 ?? model.transform(of: layer)).rowMajor, label)
                    XCTAssertEqual(
                        screen.sublayerTransform(of: layer).rowMajor,
                        (sampled?.1 ?? model.sublayerTransform(of: layer)).rowMajor, label)
                    XCTAssertEqual(screen.position(of: layer), sampled?.2 ?? model.position(of: layer), label)
                }
            }
            XCTAssertEqual(screen._invariantViolations(), [])
        }
    }

    /// Identity, a scale, a 3D rotation or a perspective: every kind.
    static func randomTransform(_ random: inout SplitMix64) -> Transform3D {
        switch random.below(4) {
        case 0: return .identity
        case 1: return .scale(x: 0.5 + random.unit(), y: 0.5 + random.unit())
        case 2: return .rotation(radians: random.unit() * 3, x: 0, y: 1, z: 0)
        default: return Transform3D.perspective(distance: 400).concatenating(.scale(x: 1.2, y: 1.2))
        }
    }

    /// A transform animation of one of several key paths (some ending, so the model's
    /// value comes back), or a position one.
    static func randomAnimation(_ random: inout SplitMix64) -> Animation {
        let duration = 0.3 + random.unit() * 1.5
        switch random.below(5) {
        case 0: return basic(.transformScale, from: [0.8], to: [1.2], duration: duration)
        case 1: return basic(.transformRotationY, from: [0], to: [1.5], duration: duration)
        case 2:
            let from = randomTransform(&random).rowMajor
            return basic(.transform, from: from, to: randomTransform(&random).rowMajor, duration: duration)
        case 3:
            return basic(.sublayerTransform, from: Transform3D.identity.rowMajor, to: randomTransform(&random).rowMajor)
        default: return basic(.position, from: [100, 100], to: [300, 200], duration: duration)
        }
    }
}
