/// How a layer follows its superlayer's size (`UIView.autoresizingMask`, UIKit's
/// `UIViewAutoresizing`; the same bits as macOS's `CALayer.autoresizingMask`). Each flag
/// makes one part of the layer's untransformed frame flexible; when the superlayer's
/// bounds size changes, the size difference is shared among the flexible parts in
/// proportion to their sizes (GEOMETRY.md section 4).
public struct AutoresizingMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The left margin (the space from the superlayer's bounds origin) is flexible.
    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
    /// The width is flexible.
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    /// The right margin is flexible.
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
    /// The top margin is flexible.
    public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
    /// The height is flexible.
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    /// The bottom margin is flexible.
    public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)

    /// Every flag: all six parts flexible (raw value 63).
    public static let all: AutoresizingMask = [
        .flexibleLeftMargin, .flexibleWidth, .flexibleRightMargin,
        .flexibleTopMargin, .flexibleHeight, .flexibleBottomMargin,
    ]

    /// The flags with their UIKit names, in raw-value order (scene files use the names).
    public static let named: [(name: String, flag: AutoresizingMask)] = [
        ("flexibleLeftMargin", .flexibleLeftMargin), ("flexibleWidth", .flexibleWidth),
        ("flexibleRightMargin", .flexibleRightMargin), ("flexibleTopMargin", .flexibleTopMargin),
        ("flexibleHeight", .flexibleHeight), ("flexibleBottomMargin", .flexibleBottomMargin),
    ]
}
