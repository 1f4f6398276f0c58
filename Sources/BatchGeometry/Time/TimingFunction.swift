// Core Animation's timing functions (CAMediaTimingFunction, docs/ANIMATION.md section 3):
// a cubic Bézier from (0,0) to (1,1) with 32-bit control points, solved for x by
// Newton's method then bisection, the result rounded to 32 bits. The operation order is
// the contract's; Swift never contracts a * b + c into a fused multiply-add.

/// A Core Animation timing function (`CAMediaTimingFunction`): the cubic Bézier curve from
/// (0, 0) to (1, 1) with control points (`x1`, `y1`) and (`x2`, `y2`), which maps an
/// animation's time fraction to its progress.
///
/// As in Core Animation, the control points are kept as 32-bit floats, and a custom curve
/// whose four floats are each within 0.001 of a named curve's *is* that named curve
/// (``name`` says which). ``value(at:)`` solves the curve exactly as Core Animation does
/// (docs/ANIMATION.md section 3): `linear` at 0.67 gives 0.669997…, not 0.67.
///
/// A value is 4 floats plus the curve's polynomial coefficients, computed once at
/// initialization so that sampling does no setup.
public struct TimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// Core Animation's named timing functions (`CAMediaTimingFunctionName`), in the order in
    /// which a custom curve is compared with them.
    public enum Name: String, CaseIterable, Hashable, Sendable {
        /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1), (0.25, 1).
        case `default`
        /// `kCAMediaTimingFunctionLinear`: (0, 0), (1, 1). Still a Bézier solved in
        /// floats, so not exactly the identity.
        case linear
        /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0), (1, 1).
        case easeIn
        /// `kCAMediaTimingFunctionEaseOut`: (0, 0), (0.58, 1).
        case easeOut
        /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0), (0.58, 1).
        case easeInEaseOut

        /// The control points `x1, y1, x2, y2`, as floats.
        var controlPoints: (Float, Float, Float, Float) {
            switch self {
            case .default: return (0.25, 0.1, 0.25, 1)
            case .linear: return (0, 0, 1, 1)
            case .easeIn: return (0.42, 0, 1, 1)
            case .easeOut: return (0, 0, 0.58, 1)
            case .easeInEaseOut: return (0.42, 0, 0.58, 1)
            }
        }
    }

    /// The named function this is, or nil for a custom curve not within 0.001 of any.
    public let name: Name?
    /// The first control point's x, in [0, 1].
    public let x1: Float
    /// The first control point's y (any finite number: the curve may overshoot).
    public let y1: Float
    /// The second control point's x, in [0, 1].
    public let x2: Float
    /// The second control point's y (any finite number).
    public let y2: Float

    /// The polynomial coefficients, X(t) = ((ax·t + bx)·t + cx)·t and Y(t) likewise.
    let ax: Double, bx: Double, cx: Double
    let ay: Double, by: Double, cy: Double

    /// A named timing function (`CAMediaTimingFunction(name:)`). O(1), no allocation.
    public init(_ name: Name) {
        let (x1, y1, x2, y2) = name.controlPoints
        self.init(name: name, x1, y1, x2, y2)
    }

    /// A custom timing function (`CAMediaTimingFunction(controlPoints:_:_:_:)`): the
    /// numbers are rounded to the nearest floats, then, if each is within 0.001 of a named
    /// function's (compared in ``Name`` order, in float arithmetic), the function is that
    /// named one, with its exact points.
    ///
    /// Returns nil when `x1` or `x2` is outside [0, 1] or any number is not finite (Core
    /// Animation leaves those undefined). O(1), no allocation.
    public init?(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        guard x1 >= 0 && x1 <= 1 && x2 >= 0 && x2 <= 1 && y1.isFinite && y2.isFinite else { return nil }
        let given = (Float(x1), Float(y1), Float(x2), Float(y2))
        let tolerance: Float = 0.001
        for name in Name.allCases {
            let named = name.controlPoints
            if Swift.abs(named.0 - given.0) < tolerance && Swift.abs(named.1 - given.1) < tolerance
                && Swift.abs(named.2 - given.2) < tolerance && Swift.abs(1 - given.3) < tolerance
            {
                self.init(name)
                return
            }
        }
        self.init(name: nil, given.0, given.1, given.2, given.3)
    }

    private init(name: Name?, _ x1: Float, _ y1: Float, _ x2: Float, _ y2: Float) {
        self.name = name
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        // With float control points every coefficient below is exact in double.
        let p1x = Double(x1)
        let p1y = Double(y1)
        let p2x = Double(x2)
        let p2y = Double(y2)
        cx = p1x * 3
        let gx = (p2x - p1x) * 3
        bx = gx - cx
        ax = 1 - gx
        cy = p1y * 3
        let gy = (p2y - p1y) * 3
        by = gy - cy
        ay = 1 - gy
    }

    /// `name` for a named function, else `custom(x1, y1, x2, y2)`.
    public var description: String {
        if let name { return name.rawValue }
        return "custom(\(x1), \(y1), \(x2), \(y2))"
    }

    /// The curve's progress at the time fraction `input` (Core Animation's private
    /// `_solveForInput:`; docs/ANIMATION.md section 3.2): `input` is rounded to a float,
    /// the curve's parameter t with X(t) = input is found by up to 8 Newton steps, then by
    /// bisection (at most 1025 halvings) when Newton does not get within 1e-5, and Y(t) is
    /// returned rounded to a float. An input outside [0, 1] that Newton does not solve gives
    /// Y(0) or Y(1); NaN gives NaN.
    ///
    /// O(1) (at most 8 Newton steps and 1025 halvings; a few steps in practice), no
    /// allocation.
    public func value(at input: Double) -> Float {
        let x = Double(Float(input))
        var t = x
        for _ in 0..<8 {
            let e = curveX(t) - x
            if Swift.abs(e) < 1e-5 { return Float(curveY(t)) }
            let g = slopeX(t)
            if Swift.abs(g) < 1e-6 { break }
            t = t - e / g
        }
        if x < 0 {
            t = 0
        } else if x > 1 {
            t = 1
        } else {
            var lo = 0.0
            var hi = 1.0
            t = x
            var steps = 0
            while steps < 1025 && lo < hi {
                let e = curveX(t) - x
                if Swift.abs(e) < 1e-5 { break }
                if e >= 0 { hi = t } else { lo = t }
                t = lo + (hi - lo) * 0.5
                steps += 1
            }
        }
        return Float(curveY(t))
    }

    /// X(t) = ((ax·t + bx)·t + cx)·t.
    @inline(__always)
    func curveX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }

    /// Y(t) = ((ay·t + by)·t + cy)·t.
    @inline(__always)
    func curveY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    /// X'(t) = ((3·ax)·t + 2·bx)·t + cx.
    @inline(__always)
    func slopeX(_ t: Double) -> Double { ((3 * ax) * t + 2 * bx) * t + cx }
}

extension TimingFunction {
    /// This function's ``value(at:)`` at every input, written to `results` (resized to
    /// `inputs.count`; entry i is the value at `inputs[i]`). O(inputs); no allocation once
    /// `results` has the capacity.
    public func values(at inputs: [Double], into results: inout [Float]) {
        sampleCurve(at: inputs, into: &results) { value(at: $0) }
    }

    /// Samples many timing functions at once, as an engine does for its running
    /// animations: entry i of `results` (resized to `inputs.count`) is
    /// `functions[i].value(at: inputs[i])`, bit for bit. O(count); no allocation once
    /// `results` has the capacity.
    ///
    /// - Precondition: `functions.count == inputs.count` (else the program stops with a
    ///   message).
    public static func values(of functions: [TimingFunction], at inputs: [Double], into results: inout [Float]) {
        sampleCurves(
            functions, at: inputs, into: &results,
            names: ("TimingFunction.values(of:at:into:)", "functions", "inputs")
        ) { $0.value(at: $1) }
    }
}

extension TimingFunction {
    /// `value(at:)` of four functions at four inputs at once, the same bits
    /// (`values(_:_:at:)` with each lane twice). O(1), no allocation.
    static func values(
        _ f0: TimingFunction, _ f1: TimingFunction, _ f2: TimingFunction, _ f3: TimingFunction,
        at inputs: SIMD4<Double>
    ) -> SIMD4<Float> {
        func lanes(_ c: (TimingFunction) -> Double) -> SIMD8<Double> {
            SIMD8(c(f0), c(f1), c(f2), c(f3), c(f0), c(f1), c(f2), c(f3))
        }
        let v = laneValues(
            ax: lanes(\.ax), bx: lanes(\.bx), cx: lanes(\.cx), ay: lanes(\.ay), by: lanes(\.by), cy: lanes(\.cy),
            at: SIMD8(lowHalf: inputs, highHalf: inputs)
        ) { lane in
            let k = lane % 4
            return (k == 0 ? f0 : k == 1 ? f1 : k == 2 ? f2 : f3).value(at: inputs[k])
        }
        return v.lowHalf
    }

    /// `table[functions[k]].value(at: inputs[k])` for the eight lanes k, the same bits.
    /// O(1), no allocation.
    static func values(_ table: [TimingFunction], _ functions: SIMD8<Int32>, at inputs: SIMD8<Double>) -> SIMD8<Float> {
        var ax = SIMD8<Double>()
        var bx = SIMD8<Double>()
        var cx = SIMD8<Double>()
        var ay = SIMD8<Double>()
        var by = SIMD8<Double>()
        var cy = SIMD8<Double>()
        for k in 0..<8 {
            let f = table[Int(functions[k])]
            (ax[k], bx[k], cx[k], ay[k], by[k], cy[k]) = (f.ax, f.bx, f.cx, f.ay, f.by, f.cy)
        }
        return laneValues(ax: ax, bx: bx, cx: cx, ay: ay, by: by, cy: cy, at: inputs) {
            table[Int(functions[$0])].value(at: inputs[$0])
        }
    }

    /// `value(at: inputs[k])` for the eight lanes k, the same bits: `values(_:_:at:)`
    /// with this function's coefficients broadcast (no gather). O(1), no allocation.
    func values(at inputs: SIMD8<Double>) -> SIMD8<Float> {
        Self.laneValues(
            ax: SIMD8(repeating: ax), bx: SIMD8(repeating: bx), cx: SIMD8(repeating: cx), ay: SIMD8(repeating: ay),
            by: SIMD8(repeating: by), cy: SIMD8(repeating: cy), at: inputs
        ) { value(at: inputs[$0]) }
    }

    /// The Newton steps of `value(at:)` in eight SIMD lanes (the sampler's timing
    /// functions are latency-bound chains of a division each; eight lanes, two
    /// independent halves, overlap them), each lane frozen where the scalar loop leaves
    /// it (within 1e-5, or a flat slope), so every lane does exactly the scalar's
    /// operations in its order. A lane that the scalar loop would hand to bisection (or
    /// its clamp) is solved by `scalar(lane)`, `value(at:)` itself.
    @inline(__always)
    private static func laneValues(
        ax: SIMD8<Double>, bx: SIMD8<Double>, cx: SIMD8<Double>, ay: SIMD8<Double>, by: SIMD8<Double>,
        cy: SIMD8<Double>, at inputs: SIMD8<Double>, scalar: (Int) -> Float
    ) -> SIMD8<Float> {
        let x = SIMD8<Double>(SIMD8<Float>(inputs))
        let slopeA = SIMD8<Double>(repeating: 3) * ax
        let slopeB = SIMD8<Double>(repeating: 2) * bx
        var t = x
        var active = SIMDMask<SIMD8<Int64>>(repeating: true)
        var converged = SIMDMask<SIMD8<Int64>>(repeating: false)
        for _ in 0..<8 {
            let e = ((ax * t + bx) * t + cx) * t - x
            // |e| < 1e-5 exactly as the scalar test (abs is exact; NaN fails both).
            let near = active .& (e .< 1e-5) .& (e .> -1e-5)
            converged .|= near
            let g = (slopeA * t + slopeB) * t + cx
            let flat = (g .< 1e-6) .& (g .> -1e-6)
            active .&= .!near .& .!flat
            guard anyLane(active) else { break }
            t.replace(with: t - e / g, where: active)
        }
        let y = SIMD8<Float>(((ay * t + by) * t + cy) * t)
        guard !allLanes(converged) else { return y }
        var result = y
        for k in 0..<8 where !converged[k] { result[k] = scalar(k) }
        return result
    }

    /// Whether any lane of `mask` is set, by the OR of its lanes (`any(_:)` reduces the
    /// eight 64-bit lanes by a signed minimum, which SSE2 lacks: ~70 instructions a
    /// Newton step).
    @inline(__always)
    private static func anyLane(_ mask: SIMDMask<SIMD8<Int64>>) -> Bool {
        let bits = SIMD8<Int64>(repeating: 0).replacing(with: -1, where: mask)
        let half = bits.lowHalf | bits.highHalf
        let quarter = half.lowHalf | half.highHalf
        return quarter[0] | quarter[1] != 0
    }

    /// Whether every lane of `mask` is set (`anyLane` of its complement).
    @inline(__always)
    private static func allLanes(_ mask: SIMDMask<SIMD8<Int64>>) -> Bool { !anyLane(.!mask) }
}
