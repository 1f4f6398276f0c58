import CAffineKernels

// The frame getter (GEOMETRY.md section 3) over the whole store, in three backends that
// agree bit for bit: the scalar reference, SIMD4<Double> (four layers per step), and the
// C module (AVX-512 / AVX2 / NEON / portable, chosen at run time), which runs unless a
// backend is forced (`BackendKernel.frames`).

extension LayerStore {
    /// The frames of all layers. O(count), streaming over the geometry columns
    /// (96 bytes read, 32 written per layer).
    public func frames(options: KernelOptions = .default) -> FrameColumns {
        var result = FrameColumns(count: count)
        computeFrames(into: &result, options: options)
        return result
    }

    /// Computes the frames of all layers into `frames`, reusing its storage (resized to
    /// `count` if needed). Allocates nothing when `frames` has `count` entries and does not
    /// share its storage, and `options.threads` is 1 (over more threads, a store of
    /// 16,384 layers or more is split, and `DispatchQueue.concurrentPerform` then
    /// allocates a few blocks per call).
    public func computeFrames(into frames: inout FrameColumns, options: KernelOptions = .default) {
        if frames.count != count { frames = FrameColumns(count: count) }
        let n = count
        guard n > 0 else { return }
        let backend = options.backend(for: .frames)
        columns.transforms.withAffineColumns { m in
            withRawColumns(reading: columns.boundsWidth, columns.boundsHeight, columns.anchorX, columns.anchorY) {
                w, h, ax, ay in
                withRawColumns(reading: columns.positionX, columns.positionY) { px, py in
                    withRawColumns(&frames.x, &frames.y, &frames.width, &frames.height) { fx, fy, fw, fh in
                        let columns = FrameKernelColumns(
                            width: w, height: h, anchorX: ax, anchorY: ay, a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx,
                            ty: m.ty, positionX: px, positionY: py, frameX: fx, frameY: fy, frameWidth: fw,
                            frameHeight: fh)
                        forEachChunk(
                            count: n, threads: options.threads, grain: Self.parallelGrain,
                            splittingFrom: Self.framesSplitMinimum
                        ) { range in
                            switch backend {
                            case .scalar: columns.computeScalar(range)
                            case .simd: columns.computeSIMD(range)
                            case .c: columns.computeC(range)
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Raw column pointers for one frames pass. The pointers are valid only inside
/// `computeFrames`; chunks write disjoint ranges, which makes sharing them across
/// threads safe. Never kept past that closure (the rule atop Memory/RawColumns.swift).
struct FrameKernelColumns: @unchecked Sendable {
    let width, height, anchorX, anchorY: RawColumn<Double>
    let a, b, c, d, tx, ty: RawColumn<Double>
    let positionX, positionY: RawColumn<Double>
    let frameX, frameY, frameWidth, frameHeight: RawColumn<Double>

    func computeScalar(_ range: Range<Int>) {
        for i in range {
            let frame = frameRect(
                width: width[i], height: height[i], anchorX: anchorX[i], anchorY: anchorY[i],
                transform: AffineTransform(a: a[i], b: b[i], c: c[i], d: d[i], tx: tx[i], ty: ty[i]),
                positionX: positionX[i], positionY: positionY[i])
            frameX[i] = frame.x
            frameY[i] = frame.y
            frameWidth[i] = frame.width
            frameHeight[i] = frame.height
        }
    }

    func computeC(_ range: Range<Int>) {
        var columns = BGFrameColumns(
            width: width.base, height: height.base, anchorX: anchorX.base, anchorY: anchorY.base,
            a: a.base, b: b.base, c: c.base, d: d.base, tx: tx.base, ty: ty.base, positionX: positionX.base,
            positionY: positionY.base, frameX: frameX.base, frameY: frameY.base, frameWidth: frameWidth.base,
            frameHeight: frameHeight.base)
        BGFramesCompute(&columns, range.lowerBound, range.upperBound)
    }

    /// Four layers per step with `SIMD4<Double>`, the same operation order as the scalar
    /// reference; the tail (fewer than four layers) goes through the scalar code.
    func computeSIMD(_ range: Range<Int>) {
        var i = range.lowerBound
        let vectorEnd = range.lowerBound + (range.count & ~3)
        // Pointers come offset by the caller: a local function that read `i` would box
        // it on the heap in unoptimized builds (a frame loop there allocates nothing).
        @inline(__always) func load(_ p: RawColumn<Double>) -> SIMD4<Double> { p.load(at: 0, as: SIMD4<Double>.self) }
        @inline(__always) func store(_ v: SIMD4<Double>, _ p: RawColumn<Double>) { p.store(v, at: 0) }
        // MIN(p, q) = q < p ? q : p, lane by lane (never pointwiseMin, whose NaN rule differs).
        @inline(__always) func minimum(_ p: SIMD4<Double>, _ q: SIMD4<Double>) -> SIMD4<Double> {
            p.replacing(with: q, where: q .< p)
        }
        @inline(__always) func maximum(_ p: SIMD4<Double>, _ q: SIMD4<Double>) -> SIMD4<Double> {
            p.replacing(with: q, where: q .> p)
        }
        // SIMD's prefix minus is `0 - v`, which turns +0 into +0, not -0 as the scalar
        // `-w` does; times -1 is the exact negation, signed zeros included.
        let minusOne = SIMD4<Double>(repeating: -1)
        while i < vectorEnd {
            let w = load(width + i)
            let h = load(height + i)
            let ax = load(anchorX + i)
            let ay = load(anchorY + i)
            let a = load(self.a + i)
            let b = load(self.b + i)
            let c = load(self.c + i)
            let d = load(self.d + i)
            let tx = load(self.tx + i)
            let ty = load(self.ty + i)
            let rx = (minusOne * w) * ax
            let ry = (minusOne * h) * ay
            let xMax = rx + w
            let yMax = ry + h
            let x0 = ((a * rx) + (c * ry)) + tx
            let y0 = ((b * rx) + (d * ry)) + ty
            let x1 = ((a * rx) + (c * yMax)) + tx
            let y1 = ((b * rx) + (d * yMax)) + ty
            let x2 = ((a * xMax) + (c * ry)) + tx
            let y2 = ((b * xMax) + (d * ry)) + ty
            let x3 = ((a * xMax) + (c * yMax)) + tx
            let y3 = ((b * xMax) + (d * yMax)) + ty
            let minX = minimum(minimum(minimum(x0, x1), x2), x3)
            let minY = minimum(minimum(minimum(y0, y1), y2), y3)
            let maxX = maximum(maximum(maximum(x0, x1), x2), x3)
            let maxY = maximum(maximum(maximum(y0, y1), y2), y3)
            store(minX + load(positionX + i), frameX + i)
            store(minY + load(positionY + i), frameY + i)
            store(maxX - minX, frameWidth + i)
            store(maxY - minY, frameHeight + i)
            i += 4
        }
        if i < range.upperBound { computeScalar(i..<range.upperBound) }
    }
}
