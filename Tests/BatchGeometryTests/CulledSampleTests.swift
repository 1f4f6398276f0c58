import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The culled sample (`AnimationStore.sample(at:model:into:culledTo:)`, issue 23): on
/// random scenes, animations and regions, the presentation store it keeps answers the
/// frame query and hit tests in the region exactly as the fully sampled one, `finished`
/// is the same, and each culled layer's reach holds its subtree at densely sampled times.
final class CulledSampleTests: XCTestCase {
    /// A window with lists (scroll views; some flipped, rotated, with a sublayer transform
    /// or in 3D), cards with sublayers in them, and the model's edits of a frame.
    struct Scene: ~Copyable {
        var model = LayerStore()
        var lists: [LayerHandle] = []
        var cards: [LayerHandle] = []
        var sublayers: [LayerHandle] = []

        init(_ random: inout SplitMix64) throws {
            let window = try model.addLayer()
            model.setBounds(Rect(0, 0, 800, 600), of: window)
            for j in 0..<5 {
                let list = try model.addLayer(superlayer: window)
                model.setFrame(Rect(Double(j) * 160, 0, 150, 600), of: list)
                model.setScrollView(ScrollViewState(contentSize: Size(150, 4_000)), of: list)
                model.setMasksToBounds(j % 2 == 0, of: list)
                if j == 1 { model.setTransform(.rotation(radians: 0.2, x: 0, y: 0, z: 1), of: list) }
                if j == 2 { model.setGeometryFlipped(true, of: list) }
                if j == 3 { model.setSublayerTransform(.scale(x: 1.1, y: 0.9, z: 1), of: list) }
                if j == 4 && random.unit() < 0.5 {
                    model.setTransform(.rotation(radians: 0.4, x: 0, y: 1, z: 0), of: list)
                }
                lists.append(list)
                for m in 0..<30 {
                    let card = try model.addLayer(superlayer: list)
                    model.setFrame(Rect(5 + 10 * random.unit(), Double(m) * 130, 140, 120), of: card)
                    if m % 7 == 3 { model.setTransform(.rotation(radians: 0.1, x: 0, y: 0, z: 1), of: card) }
                    // Flipped cards: their sublayers are mirrored (an unbounded reach).
                    if m % 11 == 5 { model.setGeometryFlipped(true, of: card) }
                    cards.append(card)
                    for k in 0..<Int(random.unit() * 3) {
                        let sublayer = try model.addLayer(superlayer: card)
                        // Some stick out of the card (as the app's badges do).
                        let x = -30 + 180 * random.unit()
                        model.setFrame(Rect(x, Double(k) * 40 - 10, 40, 30), of: sublayer)
                        if random.unit() < 0.1 {
                            model.setTransform(.rotation(radians: 0.7, x: 0, y: 0, z: 1), of: sublayer)
                        }
                        sublayers.append(sublayer)
                    }
                }
            }
        }

        /// Frame `n`'s edits, made to every store given: the lists scroll, a card moves, a
        /// card's sublayer moves and grows (a reach kept from an earlier frame is stale).
        func edit(_ store: inout LayerStore, frame n: Int) {
            Self.edit(&store, frame: n, lists: lists, cards: cards)
            let sublayer = sublayers[(n * 29) % sublayers.count]
            // Not setFrame, which reads the (maybe animated) transform.
            store.setPosition(Point(Double(n % 9) * 25 - 60, Double(n % 4) * 30), of: sublayer)
            store.setBounds(Rect(0, 0, 20 + Double(n % 6) * 15, 30), of: sublayer)
        }

        static func edit(_ store: inout LayerStore, frame n: Int, lists: [LayerHandle], cards: [LayerHandle]) {
            for (j, list) in lists.enumerated() {
                store.setContentOffset(Point(0, Double((n * (37 + 11 * j)) % 3_400)), of: list)
            }
            // Card c is card c % 30 of its list: its model y is the same in every store.
            let c = (n * 17) % cards.count
            store.setPosition(Point(75 + Double(n % 5), Double(c % 30) * 130 + 60), of: cards[c])
        }
    }

    /// A random animation: every key path the culling bounds and several it does not,
    /// additive and not, timing functions (custom ones overshooting), springs (some
    /// underdamped with overshoot, some critically or over damped), keyframes, cumulative.
    static func randomAnimation(_ random: inout SplitMix64) -> Animation {
        var timing = AnimationTiming()
        timing.beginTime = random.unit() * 2 - 0.5
        timing.duration = 0.2 + random.unit()
        if random.unit() < 0.6 {
            timing.repeatCount = random.unit() < 0.5 ? .infinity : 1 + Double(Int(random.unit() * 3))
            timing.autoreverses = random.unit() < 0.5
        }
        timing.fillMode = [FillMode.removed, .forwards, .backwards, .both][Int(random.unit() * 4)]
        timing.removedOnCompletion = random.unit() < 0.5
        let named: TimingFunction? = [
            TimingFunction(.easeInEaseOut), TimingFunction(.linear), nil,
            TimingFunction(controlPoints: 0.3, -0.6, 0.6, 1.7),
        ][Int(random.unit() * 4)]
        let spring = Spring(
            stiffness: 50 + 350 * random.unit(), damping: random.unit() < 0.3 ? 40 : 2 + 15 * random.unit(),
            initialVelocity: random.unit() < 0.3 ? 10 * random.unit() - 5 : 0, allowsOverdamping: random.unit() < 0.2)
        // A spring has no timing function: `function` goes with basic animations only.
        let useSpring = random.unit() < 0.5
        let function = useSpring ? nil : named
        func curve(_ from: [Double], _ to: [Double]) -> Animation.Content {
            useSpring ? .spring(spring, from: from, to: to, by: nil) : .basic(from: from, to: to, by: nil)
        }
        let additive = random.unit() < 0.5
        let cumulative = random.unit() < 0.05
        switch Int(random.unit() * 9) {
        case 0, 1:
            return Animation(
                keyPath: .position, content: curve([60 * random.unit() - 30, 60 * random.unit() - 30], [0, 0]),
                timing: timing, timingFunction: function, isAdditive: additive, isCumulative: cumulative)
        case 2:
            return Animation(
                keyPath: .position, content: curve([75, 200 * random.unit()], [75 + 30 * random.unit(), 900]),
                timing: timing, timingFunction: function)
        case 3, 4:
            return Animation(
                keyPath: .transformScale, content: curve([0.5 + random.unit()], [1]), timing: timing,
                timingFunction: function, isAdditive: additive)
        case 5:
            return Animation(
                keyPath: .opacity, content: curve([random.unit()], [1]), timing: timing, timingFunction: function)
        case 6:
            return Animation(
                keyPath: .transformRotationZ, content: curve([0], [1.5]), timing: timing, timingFunction: function)
        case 7:
            let keyframes = Keyframes(values: [[0, 0], [20, -40], [0, 0]], keyTimes: [0, 0.5, 1])
            return Animation(keyPath: .position, content: .keyframe(keyframes), timing: timing, isAdditive: true)
        default:
            return Animation(
                keyPath: .positionY, content: curve([0], [300 * random.unit()]), timing: timing, isAdditive: true)
        }
    }

    /// Adds a random animation to a random card (now and then to a list or a sublayer:
    /// an animated ancestor or descendant) in both stores.
    static func addRandomAnimation(
        _ random: inout SplitMix64, _ scene: borrowing Scene, to stores: inout (AnimationStore, AnimationStore)
    ) throws {
        let pick = random.unit()
        let layer: LayerHandle
        if pick < 0.03 {
            layer = scene.lists[Int(random.unit() * Double(scene.lists.count))]
        } else if pick < 0.08 && !scene.sublayers.isEmpty {
            layer = scene.sublayers[Int(random.unit() * Double(scene.sublayers.count))]
        } else {
            layer = scene.cards[Int(random.unit() * Double(scene.cards.count))]
        }
        let animation = randomAnimation(&random)
        try stores.0.add(animation, to: layer, in: scene.model)
        try stores.1.add(animation, to: layer, in: scene.model)
    }

    /// Over many frames of random scenes, scrolls, regions and animations (some added
    /// mid-run, some finishing and leaving): the frame query of the culled presentation
    /// store equals the fully sampled one's, bit for bit (layers, world transforms and
    /// rects, clips, opacities), hit tests at points in the region agree, and `finished`
    /// is the same list. Some animations must actually be culled.
    func testCulledFramesEqualFullFrames() throws {
        var totalCulled = 0
        var totalSampled = 0
        for seed in 0..<6 {
            var random = SplitMix64(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
            let scene = try Scene(&random)
            var stores = (AnimationStore(), AnimationStore())
            for _ in 0..<120 { try Self.addRandomAnimation(&random, scene, to: &stores) }
            var twins = CulledSampleTwins(scene.model)
            for n in 1...90 {
                scene.edit(&twins.model, frame: n)
                scene.edit(&twins.full, frame: n)
                scene.edit(&twins.culled, frame: n)
                if n % 30 == 0 { try Self.addRandomAnimation(&random, scene, to: &stores) }
                let region = Rect(
                    random.unit() * 700 - 100, random.unit() * 500 - 100, random.unit() * 400, random.unit() * 300)
                try twins.sample(&stores, at: Double(n) / 30, region: region, "seed \(seed) frame \(n)")
                totalCulled += stores.1.lastCulledCount
                totalSampled += stores.1.liveCount
                for _ in 0..<6 {
                    let point = Point(
                        region.minX + random.unit() * region.size.width,
                        region.minY + random.unit() * region.size.height)
                    XCTAssertEqual(
                        twins.full.hitTest(point, rule: .layer), twins.culled.hitTest(point, rule: .layer),
                        "seed \(seed) frame \(n): hit test at \(point)")
                }
            }
            twins.culled._checkInvariants()
        }
        XCTAssertGreaterThan(totalCulled, totalSampled / 10, "frames should cull many animations")
    }

    /// For single animations (position additive or not, transform.scale; springs that
    /// overshoot, timing functions past [0, 1]) on a card whose sublayers stick out, one
    /// rotated, the reach holds the box of the card's subtree in its superlayer's bounds
    /// space, computed independently (the 4×4 `transformToSuperlayer` chain of the fully
    /// sampled presentation), at 3,000 times across the animation. The springs do go past
    /// their ends: a reach that ignored the overshoot would fail here.
    func testReachHoldsTheSubtreeAtEveryTime() throws {
        var random = SplitMix64(seed: 23)
        var overshoots = 0
        for trial in 0..<45 {
            var model = LayerStore()
            let root = try model.addLayer()
            model.setBounds(Rect(0, 0, 1000, 1000), of: root)
            let card = try model.addLayer(superlayer: root)
            model.setFrame(Rect(300, 300, 140, 120), of: card)
            model.setAnchorPoint(Point(random.unit(), random.unit()), of: card)
            let badge = try model.addLayer(superlayer: card)
            model.setFrame(Rect(120, -12, 30, 30), of: badge)
            let turned = try model.addLayer(superlayer: card)
            model.setFrame(Rect(10, 60, 100, 20), of: turned)
            model.setTransform(.rotation(radians: 0.6, x: 0, y: 0, z: 1), of: turned)
            var timing = AnimationTiming()
            timing.duration = 0.5 + random.unit()
            timing.autoreverses = trial % 2 == 0
            let spring = Spring(
                stiffness: 100 + 300 * random.unit(), damping: 2 + 10 * random.unit(),
                initialVelocity: 8 * random.unit() - 4)
            let function = trial % 4 == 1 ? TimingFunction(controlPoints: 0.2, -0.8, 0.7, 1.9) : nil
            let useSpring = trial % 4 != 1
            func content(_ from: [Double], _ to: [Double]) -> Animation.Content {
                useSpring ? .spring(spring, from: from, to: to, by: nil) : .basic(from: from, to: to, by: nil)
            }
            let animation: Animation
            switch trial % 3 {
            case 0:
                animation = Animation(
                    keyPath: .position, content: content([-40, 30], [0, 0]), timing: timing, timingFunction: function,
                    isAdditive: true)
            case 1:
                animation = Animation(
                    keyPath: .position, content: content([300, 200], [420, 380]), timing: timing,
                    timingFunction: function)
            default:
                animation = Animation(
                    keyPath: .transformScale, content: content([0.6], [1]), timing: timing, timingFunction: function,
                    isAdditive: trial % 2 == 1)
            }
            var animations = AnimationStore()
            try animations.add(animation, to: card, in: model)
            var values = PresentationValues()
            try animations.sample(at: 0, model: model, into: &values)
            try animations.sample(at: 0, model: model, into: &values, culledTo: Rect(5_000, 5_000, 1, 1))
            XCTAssertEqual(animations.lastCulledCount, 1, "trial \(trial): culled far away")
            XCTAssertEqual(animations.cull.members.count, 1)
            let reach = try XCTUnwrap(animations.reach(of: animations.cull.members[0], model: model))
            var wentPast = false
            for step in 0...3_000 {
                let time = Double(step) / 3_000 * timing.duration * (timing.autoreverses ? 2 : 1)
                try animations.sample(at: time, model: model, into: &values)
                var screen = model.copy()
                screen.applyPresentation(values)
                let box = Self.subtreeBox(card, [badge, turned], in: screen)
                XCTAssert(
                    box.minX >= reach.minX && box.minY >= reach.minY && box.maxX <= reach.maxX
                        && box.maxY <= reach.maxY,
                    "trial \(trial) at \(time): the subtree's box \(box) is outside the reach \(reach)")
                let p = screen.position(of: card)
                let m = model.position(of: card)
                switch trial % 3 {
                case 0: wentPast = wentPast || p.x < m.x - 40 || p.x > m.x || p.y < m.y || p.y > m.y + 30
                case 1: wentPast = wentPast || p.x < 300 || p.x > 420 || p.y < 200 || p.y > 380
                default:
                    wentPast = wentPast || screen.transform(of: card).m11 < 0.6 || screen.transform(of: card).m11 > 1
                }
            }
            if wentPast { overshoots += 1 }
        }
        XCTAssertGreaterThan(overshoots, 20, "the springs and the custom curve should overshoot their ends")
    }

    /// The box of `card`'s bounds and its sublayers' in its superlayer's bounds space,
    /// through `transformToSuperlayer` (4×4, the library's general path).
    static func subtreeBox(_ card: LayerHandle, _ sublayers: [LayerHandle], in store: borrowing LayerStore) -> RectEdges
    {
        var box = RectEdges.null
        let toSuperlayer = store.transformToSuperlayer(of: card)
        for (layer, map) in [(card, toSuperlayer)]
            + sublayers.map({ ($0, store.transformToSuperlayer(of: $0).concatenating(toSuperlayer)) })
        {
            let b = store.bounds(of: layer)
            for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.minX, b.maxY), (b.maxX, b.maxY)] {
                let px = x * map.m11 + y * map.m21 + map.m41
                let py = x * map.m12 + y * map.m22 + map.m42
                box =
                    box.isNull
                    ? RectEdges(minX: px, minY: py, maxX: px, maxY: py)
                    : RectEdges(
                        minX: min(box.minX, px), minY: min(box.minY, py), maxX: max(box.maxX, px),
                        maxY: max(box.maxY, py))
            }
        }
        return box
    }
}
