// UIScrollView's deceleration after a drag (docs/ANIMATION.md section 11): per axis, the
// velocity decays geometrically every millisecond until it falls below 0.01 pt/ms; the
// offsets are clamped to the scroll range and rounded to the display scale's pixel grid
// as contentOffset always is. Also the rubber band's edge resistance.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A scroll view decelerating after the user lifts the finger (`UIScrollView`'s
/// deceleration), from a start offset and a release velocity: where it comes to rest
/// (``target``), how long it takes (``duration``), and where it is at any time
/// (``offset(at:)``), as docs/ANIMATION.md section 11 states.
///
/// Each axis moves independently: with velocity v (points per millisecond) and rate d, the
/// velocity after n ms is v·dⁿ and the offset moves by each millisecond's velocity, until
/// the velocity falls below 0.01 pt/ms. Every offset it reports is first clamped to the
/// scroll range (when one is given) and then rounded to the display scale's pixel grid,
/// as `contentOffset` is (docs/GEOMETRY.md section 8). The bounce back from beyond an
/// edge is not modelled: the clamp stands for where it comes to rest.
public struct ScrollDeceleration: Hashable, Sendable {
    /// `UIScrollView.DecelerationRate.normal`: 0.998 per millisecond.
    public static let normalRate = 0.998
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per millisecond.
    public static let fastRate = 0.99

    /// The offset at release (time 0), as given (unrounded).
    public let startOffset: Point
    /// The release velocity, in points per **millisecond** per axis.
    public let velocity: Point
    /// The deceleration rate per millisecond actually used: ``normalRate`` or ``fastRate``.
    public let rate: Double
    /// The display scale whose pixel grid the offsets are rounded to.
    public let displayScale: Double
    /// The smallest and largest offsets per axis (±infinity when there is no scroll range).
    public let minimumOffset: Point
    /// See ``minimumOffset``.
    public let maximumOffset: Point
    /// The resting offset: where the scroll stops, clamped and rounded.
    public let target: Point
    /// How long the deceleration lasts, in seconds: the longer of the two axes'. 0 when
    /// neither axis moves faster than 0.01 pt/ms.
    public let duration: Double

    /// The unclamped, unrounded resting offset, and each axis's stop time in milliseconds.
    let restingOffset: Point
    let stopX: Double
    let stopY: Double

    /// A deceleration from `offset` at `velocity` (points per millisecond).
    ///
    /// - Parameters:
    ///   - offset: the content offset at release, in points.
    ///   - velocity: the release velocity, in points per millisecond per axis.
    ///   - rate: the deceleration rate per millisecond; UIKit knows only two, and any
    ///     other value is taken as the nearer one (≥ 0.994 as ``normalRate``, below as
    ///     ``fastRate``).
    ///   - displayScale: points to pixels (1, 2, 3), positive.
    ///   - scrollRange: the valid offsets per axis (`LayerStore.scrollRange(of:)`,
    ///     ``scrollRange(contentSize:boundsSize:contentInset:)``), or nil for no clamp.
    ///
    /// O(1), no allocation.
    public init(
        offset: Point, velocity: Point, rate: Double = ScrollDeceleration.normalRate, displayScale: Double = 1,
        scrollRange: (x: ClosedRange<Double>, y: ClosedRange<Double>)? = nil
    ) {
        let d = rate >= 0.994 ? Self.normalRate : Self.fastRate
        startOffset = offset
        self.velocity = velocity
        self.rate = d
        self.displayScale = displayScale
        minimumOffset = Point(
            x: scrollRange?.x.lowerBound ?? -.infinity, y: scrollRange?.y.lowerBound ?? -.infinity)
        maximumOffset = Point(
            x: scrollRange?.x.upperBound ?? .infinity, y: scrollRange?.y.upperBound ?? .infinity)
        let x = Self.rest(from: offset.x, velocity: velocity.x, rate: d)
        let y = Self.rest(from: offset.y, velocity: velocity.y, rate: d)
        restingOffset = Point(x: x.target, y: y.target)
        stopX = x.stop
        stopY = y.stop
        duration = Swift.max(x.stop, y.stop) / 1000
        target = Self.placed(restingOffset, minimumOffset, maximumOffset, scale: displayScale)
    }

    /// One axis: the resting offset and the stop time in milliseconds.
    private static func rest(from x0: Double, velocity v: Double, rate d: Double) -> (target: Double, stop: Double) {
        let speed = Swift.abs(v)
        guard !(speed <= 0.01) else { return (x0, 0) }
        let c = ((speed - 0.01) * d) / (1 - d)
        return (v > 0 ? x0 + c : x0 - c, log(0.01 / speed) / log(d))
    }

    /// One axis's offset `t` milliseconds after release, unclamped and unrounded.
    private func travelled(from x0: Double, velocity v: Double, to target: Double, stop: Double, at t: Double)
        -> Double
    {
        t >= stop ? target : x0 + ((v * rate) * (1 - pow(rate, t))) / (1 - rate)
    }

    /// `offset` clamped to [`low`, `high`] per axis, then rounded to the pixel grid.
    private static func placed(_ offset: Point, _ low: Point, _ high: Point, scale: Double) -> Point {
        let x = Swift.min(Swift.max(offset.x, low.x), high.x)
        let y = Swift.min(Swift.max(offset.y, low.y), high.y)
        return Point(x: pixelRounded(x, scale: scale), y: pixelRounded(y, scale: scale))
    }

    /// The content offset `time` seconds after release (time ≥ 0): per axis, at
    /// t = 1000·time milliseconds, `x0 + ((v·d)·(1 − dᵗ)) / (1 − d)` until the axis stops,
    /// its resting offset after; then clamped and rounded like ``target``. From
    /// ``duration`` on, it is ``target``. O(1), no allocation.
    public func offset(at time: Double) -> Point {
        let t = time * 1000
        let moved = Point(
            x: travelled(from: startOffset.x, velocity: velocity.x, to: restingOffset.x, stop: stopX, at: t),
            y: travelled(from: startOffset.y, velocity: velocity.y, to: restingOffset.y, stop: stopY, at: t))
        return Self.placed(moved, minimumOffset, maximumOffset, scale: displayScale)
    }

    /// ``offset(at:)`` at every time, written to `results` (resized to `times.count`).
    /// O(times); no allocation once `results` has the capacity.
    public func offsets(at times: [Double], into results: inout [Point]) {
        results.resize(to: times.count, filler: Point(x: 0, y: 0))
        for index in times.indices { results[index] = offset(at: times[index]) }
    }

    /// The valid content offsets of a scroll view (docs/GEOMETRY.md section 8), as
    /// `LayerStore.scrollRange(of:)` computes them for a layer:
    /// `x in [-left, max(-left, cw + right - w)]`, `y in [-top, max(-top, ch + bottom - h)]`.
    /// Nil when a bound is NaN. O(1).
    public static func scrollRange(contentSize: Size, boundsSize: Size, contentInset: EdgeInsets = .zero)
        -> (x: ClosedRange<Double>, y: ClosedRange<Double>)?
    {
        // 0 - inset, not -inset: a zero inset clamps to +0, not -0 (as LayerStore does).
        let minX = 0 - contentInset.left
        let minY = 0 - contentInset.top
        let maxX = Swift.max(minX, (contentSize.width + contentInset.right) - boundsSize.width)
        let maxY = Swift.max(minY, (contentSize.height + contentInset.bottom) - boundsSize.height)
        guard minX <= maxX, minY <= maxY else { return nil }
        return (minX...maxX, minY...maxY)
    }
}

/// How far the content moves when a drag pulls it `overscroll` points beyond an edge of a
/// scroll view (UIScrollView's rubber band, docs/ANIMATION.md section 11):
/// `(1 − 1 / ((|x|·c) / dimension + 1)) · dimension`, with the sign of `overscroll`. The
/// movement approaches `dimension` (the viewport's size along that axis, positive) but
/// never reaches it. A 2013 reconstruction, not checked against a device. O(1).
public func rubberBandOffset(overscroll: Double, dimension: Double, constant: Double = 0.55) -> Double {
    let moved = (1 - 1 / ((Swift.abs(overscroll) * constant) / dimension + 1)) * dimension
    return Double(signOf: overscroll, magnitudeOf: moved)
}
