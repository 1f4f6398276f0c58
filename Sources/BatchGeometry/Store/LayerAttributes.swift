// The layer properties defined once (ARCHITECTURE.md, "Add a layer property"): each has a
// column in `LayerAttributes`, a row in `LayerProperty`'s table (name, C name, kind,
// default, what a change affects, whether `batchbench eval` writes it) and its typed
// accessors with Core Animation's names, all in this file. The scene keys and `set`
// operations, the evaluation output and the C interface's `bg_layer_get_property` /
// `bg_layer_set_property` read the table. Every accessor is O(1) and takes a live
// `LayerHandle`; a stale one stops the program with a message naming it.

/// The columns of the table-driven properties, one entry per slot, beside the geometry
/// columns of `LayerStore`. A free slot holds the defaults (`resetToDefaults(at:)`).
struct LayerAttributes: Sendable {
    /// `opacity`, stored as CALayer stores it: a 32-bit float. Default 1.
    var opacities: RemappedColumn<Float> = []
    /// `userInteractionEnabled`. Default true.
    var interactionEnabled: RemappedColumn<Bool> = []

    mutating func reserveCapacity(_ capacity: Int) {
        opacities.reserveCapacity(capacity)
        interactionEnabled.reserveCapacity(capacity)
    }

    /// A new slot, with every property at its default.
    mutating func appendDefaults() {
        opacities.append(1)
        interactionEnabled.append(true)
    }

    /// A freed slot goes back to the defaults, so a revived slot starts as a new layer.
    mutating func resetToDefaults(at slot: Int) {
        opacities[slot] = 1
        interactionEnabled[slot] = true
    }
}

/// A layer property that is reached by name as well as through its own accessors: the
/// scene format's layer key and `set` operation, the C interface's `BG_PROPERTY_`
/// constant (its raw value) and `value(of:for:)` / `setValue(_:of:for:)` all go through
/// this one table, so a property added to it is read from scene files, written by
/// `batchbench eval` and reachable from C without further code.
public enum LayerProperty: Int32, CaseIterable, Sendable {
    /// `CALayer.opacity` (UIView `alpha`): a 32-bit float, default 1, not clamped
    /// (GEOMETRY.md section 2). Read as a `Double` it is the stored float widened.
    case opacity = 0
    /// UIView `isUserInteractionEnabled`, default true: only the view rule of hit testing
    /// reads it (GEOMETRY.md section 7).
    case userInteractionEnabled = 1

    /// The property's name: its Core Animation / UIKit name, which is also its scene key
    /// and `set` name (SCENE-FORMAT.md).
    public var name: String {
        switch self {
        case .opacity: return "opacity"
        case .userInteractionEnabled: return "userInteractionEnabled"
        }
    }

    /// The name of its constant in `batchgeometry.h` (value: `rawValue`).
    public var cName: String {
        switch self {
        case .opacity: return "BG_PROPERTY_OPACITY"
        case .userInteractionEnabled: return "BG_PROPERTY_USER_INTERACTION_ENABLED"
        }
    }

    /// Whether its value is a number or a flag (0 or 1 through the generic accessors;
    /// `true`/`false` in scene files).
    public var kind: LayerPropertyKind {
        switch self {
        case .opacity: return .number
        case .userInteractionEnabled: return .bool
        }
    }

    /// The value a new layer has (a flag as 0 or 1).
    public var defaultValue: Double {
        switch self {
        case .opacity: return 1
        case .userInteractionEnabled: return 1
        }
    }

    /// Whether `batchbench eval` writes it in every layer's entry (SCENE-FORMAT.md,
    /// "Output"), after `visible`, in table order.
    public var isEvaluationOutput: Bool {
        switch self {
        case .opacity: return true
        case .userInteractionEnabled: return false
        }
    }

    /// What a change of it is, for the change log (`noteChange`): the setter's whole
    /// invalidation. Opacity and userInteractionEnabled are the view rule's gate only:
    /// world transforms, subtree bounds and drawing order do not read them.
    var effects: LayerChange {
        switch self {
        case .opacity, .userInteractionEnabled: return .viewHitGate
        }
    }

    /// The property named `name` (`LayerProperty.name`), or nil. O(properties); allocates
    /// nothing (the raw values are 0, 1, 2, … with no gap).
    public init?(name: String) {
        var raw: Int32 = 0
        while let property = LayerProperty(rawValue: raw) {
            if property.name == name {
                self = property
                return
            }
            raw += 1
        }
        return nil
    }

    /// Whether the generic setter takes `value`: any number for a number property
    /// (NaN and infinities included), exactly 0 or 1 for a flag.
    public func accepts(_ value: Double) -> Bool {
        kind == .number || value == 0 || value == 1
    }
}

/// How a `LayerProperty` is written: a number, or a flag (0 or 1).
public enum LayerPropertyKind: Sendable {
    /// A number (`Double` through the generic accessors; the property may store it
    /// narrower, as opacity stores a `Float`).
    case number
    /// A flag: `true`/`false` in scene files, 1/0 through the generic accessors.
    case bool
}

extension LayerStore {
    /// The value of `property` for `layer`, as a `Double`: a flag is 0 or 1, opacity
    /// the stored 32-bit float widened. O(1); allocates nothing. Stops the program on a
    /// stale handle, like every accessor.
    public func value(of property: LayerProperty, for layer: LayerHandle) -> Double {
        value(of: property, at: slot(of: layer))
    }
    func value(of property: LayerProperty, at layer: Int) -> Double {
        switch property {
        case .opacity: return Double(opacity(of: layer))
        case .userInteractionEnabled: return isUserInteractionEnabled(layer) ? 1 : 0
        }
    }

    /// Sets `property` of `layer` through its typed setter (`setOpacity(_:of:)` rounds
    /// to a 32-bit float). O(1); allocates nothing. A flag takes exactly 0 or 1
    /// (`LayerProperty.accepts(_:)`); anything else, or a stale handle, stops the
    /// program with a message.
    public mutating func setValue(_ value: Double, of property: LayerProperty, for layer: LayerHandle) {
        setValue(value, of: property, at: slotForUpdate(of: layer))
    }
    mutating func setValue(_ value: Double, of property: LayerProperty, at layer: Int) {
        require(property.accepts(value), "\(property.name) is a flag: it takes 0 or 1, not \(value)")
        switch property {
        case .opacity: setOpacity(Float(value), of: layer)
        case .userInteractionEnabled: setUserInteractionEnabled(value == 1, of: layer)
        }
    }

    /// Derives `layer`'s view-rule flag (`LayerFlags.skippedByViewRule`) from its opacity
    /// and userInteractionEnabled: the change log's consumer for `.viewHitGate`. O(1).
    @inline(__always)
    mutating func refreshViewRuleFlag(_ layer: Int) {
        let skipped =
            !columns.attributes.interactionEnabled[layer] || Double(columns.attributes.opacities[layer]) < 0.01
        if skipped {
            columns.flags[layer].insert(.skippedByViewRule)
        } else {
            columns.flags[layer].remove(.skippedByViewRule)
        }
    }
}

// MARK: The typed accessors (GEOMETRY.md sections 2, 7)

extension LayerStore {
    /// `CALayer.opacity` (UIView `alpha`), as stored: a 32-bit float, default 1, never
    /// clamped (a value below 0 or above 1, an infinity and NaN are kept as given).
    /// Drawing multiplies it down the tree (`worldOpacity(of:)`); the view rule of hit
    /// testing skips a layer, with its subtree, whose `Double(opacity) < 0.01`. It moves
    /// no geometry: world transforms, world rects, visibility and the layer rule's hit
    /// test do not read it.
    public func opacity(of layer: LayerHandle) -> Float {
        opacity(of: slot(of: layer))
    }
    func opacity(of layer: Int) -> Float {
        checkIndex(layer)
        return columns.attributes.opacities[layer]
    }
    /// Sets the opacity. A `Double` becomes the stored value through `Float(_:)` (round
    /// to nearest; a finite value beyond the float range becomes ±infinity), as setting
    /// `CALayer.opacity` from a `CGFloat` does: setting 0.3 reads back
    /// 0.30000001192092896 once widened. O(1).
    public mutating func setOpacity(_ opacity: Float, of layer: LayerHandle) {
        setOpacity(opacity, of: slotForUpdate(of: layer))
    }
    mutating func setOpacity(_ opacity: Float, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.attributes.opacities[layer] = opacity
        // No geometry cache reads opacity; the view rule's gate does.
        noteChange(layer, LayerProperty.opacity.effects)
    }

    /// UIView `isUserInteractionEnabled`, default true: false makes the view rule of hit
    /// testing skip the layer with its subtree (GEOMETRY.md section 7). The layer rule,
    /// drawing and visibility do not read it.
    public func isUserInteractionEnabled(_ layer: LayerHandle) -> Bool {
        isUserInteractionEnabled(slot(of: layer))
    }
    func isUserInteractionEnabled(_ layer: Int) -> Bool {
        checkIndex(layer)
        return columns.attributes.interactionEnabled[layer]
    }
    /// Sets `userInteractionEnabled`. O(1).
    public mutating func setUserInteractionEnabled(_ value: Bool, of layer: LayerHandle) {
        setUserInteractionEnabled(value, of: slotForUpdate(of: layer))
    }
    mutating func setUserInteractionEnabled(_ value: Bool, of layer: Int) {
        checkIndexForUpdate(layer)
        columns.attributes.interactionEnabled[layer] = value
        noteChange(layer, LayerProperty.userInteractionEnabled.effects)
    }
}
