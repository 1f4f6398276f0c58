import BatchGeometry

/// The `app` workload (`WorkloadShape.app`): a UI app's layer tree, the scene of issue 12.
/// A 1920×1080 window holds 20 scrolling lists side by side and, drawn over their
/// bottom, a strip of 12 cards flipping in 3D; the rest of the layers are the lists'
/// cards. Every layer's role, geometry and place in the tree is a pure function of its
/// index and the layer count, so building the tree is O(n) and every run builds the
/// same one.
///
/// Layers by index (each with anchorPoint (0.5, 0.5); frames are in the superlayer's
/// bounds space, so a list's cards move when its bounds.origin, the scroll offset, does):
///
/// | index | layer | superlayer | frame, and what else is set |
/// | --- | --- | --- | --- |
/// | 0 | window | — | (0, 0, 1920, 1080) |
/// | 1 + j, j < 20 | list j | window | (96j, 0, 96, 1080); masksToBounds; a scroll view with contentSize (96, 8 + 232·cards); bounds.origin.y = `contentOffset(ofList: j, frame: 0)` |
/// | 21 | strip | window | (0, 880, 1920, 200); sublayerTransform = perspective, eye at 500 points (m34 = -1/500) |
/// | 22 + 2i, i < 12 | strip card i | strip | (10 + 160i, 20, 140, 160); transform = rotation about y by `stripAngle(card: i, frame: 0)` |
/// | 23 + 2i | its face | strip card i | (10, 60, 120, 40) |
/// | 46 + 4g | card g (card m of list j) | list j | (4, 8 + 232m, 88, 220) |
/// | 46 + 4g + 1 | its icon | card g | (8, 8, 72, 72) |
/// | 46 + 4g + 2 | its label | card g | bounds (0, 0, `labelWidth(card: g, frame: 0)`, 20) centered at (44, 98) |
/// | 46 + 4g + 3 | its badge | card g | 24×24 centered at `badgePosition(card: g, frame: 0)` (it sticks out of the card's top right corner); hidden when `badgeHidden(card: g, frame: 0)` |
///
/// Cards are numbered list by list: list j holds cards `firstCard(ofList: j)` ..< that
/// plus `cardsInList(j)`; the 20 lists share the cards as evenly as they divide, the first
/// lists taking one more. The layer count decides how many cards there are
/// (`ceil((n - 46) / 4)`); the last card is cut short (it keeps its first layers) when
/// `n - 46` is not a multiple of 4, and a count below 46 keeps the first n layers of the
/// table. Each list shows about 5.7 cards (1080 / 232 + 1), so at any layer count from
/// a few thousand on about 430 layers are visible in the window (measured: 429 at 50k,
/// 428 at 500k; a fifth of the badges are hidden and an edge-on strip card shows nothing).
package struct AppLayout: Sendable, Hashable {
    /// The window's size, which is also the viewport the frame query asks for.
    package static let windowSize = Size(width: 1920, height: 1080)
    package static let listCount = 20
    package static let listWidth = 96.0
    /// Cards are 88×220, one every 232 points, the first 8 points down the list.
    package static let cardSize = Size(width: 88, height: 220)
    package static let cardPitch = 232.0
    package static let cardTop = 8.0
    /// A card, its icon, its label and its badge.
    package static let layersPerCard = 4
    package static let stripCardCount = 12
    package static let stripFrame = Rect(x: 0, y: 880, width: 1920, height: 200)
    package static let perspectiveDistance = 500.0

    /// Indices of the fixed layers (see the type's table).
    package static let window = 0
    package static func list(_ j: Int) -> Int { 1 + j }
    package static let strip = 1 + listCount
    package static func stripCard(_ i: Int) -> Int { strip + 1 + 2 * i }
    package static func stripFace(_ i: Int) -> Int { stripCard(i) + 1 }
    package static let firstCardLayer = strip + 1 + 2 * stripCardCount

    /// What one layer is.
    package enum Role: Sendable, Hashable {
        case window
        case list(Int)
        case strip
        case stripCard(Int)
        case stripFace(Int)
        /// Card `card` (global number) is card `position` of list `list`.
        case card(card: Int, list: Int, position: Int)
        case icon(card: Int)
        case label(card: Int)
        case badge(card: Int)
    }

    /// The number of layers.
    package let layerCount: Int
    /// The number of cards (the last one may be cut short).
    package let cardCount: Int

    /// The layout of an `app` workload of `layerCount` layers. O(1).
    package init(layerCount: Int) {
        self.layerCount = layerCount
        let cardLayers = Swift.max(0, layerCount - Self.firstCardLayer)
        cardCount = (cardLayers + Self.layersPerCard - 1) / Self.layersPerCard
    }

    /// The number of cards in list `j`. O(1).
    package func cardsInList(_ j: Int) -> Int {
        cardCount / Self.listCount + (j < cardCount % Self.listCount ? 1 : 0)
    }

    /// The number of the first card of list `j`. O(1).
    package func firstCard(ofList j: Int) -> Int {
        j * (cardCount / Self.listCount) + Swift.min(j, cardCount % Self.listCount)
    }

    /// The index of card `card`'s own layer; its icon, label and badge follow it. O(1).
    package func cardLayer(_ card: Int) -> Int { Self.firstCardLayer + Self.layersPerCard * card }

    /// The list that holds card `card`, and the card's position in it. O(1).
    package func place(ofCard card: Int) -> (list: Int, position: Int) {
        let small = cardCount / Self.listCount
        let large = small + 1
        let largeLists = cardCount % Self.listCount
        if card < largeLists * large { return (card / large, card % large) }
        let rest = card - largeLists * large
        return (largeLists + rest / small, rest % small)
    }

    /// What layer `index` is. O(1).
    package func role(of index: Int) -> Role {
        precondition(index >= 0 && index < layerCount, "layer \(index) is not in the app workload")
        if index == Self.window { return .window }
        if index < Self.strip { return .list(index - 1) }
        if index == Self.strip { return .strip }
        if index < Self.firstCardLayer {
            let offset = index - Self.stripCard(0)
            return offset % 2 == 0 ? .stripCard(offset / 2) : .stripFace(offset / 2)
        }
        let card = (index - Self.firstCardLayer) / Self.layersPerCard
        switch (index - Self.firstCardLayer) % Self.layersPerCard {
        case 0:
            let (list, position) = place(ofCard: card)
            return .card(card: card, list: list, position: position)
        case 1: return .icon(card: card)
        case 2: return .label(card: card)
        default: return .badge(card: card)
        }
    }

    /// The superlayer of layer `index` (nil for the window). O(1).
    package func superlayer(of index: Int) -> Int? {
        switch role(of: index) {
        case .window: return nil
        case .list, .strip: return Self.window
        case .stripCard: return Self.strip
        case .stripFace(let i): return Self.stripCard(i)
        case .card(_, let list, _): return Self.list(list)
        case .icon(let card), .label(let card), .badge(let card): return cardLayer(card)
        }
    }

    // MARK: Scrolling and the per-frame values

    /// The height of list `j`'s content: every card, with the 8-point margins.
    package func contentHeight(ofList j: Int) -> Double { Self.cardTop + Self.cardPitch * Double(cardsInList(j)) }

    /// The largest scroll offset of list `j` (0 when its content fits).
    package func maximumOffset(ofList j: Int) -> Int {
        Swift.max(0, Int(contentHeight(ofList: j) - Self.windowSize.height))
    }

    /// List `j`'s scroll offset (bounds.origin.y) in frame `frame`: it starts at
    /// `(104,729 j) mod (max + 1)` and moves `2 + j%5` points a frame, down for even j
    /// and up for odd j, wrapping within `0 ... maximumOffset(ofList: j)`. Whole points,
    /// so pixel rounding leaves it as it is. O(1).
    package func contentOffset(ofList j: Int, frame: Int) -> Double {
        let range = maximumOffset(ofList: j) + 1
        let step = (2 + j % 5) * (j % 2 == 0 ? 1 : -1)
        let start = (j * 104_729) % range
        let moved = (start + (step * (frame % range)) % range + range) % range
        return Double(moved)
    }

    /// Strip card `i`'s rotation about y in frame `frame`: `30i + 6·frame` degrees, mod 360.
    package func stripAngle(card i: Int, frame: Int) -> Double {
        Double((30 * i + 6 * (frame % 60)) % 360) * .pi / 180
    }

    /// The badge's center in its card: (82 + (card + frame)%3 - 1, 6).
    package func badgePosition(card: Int, frame: Int) -> Point {
        Point(x: 82 + Double((card + frame % 3) % 3) - 1, y: 6)
    }

    /// The badge is hidden in one frame of five.
    package func badgeHidden(card: Int, frame: Int) -> Bool { (card + frame % 5) % 5 == 0 }

    /// The label's width (its text): `40 + (7·card + 3·frame) mod 33`.
    package func labelWidth(card: Int, frame: Int) -> Double { Double(40 + (7 * card + 3 * (frame % 33)) % 33) }

    /// The rotation the frame script gives the icon of the first card on screen in each
    /// list (a spinner): `10·frame` degrees, mod 360. Icons start unrotated.
    package func spinnerRotation(frame: Int) -> AffineTransform {
        .rotation(radians: Double((10 * (frame % 36)) % 360) * .pi / 180)
    }

    /// The positions (in list j) of the cards on screen at `offset`: those whose frame
    /// overlaps the list's bounds `(0, offset, 96, 1080)`. O(1).
    package func visibleCards(ofList j: Int, offset: Double) -> Range<Int> {
        let first = Swift.max(0, Int(((offset - Self.cardTop - Self.cardSize.height) / Self.cardPitch).rounded(.down)))
        var start = first
        while start < cardsInList(j)
            && Self.cardTop + Self.cardPitch * Double(start) + Self.cardSize.height <= offset
        {
            start += 1
        }
        var end = start
        while end < cardsInList(j) && Self.cardTop + Self.cardPitch * Double(end) < offset + Self.windowSize.height {
            end += 1
        }
        return start..<end
    }

    // MARK: The layers' geometry

    /// The geometry and flags of layer `index` as built (frame 0's values). O(1).
    package func recipe(of index: Int) -> LayerRecipe {
        switch role(of: index) {
        case .window:
            return Self.centered(Rect(x: 0, y: 0, width: 1920, height: 1080))
        case .list(let j):
            var recipe = Self.centered(Rect(x: Self.listWidth * Double(j), y: 0, width: Self.listWidth, height: 1080))
            recipe.bounds.origin.y = contentOffset(ofList: j, frame: 0)
            recipe.masksToBounds = true
            recipe.contentSize = Size(width: Self.listWidth, height: contentHeight(ofList: j))
            return recipe
        case .strip:
            var recipe = Self.centered(Self.stripFrame)
            recipe.sublayerTransform = .perspective(distance: Self.perspectiveDistance)
            return recipe
        case .stripCard(let i):
            var recipe = Self.centered(Rect(x: 10 + 160 * Double(i), y: 20, width: 140, height: 160))
            recipe.transform = .rotation(radians: stripAngle(card: i, frame: 0), x: 0, y: 1, z: 0)
            return recipe
        case .stripFace:
            return Self.centered(Rect(x: 10, y: 60, width: 120, height: 40))
        case .card(_, _, let position):
            return Self.centered(
                Rect(
                    x: 4, y: Self.cardTop + Self.cardPitch * Double(position), width: Self.cardSize.width,
                    height: Self.cardSize.height))
        case .icon:
            return Self.centered(Rect(x: 8, y: 8, width: 72, height: 72))
        case .label(let card):
            return LayerRecipe(
                bounds: Rect(x: 0, y: 0, width: labelWidth(card: card, frame: 0), height: 20),
                position: Point(x: 44, y: 98), anchorPoint: Point(x: 0.5, y: 0.5), transform: .identity)
        case .badge(let card):
            var recipe = LayerRecipe(
                bounds: Rect(x: 0, y: 0, width: 24, height: 24), position: badgePosition(card: card, frame: 0),
                anchorPoint: Point(x: 0.5, y: 0.5), transform: .identity)
            recipe.isHidden = badgeHidden(card: card, frame: 0)
            return recipe
        }
    }

    /// A layer with `frame` in its superlayer, the default anchor point and no transform.
    private static func centered(_ frame: Rect) -> LayerRecipe {
        LayerRecipe(
            bounds: Rect(x: 0, y: 0, width: frame.width, height: frame.height),
            position: Point(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2),
            anchorPoint: Point(x: 0.5, y: 0.5), transform: .identity)
    }
}
