import BatchGeometry

/// What an app does between two frames, for the frame benchmark (batchbench's `frame`
/// kernel) and its tests: frame k's edits, the touches to hit-test and the viewport to
/// draw. Everything is a pure function of the workload and k, so two stores given the
/// same frames in the same order end up equal.
///
/// On the `app` shape (`AppLayout`), frame k:
/// - scrolls every list to `contentOffset(ofList:frame: k)` with `setContentOffset`
///   (2 to 6 points from frame k - 1, wrapping within the list's range);
/// - turns every strip card to `stripAngle(card:frame: k)` (6° a frame, about y);
/// - in every card on screen after the scroll, moves the badge to
///   `badgePosition(card:frame:)`, hides or shows it (`badgeHidden(card:frame:)`) and
///   sets the label's width (`labelWidth(card:frame:)`, new text);
/// - spins the icon of the first card on screen in each list (`spinnerRotation(frame:)`).
///
/// That changes about 280 layers a frame. The touches: three over the lists (cards or
/// the gaps between them) and two over the strip (a card's middle, or anywhere on it),
/// all inside the window. The viewport is the window.
///
/// On the other shapes (nothing scrolls or masks there): 300 layers (all of them when
/// fewer), evenly spread at `t·stride + stride/2`, move by one point in x in odd frames
/// and back in even ones; the touches are `QueryPoints.world(count: 5, seed: 1000 + k)`;
/// the viewport is (0, 0, 400, 560), the area those points cover, which shows most of
/// those scenes: the worst case for an output-sensitive query.
package struct FrameScript: Sendable {
    /// Touches per frame.
    package static let touchCount = 5
    /// Layers moved per frame on the shapes other than `app`.
    package static let genericEditCount = 300

    package let workload: Workload
    private let layout: AppLayout?

    /// The script of `workload`. O(1).
    package init(_ workload: Workload) {
        self.workload = workload
        layout = workload.shape == .app ? AppLayout(layerCount: workload.layerCount) : nil
    }

    /// The world rect the frame query asks for.
    package var viewport: Rect {
        if layout != nil { return Rect(origin: .zero, size: AppLayout.windowSize) }
        return Rect(x: 0, y: 0, width: 400, height: 560)
    }

    /// Applies frame `frame`'s edits (`frame >= 0`) to `store`, a store built by
    /// `workload.makeStore()` (and maybe given other frames since), and returns how many
    /// layers they set. O(edits).
    @discardableResult
    package func apply(frame: Int, to store: inout LayerStore) -> Int {
        precondition(frame >= 0, "frames are numbered from 0")
        guard let layout else { return applyGeneric(frame: frame, to: &store) }
        var changed = 0
        let n = layout.layerCount
        // `store.layer(i)` between the setters reads the handle in place: `handle(at:)` is
        // inlinable (an out-of-line call on the inout store would be passed a copy of it).
        for j in 0..<AppLayout.listCount where AppLayout.list(j) < n {
            let offset = layout.contentOffset(ofList: j, frame: frame)
            store.setContentOffset(Point(x: 0, y: offset), of: store.layer(AppLayout.list(j)))
            changed += 1
            let cards = layout.visibleCards(ofList: j, offset: offset)
            for position in cards {
                let card = layout.firstCard(ofList: j) + position
                let base = layout.cardLayer(card)
                if base + 2 < n {
                    let label = store.layer(base + 2)
                    store.setBounds(
                        Rect(x: 0, y: 0, width: layout.labelWidth(card: card, frame: frame), height: 20), of: label)
                    changed += 1
                }
                if base + 3 < n {
                    let badge = store.layer(base + 3)
                    store.setPosition(layout.badgePosition(card: card, frame: frame), of: badge)
                    store.setHidden(layout.badgeHidden(card: card, frame: frame), of: badge)
                    changed += 1
                }
            }
            if let first = cards.first, layout.cardLayer(layout.firstCard(ofList: j) + first) + 1 < n {
                let icon = store.layer(layout.cardLayer(layout.firstCard(ofList: j) + first) + 1)
                store.setAffineTransform(layout.spinnerRotation(frame: frame), of: icon)
                changed += 1
            }
        }
        for i in 0..<AppLayout.stripCardCount where AppLayout.stripCard(i) < n {
            let angle = layout.stripAngle(card: i, frame: frame)
            store.setTransform(.rotation(radians: angle, x: 0, y: 1, z: 0), of: store.layer(AppLayout.stripCard(i)))
            changed += 1
        }
        return changed
    }

    private func applyGeneric(frame: Int, to store: inout LayerStore) -> Int {
        let n = workload.layerCount
        let count = Swift.min(n, Self.genericEditCount)
        let stride = n / count
        let nudge = frame % 2 == 1 ? 1.0 : 0.0
        for t in 0..<count {
            let index = t * stride + stride / 2
            let position = workload.recipe(of: index).position
            store.setPosition(Point(x: position.x + nudge, y: position.y), of: store.layer(index))
        }
        return count
    }

    /// Frame `frame`'s touches, in world space (`touchCount` of them). O(1).
    package func touches(frame k: Int) -> [Point] {
        precondition(k >= 0, "frames are numbered from 0")
        guard layout != nil else { return QueryPoints.world(count: Self.touchCount, seed: UInt64(1000 + k)) }
        let width = AppLayout.listWidth
        let strip = AppLayout.stripFrame
        let lists = [k % 20, (7 * k + 3) % 20, (11 * k + 9) % 20].map { Double($0) * width }
        return [
            Point(x: lists[0] + 20 + Double((13 * k) % 56), y: 40 + Double((97 * k) % 800)),
            Point(x: lists[1] + 48, y: 120 + Double((53 * k) % 700)),
            Point(x: lists[2] + 10 + Double(k % 70), y: 450 + Double((29 * k) % 400)),
            // The middle of strip card k % 12, and anywhere on the strip.
            Point(x: 80 + 160 * Double(k % 12), y: strip.y + 100),
            Point(x: Double((211 * k) % 1920), y: strip.y + 5 + Double((17 * k) % 190)),
        ]
    }

    /// The touches of frames `0 ..< frames`, one after another: the points the single
    /// hit-test kernels cycle through. O(frames).
    package func touches(frames: Int) -> [Point] {
        (0..<frames).flatMap { touches(frame: $0) }
    }
}
