// Packet traversal for the culled batch hit test: up to `HitPacket.width` points, next to
// one another in the batch's Z order, walk the layer tree once together. Each layer is
// reached once per packet (its world map read or computed once, its extent tested once
// against the packet's box), and each point is tested only while it is unanswered and
// the box test leaves it in doubt. Every point's answer is the single walk's
// (`culledHitTest`): the same sublayers in the same order, the same expressions.

/// The packet walk's stacks and lanes, kept by the store between batches so a warmed-up
/// batch allocates nothing.
struct HitPacket: Sendable {
    /// Points a packet: a lane per bit of a `UInt64` mask. 64 beat 32 and 16 at 1M layers
    /// (Benchmarks/KERNELS.md, "Packet hit tests (fourth session)").
    static let width = 64

    var frames: [PacketFrame] = []
    /// The packet's world points and answers (a slot, or -1), by lane.
    var world: [Point] = []
    var answers: [Int32] = []
    /// Per frame, from its `base`: each lane's point in the layer's plane and its margin.
    var locals: [Point] = []
    var margins: [Double] = []
    /// The world step of the layer being entered, when the walk computes steps
    /// (`WorldStepSource.readsSuperlayerStep`): a field, not a `WorldStep?` passed and
    /// returned by value through every visit (137 bytes copied a visit).
    var step = WorldStep(mode: 0, matrix: .identity)

    /// Bytes allocated for the stacks and lanes. O(1).
    var allocatedByteCount: Int {
        allocatedBytes(frames) + allocatedBytes(world) + allocatedBytes(answers) + allocatedBytes(locals)
            + allocatedBytes(margins)
    }

    /// Where the next frame's lanes go in `locals` and `margins` (grown to hold them).
    /// Inlined (a call a visit); the growth, once per depth, is not.
    @inline(__always)
    mutating func nextBase() -> Int {
        let base = frames.isEmpty ? 0 : Int(frames[frames.count - 1].base) + Self.width
        if locals.count < base + Self.width { growLanes(to: base + Self.width) }
        return base
    }

    @inline(never)
    private mutating func growLanes(to count: Int) {
        while locals.count < count {
            locals.append(Point(x: 0, y: 0))
            margins.append(0)
        }
    }

    /// The box of `lanes`' points (all prunable) in the frame at `base`.
    func box(of lanes: UInt64, base: Int) -> LaneBox {
        var box = LaneBox()
        var rest = lanes
        while rest != 0 {
            let lane = rest.trailingZeroBitCount
            rest &= rest - 1
            box.add(locals[base + lane], margin: margins[base + lane])
        }
        return box
    }
}

/// A layer whose sublayers a packet is going through, for the lanes in `lanes` (a layer
/// may have two: its R-tree's candidates for the lanes that prune, its whole list for
/// those that cannot).
struct PacketFrame {
    /// -1: the roots.
    var layer: Int32
    /// As `HitFrame`'s.
    var next: Int32
    var start: Int32 = 0
    var end: Int32 = 0
    var fromCandidates = false
    var base: Int32
    /// The lanes walking the sublayers; of those, the ones inside the layer (answered by
    /// it when no sublayer is hit) and the ones with a margin (pruned by extents).
    var lanes: UInt64
    var inside: UInt64
    var prunable: UInt64
    var box: LaneBox
}

/// The box of a frame's prunable points and the range of their margins: decides an
/// extent for all of them at once when it can. Every point is finite, every margin finite
/// and not negative.
struct LaneBox {
    var minX = Double.infinity, minY = Double.infinity
    var maxX = -Double.infinity, maxY = -Double.infinity
    var minMargin = Double.infinity, maxMargin = -Double.infinity

    /// The maxima as `new > old ? new : old` (one `maxsd`), not `Swift.max` (which keeps
    /// the new value on a tie, four instructions): they differ only in a zero's sign,
    /// which none of the box's comparisons sees. Run for every lane a visit keeps.
    @inline(__always)
    mutating func add(_ point: Point, margin: Double) {
        (minX, maxX) = (Swift.min(minX, point.x), point.x > maxX ? point.x : maxX)
        (minY, maxY) = (Swift.min(minY, point.y), point.y > maxY ? point.y : maxY)
        (minMargin, maxMargin) = (Swift.min(minMargin, margin), margin > maxMargin ? margin : maxMargin)
    }

    /// No point lies in `extent` widened by its margin (`containsClosed` is false for
    /// each): rounding is monotone, so `e.maxX + maxMargin < minX` puts every point past
    /// `e.maxX + margin`, and so on.
    @inline(__always)
    func rejects(_ e: RectEdges) -> Bool {
        e.maxX + maxMargin < minX || e.minX - maxMargin > maxX || e.maxY + maxMargin < minY
            || e.minY - maxMargin > maxY
    }

    /// Every point lies in `extent` widened by its margin (`containsClosed` is true for
    /// each), by the same monotonicity. `extent` is not null.
    @inline(__always)
    func acceptsAll(_ e: RectEdges) -> Bool {
        e.minX - minMargin <= minX && maxX <= e.maxX + minMargin && e.minY - minMargin <= minY
            && maxY <= e.maxY + minMargin
    }

    /// A box holding every point's `RectEdges(around:margin:)`.
    var region: RectEdges {
        RectEdges(minX: minX - maxMargin, minY: minY - maxMargin, maxX: maxX + maxMargin, maxY: maxY + maxMargin)
    }
}

/// `PlanarWorld.unprojectInFrontOfEye` and `PlaneMap.unprojectionMargin` with the terms
/// that do not depend on the point computed once a layer: the same expressions, so the
/// same bits.
struct PlanarSolver {
    let world: PlanarWorld
    let det, c31, c32: Double
    /// The matrix side of the solve is usable (finite, not singular).
    let solves: Bool
    /// `unprojectionMargin`'s `2 · scale / |det|`; nil: too close to singular to prune.
    let inverseNorm: Double?

    @inline(__always)
    init(_ m: PlanarWorld) {
        world = m
        det = m.a * m.d - m.b * m.c
        c31 = m.c * m.ty - m.d * m.tx
        c32 = m.b * m.tx - m.a * m.ty
        solves =
            det != 0 && det.isFinite && c31.isFinite && c32.isFinite && m.a.isFinite && m.b.isFinite
            && m.c.isFinite && m.d.isFinite
        let scale = Swift.max(Swift.max(abs(m.a), abs(m.b)), Swift.max(abs(m.c), abs(m.d)))
        let marginDet = m.a * m.d - m.b * m.c
        inverseNorm =
            marginDet.isFinite && scale.isFinite && abs(marginDet) >= 0x1p-24 * scale * scale
            ? 2 * scale / abs(marginDet) : nil
    }

    /// `PlanarWorld.unprojectInFrontOfEye(point)` when `solves` is true and `point` is
    /// finite (every packet lane's is): the same expressions without the checks.
    @inline(__always)
    func solve(_ point: Point) -> Point {
        let x = (point.x * world.d + point.y * -world.c) + c31
        let y = (point.x * -world.b + point.y * world.a) + c32
        return Point(x: x / det, y: y / det)
    }

    @inline(__always)
    func margin(of p: Point, result q: Point) -> Double? {
        guard let inverseNorm else { return nil }
        let margin =
            0x1p-36 * ((abs(p.x) + abs(p.y) + abs(world.tx) + abs(world.ty)) * inverseNorm + abs(q.x) + abs(q.y))
        return margin.isFinite ? margin : nil
    }
}

extension LayerStore {
    /// The sorted batch (`order`), packet after packet of `HitPacket.width` points, into
    /// `results`: the culled walk's answers. A point with a non-finite coordinate takes
    /// the single walk (no box holds it), before the packets.
    mutating func packetHitTests(
        _ points: [Point], _ order: [Int32], _ rule: HitTestRule, _ steps: some WorldStepSource,
        _ scratch: inout WalkScratch, _ packet: inout HitPacket, into results: inout [LayerHandle?]
    ) {
        var k = 0
        while k < points.count {
            if !points[k].x.isFinite || !points[k].y.isFinite {
                results[k] = culledHitTest(points[k], rule: rule, steps, &scratch).map { handle(atSlot: $0) }
            }
            k += 1
        }
        // The packet walks hold the subtree bounds, moved out and back (not copied), to redo
        // parked boxes on their way down, and are non-mutating: they read the store in
        // place. (Mutating, they passed each non-mutating call they made out of line a copy
        // of the whole store, ~1.4 KB: once per visited layer.)
        var bounds = SubtreeBounds()
        swap(&bounds, &caches.subtreeBounds)
        walkPackets(points, order, rule, steps, &scratch, &packet, &bounds, into: &results)
        swap(&bounds, &caches.subtreeBounds)
    }

    /// `packetHitTests`' packets, in one non-mutating call (the store is not copied per
    /// packet).
    private func walkPackets(
        _ points: [Point], _ order: [Int32], _ rule: HitTestRule, _ steps: some WorldStepSource,
        _ scratch: inout WalkScratch, _ packet: inout HitPacket, _ bounds: inout SubtreeBounds,
        into results: inout [LayerHandle?]
    ) {
        var k = 0
        while k < points.count {
            let count = Swift.min(HitPacket.width, points.count - k)
            packetHitTest(points, order, from: k, count: count, rule, steps, &scratch, &packet, &bounds, into: &results)
            k += count
        }
    }

    /// Answers the batch's finite points among `order[from ..< from + count]` (count ≤
    /// `HitPacket.width`) into `results` by one packet walk. `bounds`: the store's subtree
    /// bounds, moved out of it.
    private func packetHitTest(
        _ points: [Point], _ order: [Int32], from: Int, count: Int, _ rule: HitTestRule, _ steps: some WorldStepSource,
        _ scratch: inout WalkScratch, _ packet: inout HitPacket, _ bounds: inout SubtreeBounds,
        into results: inout [LayerHandle?]
    ) {
        packet.world.removeAll(keepingCapacity: true)
        packet.answers.removeAll(keepingCapacity: true)
        var lanes: UInt64 = 0
        var lane = 0
        while lane < count {
            let point = points[Int(order[from + lane])]
            packet.world.append(point)
            packet.answers.append(-1)
            if point.x.isFinite && point.y.isFinite { lanes |= 1 << UInt64(lane) }
            lane += 1
        }
        scratch.points += lanes.nonzeroBitCount
        walkPacket(lanes, rule, steps, &scratch, &packet, &bounds)
        var rest = lanes
        while rest != 0 {
            lane = rest.trailingZeroBitCount
            rest &= rest - 1
            let slot = packet.answers[lane]
            results[Int(order[from + lane])] = slot < 0 ? nil : handle(atSlot: Int(slot))
        }
    }

    /// The walk of `lanes` from the roots: `culledHitSubtree`'s order for each lane, one
    /// frame stack for all. `bounds`: the store's subtree bounds, moved out of it.
    private func walkPacket(
        _ lanes: UInt64, _ rule: HitTestRule, _ steps: some WorldStepSource, _ scratch: inout WalkScratch,
        _ packet: inout HitPacket, _ bounds: inout SubtreeBounds
    ) {
        let skip = skippedSubtreeFlags(rule)
        packet.frames.removeAll(keepingCapacity: true)
        scratch.steps.removeAll(keepingCapacity: true)
        scratch.candidates.removeAll(keepingCapacity: true)
        guard lanes != 0 else { return }
        // The roots, tested as sublayers of a plane that is the world (margin 0: the
        // single walk's `containsClosed(point)`).
        let base = packet.nextBase()
        var box = LaneBox()
        var rest = lanes
        while rest != 0 {
            let lane = rest.trailingZeroBitCount
            rest &= rest - 1
            (packet.locals[base + lane], packet.margins[base + lane]) = (packet.world[lane], 0)
            box.add(packet.world[lane], margin: 0)
        }
        packet.frames.append(
            PacketFrame(
                layer: -1, next: hierarchy.lastRoot, base: Int32(base), lanes: lanes, inside: 0, prunable: lanes,
                box: box))
        var open = lanes
        while !packet.frames.isEmpty {
            let depth = packet.frames.count - 1
            if let (sublayer, entering) = nextPacketCandidate(
                &packet.frames[depth], open, packet.locals, packet.margins, scratch.candidates, skip, bounds.extent,
                &scratch.testedSublayers)
            {
                enterPacket(sublayer, entering, rule, steps, &scratch, &packet, &open, &bounds)
                continue
            }
            let frame = packet.frames.removeLast()
            if frame.layer >= 0 && steps.readsSuperlayerStep { scratch.steps.removeLast() }
            if frame.fromCandidates { scratch.candidates.removeLast(Int(frame.end - frame.start)) }
            answer(frame.inside & frame.lanes & open, with: Int(frame.layer), &packet, &open)
        }
    }

    /// Gives `lanes` the answer `layer`.
    @inline(__always)
    private func answer(_ lanes: UInt64, with layer: Int, _ packet: inout HitPacket, _ open: inout UInt64) {
        var rest = lanes
        while rest != 0 {
            packet.answers[rest.trailingZeroBitCount] = Int32(layer)
            rest &= rest - 1
        }
        open &= ~lanes
    }

    /// The next sublayer to try and the open lanes that try it (`nextHitCandidate` for
    /// each lane, the packet's box deciding the extent for all its lanes when it can); nil
    /// when none is left for any lane.
    @inline(__always)
    private func nextPacketCandidate(
        _ frame: inout PacketFrame, _ open: UInt64, _ locals: [Point], _ margins: [Double], _ candidates: [UInt64],
        _ skip: LayerFlags, _ extents: RemappedColumn<RectEdges>, _ tested: inout Int
    ) -> (Int, UInt64)? {
        let flags = columns.flags
        while true {
            let lanes = frame.lanes & open
            guard lanes != 0 else { return nil }
            let sublayer: Int
            if frame.fromCandidates {
                guard frame.next > frame.start else { return nil }
                frame.next -= 1
                sublayer = Int(UInt32(truncatingIfNeeded: candidates[Int(frame.next)]))
            } else {
                guard frame.next >= 0 else { return nil }
                sublayer = Int(frame.next)
                frame.next = hierarchy.previousSiblings[sublayer]
            }
            tested += 1
            let extent = extents[sublayer]
            if extent.isNull || !flags[sublayer].isDisjoint(with: skip) { continue }
            var entering = lanes & ~frame.prunable
            let pruned = lanes & frame.prunable
            if pruned != 0 && !frame.box.rejects(extent) {
                if frame.box.acceptsAll(extent) {
                    entering |= pruned
                } else {
                    entering |= Self.lanes(pruned, locals, margins, base: Int(frame.base), in: extent)
                }
            }
            if entering != 0 { return (sublayer, entering) }
        }
    }

    /// Of `lanes`, those whose point lies in `extent` widened by its margin.
    @inline(__always)
    private static func lanes(
        _ lanes: UInt64, _ locals: [Point], _ margins: [Double], base: Int, in extent: RectEdges
    ) -> UInt64 {
        var inside: UInt64 = 0
        var rest = lanes
        while rest != 0 {
            let lane = rest.trailingZeroBitCount
            rest &= rest - 1
            if extent.containsClosed(locals[base + lane], margin: margins[base + lane]) {
                inside |= 1 << UInt64(lane)
            }
        }
        return inside
    }
}

/// What a packet's visit of a layer found: the lanes that go on to its sublayers, of them
/// those inside it and those with a margin, the box of those with a margin (gathered as
/// their points are stored, not in a second pass over the lanes), and whether it left the
/// layer's world step in `HitPacket.step`.
struct PacketVisit {
    var entering: UInt64 = 0
    var inside: UInt64 = 0
    var prunable: UInt64 = 0
    var box = LaneBox()
    var computedStep = false
}

extension LayerStore {
    /// Visits `layer` with `lanes` (`enterHit` for each lane): answers the lanes it ends
    /// (inside, no sublayer to try), and pushes frames for the lanes that go on to its
    /// sublayers: one over its R-tree's candidates for the lanes that prune, one over its
    /// whole list for the others. `bounds`: the store's subtree bounds, moved out of it.
    private func enterPacket(
        _ layer: Int, _ lanes: UInt64, _ rule: HitTestRule, _ steps: some WorldStepSource,
        _ scratch: inout WalkScratch, _ packet: inout HitPacket, _ open: inout UInt64, _ bounds: inout SubtreeBounds
    ) {
        scratch.visitedLayers += 1
        let base = packet.nextBase()
        let visit: PacketVisit
        if let planar = steps.planarWorld(of: layer, in: self), case let solver = PlanarSolver(planar), solver.solves {
            visit = unprojectPlanarPacket(layer, lanes, solver, rule, base: base, &packet, &open)
        } else {
            visit = unprojectPacket(layer, lanes, rule, steps, base: base, scratch.superlayerStep, &packet, &open)
        }
        guard visit.entering != 0 else { return }
        if steps.readsSuperlayerStep && !visit.computedStep {
            packet.step = steps.step(of: layer, under: scratch.superlayerStep, in: self)
        }
        // The lanes with a margin are all entering ones, and `visit.box` is their box.
        let prunes = visit.entering & visit.prunable
        let region = prunes == visit.entering ? visit.box.region : nil
        if bounds.state[layer] & SubtreeBounds.Mark.hasParked != 0 {  // rare: the call is out of line
            refreshParkedSublayers(of: layer, near: region, &bounds)
        }
        let indexed = bounds.state[layer] & SubtreeBounds.Mark.indexed != 0 && bounds.indexSlot[layer] >= 0
        let candidateLanes = indexed ? prunes : 0
        let listLanes = visit.entering & ~candidateLanes
        if listLanes != 0 {
            // Its prunable lanes: none when the candidates frame takes them, else `prunes`.
            var frame = PacketFrame(
                layer: Int32(layer), next: hierarchy.lastSublayers[layer], base: Int32(base), lanes: listLanes,
                inside: visit.inside, prunable: visit.prunable, box: candidateLanes == 0 ? visit.box : LaneBox())
            if rule == .layer && hierarchy.zOrderInversions > 0 {
                let range = pushDrawOrderList(of: layer, into: &scratch.candidates)
                (frame.fromCandidates, frame.start, frame.end, frame.next) = (true, range.start, range.end, range.end)
            }
            packet.frames.append(frame)
            if steps.readsSuperlayerStep { scratch.steps.append(packet.step) }
        }
        guard candidateLanes != 0 else { return }
        let box = visit.box
        let range = pushCandidates(of: layer, into: &scratch.candidates, byDrawRank: rule == .layer, in: bounds) {
            Self.anyLane(candidateLanes, packet.locals, packet.margins, base: base, box: box, in: $0)
        }
        guard let range else { return }  // not reached: `indexed` checked the slot
        packet.frames.append(
            PacketFrame(
                layer: Int32(layer), next: range.end, start: range.start, end: range.end, fromCandidates: true,
                base: Int32(base), lanes: candidateLanes, inside: visit.inside, prunable: visit.prunable, box: box))
        if steps.readsSuperlayerStep { scratch.steps.append(packet.step) }
    }

    /// Some lane's point lies in the R-tree box `node` widened by its margin: the union of
    /// the single walks' `accepts`.
    @inline(__always)
    private static func anyLane(
        _ lanes: UInt64, _ locals: [Point], _ margins: [Double], base: Int, box: LaneBox, in node: RectEdges
    ) -> Bool {
        guard !box.rejects(node) else { return false }
        if !node.isNull && box.acceptsAll(node) { return true }
        return Self.lanes(lanes, locals, margins, base: base, in: node) != 0
    }

    /// `unprojectPacket` for a layer whose world map is planar and solvable, the common
    /// visit: every lane's point is finite, so each solve succeeds, and no 4×4 matrix or
    /// world step is touched. A leaf's lanes only test containment (no margin); the box of
    /// the lanes with a margin is gathered as their points are stored. The same
    /// expressions, so the same bits.
    @inline(__always)
    private func unprojectPlanarPacket(
        _ layer: Int, _ lanes: UInt64, _ solver: PlanarSolver, _ rule: HitTestRule, base: Int,
        _ packet: inout HitPacket, _ open: inout UInt64
    ) -> PacketVisit {
        // `contains(layer, _)`'s terms, read once.
        let (minX, minY) = (columns.boundsX[layer], columns.boundsY[layer])
        let (maxX, maxY) = (minX + columns.boundsWidth[layer], minY + columns.boundsHeight[layer])
        var visit = PacketVisit()
        var rest = lanes
        guard hierarchy.firstSublayers[layer] >= 0 else {  // a leaf: its lanes end here
            var hits: UInt64 = 0
            while rest != 0 {
                let lane = rest.trailingZeroBitCount
                rest &= rest - 1
                let q = solver.solve(packet.world[lane])
                if minX <= q.x && q.x < maxX && minY <= q.y && q.y < maxY { hits |= 1 << UInt64(lane) }
            }
            answer(hits, with: layer, &packet, &open)
            return visit
        }
        let unmasked = rule == .layer && !columns.flags[layer].contains(.masksToBounds)
        // The lanes' columns opened once: indexed through `Array`, each lane's stores
        // checked bounds and uniqueness and wrote the buffers back into `packet` (the
        // loop's cost, run for ~45 lanes a point). `nextBase()` grew both past `base + 63`.
        withRawColumn(reading: packet.world) { world in
            withRawColumn(&packet.locals) { locals in
                withRawColumn(&packet.margins) { margins in
                    while rest != 0 {
                        let lane = rest.trailingZeroBitCount
                        rest &= rest - 1
                        let point = world[lane]
                        let q = solver.solve(point)
                        let inside = minX <= q.x && q.x < maxX && minY <= q.y && q.y < maxY
                        guard inside || unmasked else { continue }
                        let bit: UInt64 = 1 << UInt64(lane)
                        visit.entering |= bit
                        if inside { visit.inside |= bit }
                        if let margin = solver.margin(of: point, result: q) {
                            visit.prunable |= bit
                            (locals[base &+ lane], margins[base &+ lane]) = (q, margin)
                            visit.box.add(q, margin: margin)
                        }
                    }
                }
            }
        }
        return visit
    }

    /// Unprojects each lane's point into `layer`'s plane and tests it (`enterHit`'s
    /// expressions, the layer's terms computed once); stores the points and margins of the
    /// lanes that go on at `base`, and answers those that end here. The path for a world
    /// map that is not planar or not solvable, and for a walk that computes world steps
    /// (the step it computes is left in `packet.step`); out of line, so that the planar
    /// visit passes no `WorldStep?`.
    @inline(never)
    private func unprojectPacket(
        _ layer: Int, _ lanes: UInt64, _ rule: HitTestRule, _ steps: some WorldStepSource, base: Int,
        _ superlayerStep: WorldStep?, _ packet: inout HitPacket, _ open: inout UInt64
    ) -> PacketVisit {
        var visit = PacketVisit()
        var step: WorldStep?
        var planar = steps.planarWorld(of: layer, in: self)
        if planar == nil {
            let computed = steps.step(of: layer, under: superlayerStep, in: self)
            step = computed
            planar = PlanarWorld(computed.matrix)
        }
        // Every lane's point is finite, so the planar solve serves all lanes or none: the
        // 4×4 path's homography and plane map are taken once, not per lane (each lane
        // copied the 137-byte step several times), and held unwrapped (an optional of them
        // was copied out per lane).
        let solver = planar.map(PlanarSolver.init).flatMap { $0.solves ? $0 : nil }
        let solves = solver != nil
        let planarSolver = solver ?? PlanarSolver(PlanarWorld(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        var matrix = Transform3D.identity  // unused when `solves`
        if !solves {
            let computed = step ?? steps.step(of: layer, under: superlayerStep, in: self)
            step = computed
            matrix = computed.matrix
        }
        let (homography, map) = (Homography(matrix), PlaneMap(matrix))
        let hasSublayers = hierarchy.firstSublayers[layer] >= 0
        let unmasked = rule == .layer && !columns.flags[layer].contains(.masksToBounds)
        // `contains(layer, _)`'s terms, read once.
        let (minX, minY) = (columns.boundsX[layer], columns.boundsY[layer])
        let (maxX, maxY) = (minX + columns.boundsWidth[layer], minY + columns.boundsHeight[layer])
        var rest = lanes
        while rest != 0 {
            let lane = rest.trailingZeroBitCount
            rest &= rest - 1
            let point = packet.world[lane]
            let local: Point?
            let margin: Double?
            if solves {
                let fast = planarSolver.solve(point)
                local = fast
                margin = planarSolver.margin(of: point, result: fast)
            } else {
                local = homography.unprojectInFrontOfEye(point)  // `unprojectPointInFrontOfEye`'s
                margin = local.flatMap { map.unprojectionMargin(of: point, result: $0) }
            }
            let inside = local.map { minX <= $0.x && $0.x < maxX && minY <= $0.y && $0.y < maxY } ?? false
            let bit: UInt64 = 1 << UInt64(lane)
            guard hasSublayers, inside || unmasked else {
                if inside { answer(bit, with: layer, &packet, &open) }
                continue
            }
            visit.entering |= bit
            if inside { visit.inside |= bit }
            if let margin, let local {
                visit.prunable |= bit
                (packet.locals[base + lane], packet.margins[base + lane]) = (local, margin)
            }
        }
        visit.box = packet.box(of: visit.prunable, base: base)
        if let step {
            (packet.step, visit.computedStep) = (step, true)
        }
        return visit
    }
}
