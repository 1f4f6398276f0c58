import XCTest

@_spi(Testing) @testable import BatchGeometry

/// `applyPresentation` writes a transform with the setter's steps inlined (no 4×4 copied
/// into calls); this checks it against the public setters themselves, bit for bit: random
/// animations of every transform key path (value functions whose matrix is identity, a
/// −0, affine or 3D; whole matrices of every kind) over models of every kind, with the
/// drift references of a masked list's cards built (so the setters' drift notes run).
final class PresentationSetterPathTests: XCTestCase {
    func testTheApplyEqualsTheSettersBitForBit() throws {
        for seed in UInt64(0)..<4 {
            var random = SplitMix64(seed: 4700 + seed)
            var model = LayerStore()
            let list = model.addViewWithFrame(Rect(0, 0, 400, 600))
            model.setMasksToBounds(true, of: list)
            var layers: [LayerHandle] = []
            for n in 0..<60 {
                let card = model.addViewWithFrame(Rect(5, Double(n) * 40, 390, 34), parent: list)
                if random.chance(50) { model.setTransform(PresentationRestoreTests.randomTransform(&random), of: card) }
                layers.append(card)
            }
            var animations = AnimationStore()
            for layer in layers where random.chance(80) {
                for _ in 0..<1 + random.below(2) {
                    try animations.add(Self.randomAnimation(&random), to: layer, in: model)
                }
            }
            var scratch = VisibleLayers()
            model.visibleLayers(in: Rect(0, 0, 400, 600), into: &scratch)  // builds the caches the copies carry
            var values = PresentationValues()
            for frame in 0..<40 {
                try animations.sample(at: Double(frame) / 20, model: model, into: &values)
                var applied = model.copy()
                applied.applyPresentation(values)
                var setters = model.copy()
                Self.setValues(values, on: &setters)
                try Self.assertSameBits(&applied, &setters, layers, "seed \(seed) frame \(frame)")
            }
        }
    }

    /// The sample's transforms, positions and opacities through the public setters, each
    /// only where it differs by `==` (as the apply writes).
    static func setValues(_ values: PresentationValues, on store: inout LayerStore) {
        for k in 0..<values.layers.count {
            let slot = values.layers[k]
            let written = values.touched[k]
            if written.contains(.transform), store.transform(of: slot) != values.transform(at: k) {
                store.setTransform(values.transform(at: k), of: slot)
            }
            if written.contains(.position), store.position(of: slot) != values.positionColumn[k] {
                store.setPosition(values.positionColumn[k], of: slot)
            }
            if written.contains(.opacity), store.opacity(of: slot) != values.opacityColumn[k] {
                store.setOpacity(values.opacityColumn[k], of: slot)
            }
        }
    }

    /// The same transform bits and kinds, positions, opacities, world transforms and frame
    /// query answers; both stores keep their invariants.
    static func assertSameBits(
        _ applied: inout LayerStore, _ setters: inout LayerStore, _ layers: [LayerHandle], _ label: String
    ) throws {
        for layer in layers {
            let text = "\(label) layer \(layer.index)"
            XCTAssertEqual(bits(applied.transform(of: layer)), bits(setters.transform(of: layer)), text)
            XCTAssertEqual(applied.transformKind(of: layer), setters.transformKind(of: layer), text)
            XCTAssertEqual(applied.position(of: layer).x.bitPattern, setters.position(of: layer).x.bitPattern, text)
            XCTAssertEqual(applied.position(of: layer).y.bitPattern, setters.position(of: layer).y.bitPattern, text)
            XCTAssertEqual(applied.opacity(of: layer).bitPattern, setters.opacity(of: layer).bitPattern, text)
        }
        let (appliedWorld, settersWorld) = (applied.worldTransforms(), setters.worldTransforms())
        for layer in layers {
            XCTAssertEqual(bits(appliedWorld[layer]), bits(settersWorld[layer]), "\(label) layer \(layer.index)")
        }
        var a = VisibleLayers()
        var s = VisibleLayers()
        applied.visibleLayers(in: Rect(0, 0, 400, 600), into: &a)
        setters.visibleLayers(in: Rect(0, 0, 400, 600), into: &s)
        XCTAssertEqual(a.layers, s.layers, label)
        XCTAssertEqual(a.worldRects, s.worldRects, label)
        XCTAssertEqual(applied._invariantViolations(), [], label)
        XCTAssertEqual(setters._invariantViolations(), [], label)
    }

    static func bits(_ t: Transform3D) -> [UInt64] { t.rowMajor.map(\.bitPattern) }

    /// Every transform key path (rotations from 0, so −0 entries; scales through 1, so
    /// identity), a position or an opacity; some additive.
    static func randomAnimation(_ random: inout SplitMix64) -> Animation {
        let duration = 0.3 + random.unit() * 1.5
        let additive = random.chance(25)
        let paths: [AnimationKeyPath] = [
            .transformRotation, .transformRotationX, .transformRotationY, .transformRotationZ, .transformScale,
            .transformScaleX, .transformScaleY, .transformScaleZ, .transformTranslationX, .transformTranslationY,
            .transformTranslationZ,
        ]
        let pick = random.below(paths.count + 4)
        var animation: Animation
        switch pick {
        case paths.count:
            animation = basic(.transformTranslation, from: [0, 0], to: [40, -30], duration: duration)
        case paths.count + 1:
            let from = PresentationRestoreTests.randomTransform(&random).rowMajor
            let to = PresentationRestoreTests.randomTransform(&random).rowMajor
            animation = basic(.transform, from: from, to: to, duration: duration)
        case paths.count + 2: animation = basic(.position, from: [100, 100], to: [300, 200], duration: duration)
        case paths.count + 3: animation = basic(.opacity, from: [1], to: [0.2], duration: duration)
        default:
            let scale = paths[pick].rawValue.hasPrefix("transform.scale")
            animation = basic(paths[pick], from: [scale ? 0.5 : 0], to: [scale ? 1.5 : 1.2], duration: duration)
        }
        animation.isAdditive = additive
        return animation
    }
}
