import XCTest

@_spi(Testing) @testable import BatchGeometry

/// The culled sample on long lists (issue 23's O(visible) frame): the members ordered by
/// reach per superlayer and the band search, animations that end while culled (removed on
/// completion or kept with a fill), removals that keep the tables and adds that remake
/// them. Each frame is compared with the fully sampled store (frame query bit for bit,
/// `finished`, the live count), and the band's members with every member's own test.
final class CulledSampleListTests: XCTestCase {
    /// A window with four long lists: a plain vertical one, a flipped one, one with a
    /// sublayer scale (the band through a scale and a reflection) and a horizontal one
    /// (the band along x); 160 cards each, some with a sublayer sticking out.
    struct Lists: ~Copyable {
        var model = LayerStore()
        var lists: [LayerHandle] = []
        var cards: [LayerHandle] = []

        init(_ random: inout SplitMix64) throws {
            let window = try model.addLayer()
            model.setBounds(Rect(0, 0, 1000, 700), of: window)
            for j in 0..<4 {
                let list = try model.addLayer(superlayer: window)
                let horizontal = j == 3
                model.setFrame(horizontal ? Rect(0, 560, 1000, 140) : Rect(Double(j) * 180, 0, 170, 540), of: list)
                let content = horizontal ? Size(160 * 130, 140) : Size(170, 160 * 130)
                model.setScrollView(ScrollViewState(contentSize: content), of: list)
                model.setMasksToBounds(j != 0, of: list)
                if j == 1 { model.setGeometryFlipped(true, of: list) }
                if j == 2 { model.setSublayerTransform(.scale(x: 1.2, y: 0.8, z: 1), of: list) }
                lists.append(list)
                for m in 0..<160 {
                    let card = try model.addLayer(superlayer: list)
                    let along = Double(m) * 130 + 10 * random.unit()
                    model.setFrame(horizontal ? Rect(along, 10, 120, 120) : Rect(10, along, 150, 120), of: card)
                    if random.unit() < 0.3 {
                        let badge = try model.addLayer(superlayer: card)
                        model.setFrame(Rect(130, -10, 30, 30), of: badge)
                    }
                    cards.append(card)
                }
            }
        }

        /// Frame `n`'s edits: every list scrolls; a card jumps elsewhere in its list (its
        /// reach is redone and its group reordered).
        func edit(_ store: inout LayerStore, frame n: Int) {
            for (j, list) in lists.enumerated() {
                let offset = Double((n * (53 + 17 * j)) % 20_000)
                store.setContentOffset(j == 3 ? Point(offset, 0) : Point(0, offset), of: list)
            }
            let c = (n * 97) % cards.count
            let along = Double((n * 37) % 160) * 130 + 65
            store.setPosition(c / 160 == 3 ? Point(along, 70) : Point(85, along), of: cards[c])
        }
    }

    /// A position, scale or opacity animation that ends: 1 to 3 iterations from a begin
    /// spread over the run, removed on completion or kept with each fill mode; a few run
    /// for ever.
    static func endingAnimation(_ random: inout SplitMix64) -> Animation {
        var timing = AnimationTiming()
        timing.beginTime = random.unit() * 3 - 0.5
        timing.duration = 0.1 + random.unit() * 0.6
        timing.repeatCount = random.unit() < 0.1 ? .infinity : 1 + Double(Int(random.unit() * 3))
        timing.autoreverses = random.unit() < 0.5
        timing.speed = random.unit() < 0.2 ? 2 : 1
        timing.fillMode = [FillMode.removed, .forwards, .backwards, .both][Int(random.unit() * 4)]
        timing.removedOnCompletion = random.unit() < 0.5
        switch Int(random.unit() * 3) {
        case 0:
            return Animation(
                keyPath: .position,
                content: .basic(from: [40 * random.unit() - 20, 300 * random.unit()], to: [0, 0], by: nil),
                timing: timing, timingFunction: TimingFunction(.easeInEaseOut), isAdditive: true)
        case 1:
            let spring = Spring(stiffness: 100 + 200 * random.unit(), damping: 5 + 10 * random.unit())
            return Animation(
                keyPath: .transformScale, content: .spring(spring, from: [0.5 + random.unit()], to: [1], by: nil),
                timing: timing)
        default:
            return Animation(
                keyPath: .opacity, content: .basic(from: [random.unit()], to: [1], by: nil), timing: timing,
                timingFunction: TimingFunction(.easeOut))
        }
    }

    func testLongListsMatchTheFullSample() throws {
        var totalCulled = 0
        var totalLive = 0
        var endedWhileCulled = 0
        var culledFrames = 0
        for seed in 0..<3 {
            var random = SplitMix64(seed: UInt64(seed) &* 0x51_7CC1 &+ 3)
            let scene = try Lists(&random)
            var stores = (AnimationStore(), AnimationStore())
            var added: [Int] = []
            func addOne() throws {
                let card = scene.cards[Int(random.unit() * Double(scene.cards.count))]
                let animation = Self.endingAnimation(&random)
                added.append(try stores.0.add(animation, to: card, in: scene.model))
                XCTAssertEqual(try stores.1.add(animation, to: card, in: scene.model), added.last)
            }
            for _ in 0..<300 { try addOne() }
            var twins = CulledSampleTwins(scene.model)
            for n in 1...120 {
                scene.edit(&twins.model, frame: n)
                scene.edit(&twins.full, frame: n)
                scene.edit(&twins.culled, frame: n)
                if n % 25 == 0 {
                    // The caller's removal keeps the culled tables; an add remakes them.
                    let number = added[(n * 7) % added.count]
                    try stores.0.remove(number)
                    try stores.1.remove(number)
                    if n % 50 == 0 { try addOne() }
                }
                let region = Rect(
                    random.unit() * 900 - 100, random.unit() * 600 - 100, 50 + random.unit() * 400,
                    50 + random.unit() * 300)
                let finishedBefore = Set(stores.1.finished)
                try twins.sample(&stores, at: Double(n) / 30, region: region, "seed \(seed) frame \(n)")
                // The first sample after an add samples everything (no tables to check).
                if stores.1.cull.liveVersion == stores.1.liveVersion {
                    culledFrames += 1
                    Self.assertBandHoldsEveryMeetingMember(
                        stores.1, model: twins.model, region: region, "seed \(seed) frame \(n)")
                    let shownMembers = Set(stores.1.cull.visible)
                    for number in stores.1.finished where !finishedBefore.contains(number) {
                        let member = stores.1.cull.memberOfAnimation[number]
                        if member >= 0 && !shownMembers.contains(member) { endedWhileCulled += 1 }
                    }
                }
                totalCulled += stores.1.lastCulledCount
                totalLive += stores.1.liveCount
            }
            twins.culled._checkInvariants()
        }
        XCTAssertGreaterThan(totalCulled, totalLive / 2, "most animations on the long lists should be culled")
        XCTAssertGreaterThan(culledFrames, 300, "most frames should take the culled path")
        XCTAssertGreaterThan(endedWhileCulled, 20, "animations should end while culled")
    }

    /// Every member whose own test (`worldBox`) meets `region` is in the visible list:
    /// the band search skipped none.
    static func assertBandHoldsEveryMeetingMember(
        _ store: AnimationStore, model: borrowing LayerStore, region: Rect, _ context: String
    ) {
        let visible = Set(store.cull.visible)
        var banded = 0
        for group in store.cull.groups {
            guard let toWorld = AnimationStore.planarSublayerToWorld(of: Int(group.superlayer), model: model) else {
                continue
            }
            if AnimationStore.band(of: group, through: toWorld, region: region) != nil { banded += 1 }
            for m in group.members {
                guard let reach = store.cull.members[m].reach else { continue }
                if AnimationStore.worldBox(of: reach, through: toWorld, meets: region) {
                    XCTAssert(visible.contains(Int32(m)), "\(context): member \(m) meets the region but was skipped")
                }
            }
        }
        XCTAssertGreaterThan(banded, 2, "\(context): the lists should be searched by band")
    }
}
