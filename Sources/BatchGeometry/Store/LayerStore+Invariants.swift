// The store's invariants, checked from scratch: every counter and cached flag recounted,
// every cache compared with a fresh build. For the tests and the fuzzers (issue 21), after
// every step of a random edit sequence; O(n log n) or worse, never on a production path.

extension LayerStore {
    /// Stops the program, naming every broken invariant, unless the store is consistent:
    /// see `_invariantViolations()`. O(n log n) time plus a copy of the store.
    @_spi(Testing)
    public func _checkInvariants(file: StaticString = #file, line: UInt = #line) {
        let violations = _invariantViolations()
        require(
            violations.isEmpty, "LayerStore invariants broken: " + violations.joined(separator: "; "), file: file,
            line: line)
    }

    /// What is wrong with the store, one line per broken invariant; empty when nothing is.
    ///
    /// Checks the columns' lengths, the slots and generations, the sibling links, the
    /// counters (`detachedLayerCount`, `autoresizingLayerCount`, `zOrderInversions`), the
    /// cached parent order, and that the world cache (when current), the subtree bounds
    /// and the drawing order, brought up to date from their marks, equal a fresh build.
    /// O(n log n) time; copies the store twice.
    @_spi(Testing)
    public func _invariantViolations() -> [String] {
        // Short columns would make the later checks read out of bounds: they come first, alone.
        let columns = columnViolations()
        if !columns.isEmpty { return columns }
        var violations = slotViolations() + linkViolations() + counterViolations()
        if violations.isEmpty { violations += cacheViolations() + generalLocalViolations() }
        return violations
    }

    /// While the world is current and the plan caches general locals, every general layer
    /// has an entry holding its `transformToSuperlayer(of:)`, bit for bit (the sparse
    /// table gives a layer that turned general an entry after the update).
    private func generalLocalViolations() -> [String] {
        guard !caches.changes.hasChanges, caches.worldCache != nil, let plan = caches.worldPlan,
            plan.cachesGeneralLocals, plan.count == count
        else { return [] }
        if plan.generalLocals.count != 16 * plan.generalLocalLayers.count {
            return [
                "the cached general locals have \(plan.generalLocals.count) doubles for "
                    + "\(plan.generalLocalLayers.count) layers"
            ]
        }
        for (entry, layer) in plan.generalLocalLayers.enumerated()
        where Int(plan.generalLocalSlots[Int(layer)]) != entry {
            return ["entry \(entry) of the cached general locals does not belong to layer \(layer)"]
        }
        for layer in 0..<count where plan.modes[layer] & WorldMode.general != 0 {
            let slot = Int(plan.generalLocalSlots[layer])
            guard slot >= 0 else { return ["general layer \(layer) has no cached local"] }
            let cached = plan.generalLocals.rowMajorMatrix(at: 16 * slot)
            if !sameBits(cached.rowMajor, transformToSuperlayer(of: layer).rowMajor) {
                return ["the cached general local of layer \(layer) is not its transform to its superlayer"]
            }
        }
        return []
    }

    private func columnViolations() -> [String] {
        let lengths: [(String, Int)] = [
            ("boundsX", columns.boundsX.count), ("boundsY", columns.boundsY.count),
            ("boundsWidth", columns.boundsWidth.count),
            ("boundsHeight", columns.boundsHeight.count), ("positionX", columns.positionX.count),
            ("positionY", columns.positionY.count),
            ("anchorX", columns.anchorX.count), ("anchorY", columns.anchorY.count),
            ("zValues", columns.zValues.count), ("flags", columns.flags.count),
            ("autoresizingMasks", columns.autoresizingMasks.count),
            ("generations", hierarchy.generations.count), ("firstSublayers", hierarchy.firstSublayers.count),
            ("lastSublayers", hierarchy.lastSublayers.count), ("nextSiblings", hierarchy.nextSiblings.count),
            ("previousSiblings", hierarchy.previousSiblings.count), ("transforms", columns.transforms.count),
            ("sublayerTransforms", columns.sublayerTransforms.count), ("opacities", columns.attributes.opacities.count),
            ("interactionEnabled", columns.attributes.interactionEnabled.count),
        ]
        return lengths.filter { $0.1 != count }.map { "column \($0.0) has \($0.1) entries, not \(count)" }
            + columns.zValues.violations()
    }

    private func slotViolations() -> [String] {
        var violations: [String] = []
        var free = [Bool](repeating: false, count: count)
        for slot in hierarchy.freeSlots {
            let index = Int(slot)
            guard index >= 0 && index < count else { return ["free slot \(slot) is out of range"] }
            if free[index] { violations.append("slot \(index) is free twice") }
            free[index] = true
        }
        for slot in 0..<count {
            let stamp = hierarchy.generations[slot]
            // A retired slot (its generation at the 20-bit limit) is free but never reused.
            let retired = stamp & LayerHandle.generationMask == LayerHandle.generationMask
            if (stamp & 1 == 1) != (free[slot] || retired) {
                violations.append("slot \(slot): generation \(stamp) but \(free[slot] ? "free" : "live")")
            }
            if stamp >> LayerHandle.generationBits != hierarchy.storeTag {
                violations.append("slot \(slot): store tag \(stamp >> LayerHandle.generationBits), not the store's")
            }
        }
        for slot in 0..<count where free[slot] && !columns.flags[slot].contains(.detached) {
            violations.append("free slot \(slot) is not detached")
        }
        return violations
    }

    /// Every list (each layer's sublayers, the roots) runs forward and back consistently,
    /// and each layer is in its superlayer's list exactly once.
    private func linkViolations() -> [String] {
        var seen = [Int](repeating: 0, count: count)
        var violations: [String] = []
        func walk(_ owner: Int32, first: Int32, last: Int32) {
            var previous: Int32 = -1
            var current = first
            var steps = 0
            while current >= 0 {
                let layer = Int(current)
                guard layer < count, steps <= count else { return violations.append("list of \(owner) is broken") }
                if hierarchy.parents[layer] != owner { violations.append("layer \(layer) is in the list of \(owner)") }
                if hierarchy.previousSiblings[layer] != previous { violations.append("layer \(layer)'s previous link") }
                seen[layer] += 1
                previous = current
                current = hierarchy.nextSiblings[layer]
                steps += 1
            }
            if previous != last { violations.append("list of \(owner) ends at \(previous), not \(last)") }
        }
        walk(-1, first: hierarchy.firstRoot, last: hierarchy.lastRoot)
        for layer in 0..<count {
            walk(Int32(layer), first: hierarchy.firstSublayers[layer], last: hierarchy.lastSublayers[layer])
        }
        for layer in 0..<count where seen[layer] != 1 { violations.append("layer \(layer) is in \(seen[layer]) lists") }
        return violations
    }

    private func counterViolations() -> [String] {
        var violations: [String] = []
        let detached = columns.flags.lazy.filter { $0.contains(.detached) }.count
        if detached != columns.detachedLayerCount {
            violations.append("detachedLayerCount is \(columns.detachedLayerCount), recounted \(detached)")
        }
        let autoresizing = columns.autoresizingMasks.lazy.filter { $0 != 0 }.count
        if autoresizing != columns.autoresizingLayerCount {
            violations.append("autoresizingLayerCount is \(columns.autoresizingLayerCount), recounted \(autoresizing)")
        }
        let inversions = countZOrderInversions()
        if inversions != hierarchy.zOrderInversions {
            violations.append("zOrderInversions is \(hierarchy.zOrderInversions), recounted \(inversions)")
        }
        for layer in 0..<count {
            let skipped =
                !columns.attributes.interactionEnabled[layer] || Double(columns.attributes.opacities[layer]) < 0.01
            if columns.flags[layer].contains(.skippedByViewRule) != skipped {
                violations.append("layer \(layer)'s view-rule flag is \(!skipped), its attributes say \(skipped)")
                break
            }
        }
        if let cached = hierarchy.parentsPrecedeChildrenCache {
            let fresh = (0..<count).allSatisfy { hierarchy.parents[$0] < Int32(truncatingIfNeeded: $0) }
            if cached != fresh { violations.append("parentsPrecedeChildren is cached as \(cached), is \(fresh)") }
        }
        return violations
    }
}

extension LayerStore {
    /// Each cache, brought up to date from its marks (on a copy), equals a fresh build; the
    /// world cache, when current, equals a full pass, bit for bit.
    fileprivate func cacheViolations() -> [String] {
        var violations = rankViolations()
        var fresh = copy()
        fresh.invalidateWorld()
        fresh.caches.subtreeBounds = SubtreeBounds()
        fresh.caches.drawOrderCache = DrawOrderCache()
        if !caches.changes.hasChanges, let cached = caches.worldCache {
            let world = fresh.worldTransforms(options: .serial(.scalar))
            for layer in 0..<count where !sameBits(cached[layer].rowMajor, world[layer].rowMajor) {
                violations.append("the world cache of layer \(layer) is not a full pass's")
                break
            }
        }
        var refreshed = copy()
        if caches.subtreeBounds.isBuilt {
            refreshed.refreshSubtreeBoundsFully()
            fresh.refreshSubtreeBounds()
            let kept = refreshed.caches.subtreeBounds
            for layer in 0..<count
            where !sameBits(kept.extent[layer], fresh.caches.subtreeBounds.extent[layer])
                || !sameBits(kept.content(of: layer), fresh.caches.subtreeBounds.content(of: layer))
            {
                violations.append("the subtree bounds of layer \(layer) are not a fresh build's")
                break
            }
            violations += cleanRegionViolations(freshExtents: fresh.caches.subtreeBounds.extent)
            let freshState = fresh.caches.subtreeBounds.state
            violations += refreshed.indexViolations { freshState[$0] & SubtreeBounds.Mark.indexed != 0 }
        }
        if caches.drawOrderCache.isBuilt {
            refreshed.refreshDrawOrder()
            fresh.refreshDrawOrder()
            let kept = refreshed.caches.drawOrderCache.links
            let built =
                fresh.caches.drawOrderCache.isBuilt
                ? fresh.caches.drawOrderCache.links
                : SiblingLinks(first: fresh.hierarchy.firstSublayers, next: fresh.hierarchy.nextSiblings)
            for layer in 0..<count where orderedList(kept, layer) != orderedList(built, layer) {
                violations.append("the cached drawing order of \(layer)'s sublayers is not a fresh sort's")
                break
            }
            let previous = refreshed.caches.drawOrderCache.previous
            for layer in 0..<count {
                let list = orderedList(kept, layer)
                if list.indices.contains(where: { previous[Int(list[$0])] != ($0 > 0 ? list[$0 - 1] : -1) }) {
                    violations.append("the cached drawing order of \(layer)'s sublayers has a wrong backward link")
                    break
                }
            }
        }
        return violations
    }
}

extension LayerStore {
    /// Every indexed list's rank tree, kept edit by edit (not by the refresh), as it
    /// stands: it holds the list in order (`ParkedDrift.rankViolation`), and each
    /// position's sibling is the walk's, with and without a sublayer left out.
    fileprivate func rankViolations() -> [String] {
        let bounds = caches.subtreeBounds
        for layer in 0..<count {
            guard let list = bounds.rankedList(of: layer) else { continue }
            let sublayers = sublayers(of: layer).map { Int32(truncatingIfNeeded: $0) }
            if let broken = bounds.drift.rankViolation(list: list, sublayers) {
                return ["the rank tree of layer \(layer): \(broken)"]
            }
            let skipped = sublayers.isEmpty ? -1 : Int(sublayers[sublayers.count / 3])
            for left in [-1, skipped] {
                for index in [0, sublayers.count / 2, sublayers.count - 1, sublayers.count, sublayers.count + 1] {
                    let ranked = Result { () throws(LayerStoreError) in
                        try sibling(at: index, under: Int32(layer), skipping: left)
                    }
                    let walked = Result { () throws(LayerStoreError) in
                        try walkedSibling(at: index, under: Int32(layer), skipping: left)
                    }
                    if ranked != walked {
                        return ["sibling \(index) of layer \(layer) without \(left) is \(ranked), walked \(walked)"]
                    }
                }
            }
        }
        return []
    }

    /// No card waiting in an indexed list's drifting cards (parked there with a known
    /// drift) has a leaf that meets the list's clean region (`ParkedDrift.cleanRegions`):
    /// what lets a descent skip the search there. A list marked untouched
    /// (`RectEdges.untouched`): every such card's leaf is its box in a fresh build
    /// (`freshExtents`), bit for bit.
    fileprivate func cleanRegionViolations(freshExtents: RemappedColumn<RectEdges>) -> [String] {
        let bounds = caches.subtreeBounds
        // Unbuilt, or built before layers were added: the columns cover only what was built.
        guard bounds.isBuilt else { return [] }
        for layer in 0..<min(count, bounds.indexSlot.count) where bounds.indexSlot[layer] >= 0 {
            let slot = Int(bounds.indexSlot[layer])
            let clean = bounds.drift.cleanRegions[slot]
            guard !clean.isNull else { continue }
            let index = bounds.index(of: layer)
            let redoneAnyway = Set(bounds.parkedSublayers[slot])
            for entry in bounds.drift.lists[slot] where !redoneAnyway.contains(entry) {
                let card = Int(entry)
                guard bounds.state[card] & SubtreeBounds.Mark.parked != 0, Int(hierarchy.parents[card]) == layer,
                    bounds.drift.drift(of: card) != nil
                else { continue }
                let leaf = Int(bounds.indexEntry(of: card))
                if clean == .untouched {  // `warmUp` parked it ahead, untouched since: its box is its leaf
                    if leaf < 0 || leaf >= index.boxes.count || !sameBits(index.boxes[leaf], freshExtents[card]) {
                        return ["untouched drifting card \(card) of layer \(layer): its box is not its leaf"]
                    }
                } else if leaf >= 0 && leaf < index.boxes.count && index.boxes[leaf].meets(clean) {
                    return ["drifting card \(card) of layer \(layer) has a leaf in the list's clean region \(clean)"]
                }
            }
        }
        return []
    }

    /// The spatial indexes, kept edit by edit, may differ in shape from a fresh build's
    /// but must agree in content: the same layers indexed (`freshIndexed`), each holding
    /// exactly its sublayers, each leaf with its sublayer's extent (bit for bit) and the
    /// `indexEntry(of:)` that names it, the tree's own bookkeeping sound, and the order labels
    /// strictly increasing along each indexed list.
    fileprivate func indexViolations(freshIndexed: (Int) -> Bool) -> [String] {
        let bounds = caches.subtreeBounds
        for layer in 0..<count {
            let indexed = bounds.state[layer] & SubtreeBounds.Mark.indexed != 0
            if indexed != freshIndexed(layer) || indexed != (bounds.indexSlot[layer] >= 0) {
                return ["layer \(layer) is \(indexed ? "" : "not ")indexed, unlike a fresh build"]
            }
            if !indexed {
                var sublayer = hierarchy.firstSublayers[layer]
                while sublayer >= 0 {
                    if bounds.indexEntry(of: Int(sublayer)) != -1 { return ["layer \(sublayer) has a leaf, unindexed"] }
                    sublayer = hierarchy.nextSiblings[Int(sublayer)]
                }
                continue
            }
            let index = bounds.index(of: layer)
            if let broken = index.structureViolation() { return ["the index of layer \(layer): \(broken)"] }
            var sublayer = hierarchy.firstSublayers[layer]
            var held = 0
            var label: UInt64 = 0
            while sublayer >= 0 {
                let leaf = Int(bounds.indexEntry(of: Int(sublayer)))
                if leaf < 0 || leaf >= index.sublayers.count || index.sublayers[leaf] != sublayer {
                    return ["layer \(sublayer) has no leaf in the index of \(layer)"]
                }
                if !sameBits(index.boxes[leaf], bounds.extent[Int(sublayer)]) {
                    return ["the leaf of layer \(sublayer) in the index of \(layer) is not its extent"]
                }
                if bounds.drift.referenceSlots[Int(sublayer)] < 0 {
                    return ["layer \(sublayer), in the indexed list of \(layer), has no side-table entry for its label"]
                }
                let next = bounds.orderLabel(of: Int(sublayer))
                if next <= label || next >= orderLabelLimit {
                    return ["the order labels of \(layer)'s sublayers do not increase at \(sublayer)"]
                }
                label = next
                held += 1
                sublayer = hierarchy.nextSiblings[Int(sublayer)]
            }
            if held != index.count { return ["the index of layer \(layer) holds \(index.count), not \(held)"] }
        }
        return []
    }
}

/// `layer`'s sublayers as `links` orders them (at most `links.first.count`, so a broken
/// list cannot loop).
private func orderedList(_ links: SiblingLinks, _ layer: Int) -> [Int32] {
    var list: [Int32] = []
    var current = links.first[layer]
    while current >= 0 && list.count < links.first.count {
        list.append(current)
        current = links.next[Int(current)]
    }
    return list
}

private func sameBits(_ a: [Double], _ b: [Double]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
}

private func sameBits(_ a: RectEdges, _ b: RectEdges) -> Bool {
    sameBits([a.minX, a.minY, a.maxX, a.maxY], [b.minX, b.minY, b.maxX, b.maxY])
}
