// Core Animation's timing functions (CAMediaTimingFunction, docs/ANIMATION.md section 3):
// a cubic Bézier from (0,0) to (1,1) with 32-bit control points, solved for x by
// Newton's method then bisection, the result rounded to 32 bits. The operation order is
// the contract's; Swift never contracts a * b + c into a fused multiply-add. Eight
// solves at once run the C kernel's Newton steps (CAffineKernels, `BGTimingNewton8`).

import CAffineKernels

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
    /// The six coefficients (ax, bx, cx, ay, by, cy): an entry of the C solve's table
    /// (`BGTimingNewton8`).
    var coefficients: (Double, Double, Double, Double, Double, Double) { (ax, bx, cx, ay, by, cy) }

    /// `table[functions[k]].value(at: inputs[k])` for the eight lanes k, the same bits:
    /// the eight functions' coefficients copied into a table of eight for
    /// `solveEight`. O(1), no allocation.
    static func values(_ table: [TimingFunction], _ functions: SIMD8<Int32>, at inputs: SIMD8<Double>) -> SIMD8<Float> {
        var coefficients = SIMD64<Double>()
        for k in 0..<8 {
            let c = table[Int(functions[k])].coefficients
            (coefficients[6 * k], coefficients[6 * k + 1], coefficients[6 * k + 2]) = (c.0, c.1, c.2)
            (coefficients[6 * k + 3], coefficients[6 * k + 4], coefficients[6 * k + 5]) = (c.3, c.4, c.5)
        }
        var (values, lanes) = (inputs, SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7))
        withRawLanes(&coefficients, of: Double.self) { c in
            withRawLanes(&lanes, of: Int32.self) { lanes in
                withRawLanes(&values, of: Double.self) { v in solveEight(c, lanes, v) { table[Int(functions[$0])] } }
            }
        }
        return SIMD8<Float>(values)
    }

    /// `value(at:)` of eight inputs in place (`values[k]` becomes the value, a float's
    /// bits as a double): the C kernel's Newton steps (`BGTimingNewton8`, the selected
    /// instruction set; `coefficients` is its table, six doubles a function, `functions`
    /// the lanes' indices or nil for the table's first function in every lane), then
    /// `value(at:)` itself for each lane the kernel leaves (bisection, the clamps, NaN);
    /// `function(k)` is lane k's function. The same bits as `value(at:)` in every lane:
    /// the kernel does its operations in its order (Tests: `TimingSolveKernelTests`).
    /// O(1), no allocation.
    @inline(__always)
    static func solveEight(
        _ coefficients: RawColumn<Double>, _ functions: RawColumn<Int32>?, _ values: RawColumn<Double>,
        function: (Int) -> TimingFunction
    ) {
        var left = BGTimingNewton8(coefficients.base, functions?.base, values.base)
        while left != 0 {
            let k = left.trailingZeroBitCount
            values[k] = Double(function(k).value(at: values[k]))
            left &= left - 1
        }
    }
}
