import BatchGeometry
import BatchGeometryWorkloads

/// The `frame-animated` kernel's animations (issue 23 item 7): up to 10,000 cards of the
/// `app` workload, spread evenly over the lists, each running one animation — an additive
/// easeInEaseOut position nudge, a spring `transform.scale` or an easeOut opacity fade, in
/// turn — that repeats (autoreversing) for ever, so all of them run in every frame.
/// (Restarting finished animations with `add` instead would grow the store every frame:
/// animation numbers are never reused; see docs/DEBTS.md.)
///
/// It keeps the model store (the script's edits, never a presentation value) and plays
/// the frame loop of Animations.md on the queried store, the presentation tree: keep the
/// previous sample, edit both stores, sample at the frame's time, then move the store from
/// the previous sample to the new one (`updatePresentation(from:to:model:)`: the result of
/// restoring the previous sample, then applying the new one, each property written once).
final class FrameAnimations {
    static let defaultCardCount = 10_000

    private var animations = AnimationStore()
    private(set) var values = PresentationValues()
    /// The sample before `values` (what the presentation store holds until the update).
    private var previous = PresentationValues()
    /// The model: the script's edits only.
    private(set) var model: LayerStore
    private var player: FramePlayer
    /// The animations running (every one, every frame).
    let count: Int
    /// Whether `sample(frame:)` samples only the animations that can show in `region`
    /// (`sample(at:model:into:culledTo:)`, kernel frame-animated) or every one
    /// (frame-animated-unculled).
    var culled = true
    /// The frame query's viewport, which the culled sample is for.
    let region: Rect
    /// The full sample at the latest check (`sampleForCheck(frame:)`), which the old
    /// path applies: the culled store is checked against every animation's values.
    private(set) var checkValues = PresentationValues()
    /// How many animations the latest sample culled.
    var lastCulledCount: Int { animations.lastCulledCount }

    init(workload: Workload, mode: FrameScriptMode, cards: Int = FrameAnimations.defaultCardCount) {
        region = FrameScript(workload).viewport
        let store = workload.makeStore()
        player = FramePlayer(workload, mode: mode, store: store)
        let layout = AppLayout(layerCount: workload.layerCount)
        let animated = Swift.min(cards, layout.cardCount)
        var random = SplitMix64(seed: workload.seed ^ 0x23_a11)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        for k in 0..<animated {
            let card = k * layout.cardCount / animated
            guard let layer = store.handle(at: layout.cardLayer(card)) else { continue }
            do {
                try animations.add(Self.animation(kind: k % 3, unit: unit), to: layer, in: store)
            } catch {
                fatalError("the card animations are malformed: \(error)")
            }
        }
        count = animations.liveCount
        model = store
        // Both sample buffers warmed, as an engine would at load time: the frames take
        // turns with them (`restore` swaps), so the second one's first sample grew it in
        // frame 2. At time 0, before frame 1's 1/60 s; frame 1 moves the screen from this
        // unapplied sample, every property of which its own sample writes again.
        // Then a culled sample into `values`, as an engine would take at load time: it makes
        // the culled sample's tables and every reach (O(animations)), which frame 1 would
        // otherwise pay (~146 allocations, 20-40 ms at 1M).
        do {
            try animations.sample(at: 0, model: model, into: &previous)
            try animations.sample(at: 0, model: model, into: &values)
            try animations.sample(at: 0, model: model, into: &values, culledTo: region)
        } catch {
            fatalError("sampling failed: \(error)")
        }
    }

    /// Animation `kind` of the cards' mix; `unit` draws numbers in [0, 1).
    private static func animation(kind: Int, unit: () -> Double) -> Animation {
        var timing = AnimationTiming()
        timing.beginTime = -unit()
        timing.repeatCount = .infinity
        timing.autoreverses = true
        switch kind {
        case 0:
            timing.duration = 0.3 + 0.4 * unit()
            return Animation(
                keyPath: .position, content: .basic(from: [16 * unit() - 8, 24 * unit() - 12], to: [0, 0], by: nil),
                timing: timing, timingFunction: TimingFunction(.easeInEaseOut), isAdditive: true)
        case 1:
            let spring = Spring(stiffness: 200 + 200 * unit(), damping: 10 + 10 * unit())
            timing.duration = spring.settlingDuration
            return Animation(
                keyPath: .transformScale, content: .spring(spring, from: [0.9], to: [1], by: nil), timing: timing)
        default:
            timing.duration = 0.2 + 0.3 * unit()
            return Animation(
                keyPath: .opacity, content: .basic(from: [0.4], to: [1], by: nil), timing: timing,
                timingFunction: TimingFunction(.easeOut))
        }
    }

    /// Keeps the sample `screen` holds as the previous one (its storage is reused by the
    /// next sample): nothing is written to `screen` before the frame's edits, which both
    /// stores get and which the update overwrites where a sample writes.
    func restore(_ screen: inout LayerStore) {
        swap(&previous, &values)
    }

    /// The frame's edits to the model (the caller gives the screen the same edits).
    func edit(frame: Int) { _ = player.apply(frame: frame, to: &model) }

    /// Samples the animations at the frame's time (1/60 s a frame) against the model:
    /// those that can show in the viewport when `culled`, else every one.
    func sample(frame: Int) {
        do {
            if culled {
                try animations.sample(at: Double(frame) / 60, model: model, into: &values, culledTo: region)
            } else {
                try animations.sample(at: Double(frame) / 60, model: model, into: &values)
            }
        } catch {
            fatalError("sampling failed: \(error)")
        }
    }

    /// Samples every animation at the frame's time again, into `checkValues` (after
    /// `sample(frame:)`, outside the timed part): what the old path shows.
    func sampleForCheck(frame: Int) {
        do {
            try animations.sample(at: Double(frame) / 60, model: model, into: &checkValues)
        } catch {
            fatalError("sampling failed: \(error)")
        }
    }

    /// Moves `screen` from the previous sample to the last one.
    func apply(to screen: inout LayerStore) { screen.updatePresentation(from: previous, to: values, model: model) }

    /// Nil when every animation showed at the last full sample (`sampleForCheck`); else
    /// what went wrong.
    var problem: String? {
        checkValues.count == count ? nil : "\(checkValues.count) layers animated at the last frame, expected \(count)"
    }
}
