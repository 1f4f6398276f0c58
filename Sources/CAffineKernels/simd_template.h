/*
 * simd_template.h — the one vector algorithm shared by every SIMD backend.
 *
 * Included (once) by simd_avx2.c, simd_avx512.c and simd_neon.c after they
 * define the vector vocabulary below, so that all backends perform the same
 * operations in the same order as the scalar code in internal.h — which is
 * what makes them bit-identical. The scalar tail (n not a multiple of the
 * width) reuses the scalar code itself.
 *
 * Required macros:
 *   CA_V                  vector of CA_VW doubles (value type)
 *   CA_VW                 lanes per vector
 *   CA_VLOAD(p)           unaligned load of CA_VW doubles at p
 *   CA_VSTORE(p, v)       unaligned store
 *   CA_VADD/CA_VSUB/CA_VMUL(x, y)   lanewise IEEE x+y, x-y, x*y (never fused)
 *   CA_VNEG(x)            flips the sign bit (C's unary minus)
 *   CA_VMIN_SEL(p, q)     lanewise (q < p) ? q : p    (exactly; see CA_MIN)
 *   CA_VMAX_SEL(p, q)     lanewise (q > p) ? q : p
 *   CA_SIMD_ATTR          attributes for the generated functions (target(...))
 *   CA_SIMD_FRAMES_NAME   name of the generated frames function
 *   CA_SIMD_CONCAT_NAME   name of the generated concat function
 */
#pragma STDC FP_CONTRACT OFF
#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#include "internal.h"

CA_SIMD_ATTR void CA_SIMD_FRAMES_NAME(const BGFrameColumns *k, size_t start, size_t end) {
    if (start >= end) return; /* empty: touch nothing (k may be NULL) */
    const double *restrict W = k->width, *restrict H = k->height;
    const double *restrict AX = k->anchorX, *restrict AY = k->anchorY;
    const double *restrict A = k->a, *restrict B = k->b, *restrict C = k->c, *restrict D = k->d;
    const double *restrict TX = k->tx, *restrict TY = k->ty;
    const double *restrict PX = k->positionX, *restrict PY = k->positionY;
    double *restrict FX = k->frameX, *restrict FY = k->frameY;
    double *restrict FW = k->frameWidth, *restrict FH = k->frameHeight;

    size_t i = start;
    for (; end - i >= (size_t)CA_VW; i += CA_VW) {
        const CA_V w = CA_VLOAD(W + i), h = CA_VLOAD(H + i);
        const CA_V rx = CA_VMUL(CA_VNEG(w), CA_VLOAD(AX + i));
        const CA_V ry = CA_VMUL(CA_VNEG(h), CA_VLOAD(AY + i));
        const CA_V xr = CA_VADD(rx, w); /* x of corners 2 and 3 */
        const CA_V yt = CA_VADD(ry, h); /* y of corners 1 and 3 */

        /* X: products shared between corners, then ((a*x) + (c*y)) + tx. */
        const CA_V a = CA_VLOAD(A + i), c = CA_VLOAD(C + i), tx = CA_VLOAD(TX + i);
        const CA_V aL = CA_VMUL(a, rx), aR = CA_VMUL(a, xr);
        const CA_V cB = CA_VMUL(c, ry), cT = CA_VMUL(c, yt);
        const CA_V X0 = CA_VADD(CA_VADD(aL, cB), tx);
        const CA_V X1 = CA_VADD(CA_VADD(aL, cT), tx);
        const CA_V X2 = CA_VADD(CA_VADD(aR, cB), tx);
        const CA_V X3 = CA_VADD(CA_VADD(aR, cT), tx);
        const CA_V minX = CA_VMIN_SEL(CA_VMIN_SEL(CA_VMIN_SEL(X0, X1), X2), X3);
        const CA_V maxX = CA_VMAX_SEL(CA_VMAX_SEL(CA_VMAX_SEL(X0, X1), X2), X3);
        CA_VSTORE(FX + i, CA_VADD(minX, CA_VLOAD(PX + i)));
        CA_VSTORE(FW + i, CA_VSUB(maxX, minX));

        /* Y: ((b*x) + (d*y)) + ty. */
        const CA_V b = CA_VLOAD(B + i), d = CA_VLOAD(D + i), ty = CA_VLOAD(TY + i);
        const CA_V bL = CA_VMUL(b, rx), bR = CA_VMUL(b, xr);
        const CA_V dB = CA_VMUL(d, ry), dT = CA_VMUL(d, yt);
        const CA_V Y0 = CA_VADD(CA_VADD(bL, dB), ty);
        const CA_V Y1 = CA_VADD(CA_VADD(bL, dT), ty);
        const CA_V Y2 = CA_VADD(CA_VADD(bR, dB), ty);
        const CA_V Y3 = CA_VADD(CA_VADD(bR, dT), ty);
        const CA_V minY = CA_VMIN_SEL(CA_VMIN_SEL(CA_VMIN_SEL(Y0, Y1), Y2), Y3);
        const CA_V maxY = CA_VMAX_SEL(CA_VMAX_SEL(CA_VMAX_SEL(Y0, Y1), Y2), Y3);
        CA_VSTORE(FY + i, CA_VADD(minY, CA_VLOAD(PY + i)));
        CA_VSTORE(FH + i, CA_VSUB(maxY, minY));
    }
    ca_frames_scalar_range(k, i, end); /* tail: same order, one at a time */
}

/* No restrict here: out may be A or B (in place). Each iteration loads all
 * twelve inputs before its six stores, so exact aliasing is safe. */
CA_SIMD_ATTR void CA_SIMD_CONCAT_NAME(size_t n, const BGAffineColumns *A, const BGAffineColumns *B,
                                      BGAffineColumns *out) {
    if (n == 0) return; /* empty: touch nothing (pointers may be NULL) */
    /* Column pointers hoisted: without restrict the compiler would otherwise
     * re-read them from the structs after every store. */
    const double *pAa = A->a, *pAb = A->b, *pAc = A->c, *pAd = A->d, *pAtx = A->tx, *pAty = A->ty;
    const double *pBa = B->a, *pBb = B->b, *pBc = B->c, *pBd = B->d, *pBtx = B->tx, *pBty = B->ty;
    double *pRa = out->a, *pRb = out->b, *pRc = out->c, *pRd = out->d, *pRtx = out->tx, *pRty = out->ty;
    size_t i = 0;
    for (; n - i >= (size_t)CA_VW; i += CA_VW) {
        const CA_V Aa = CA_VLOAD(pAa + i), Ab = CA_VLOAD(pAb + i), Ac = CA_VLOAD(pAc + i);
        const CA_V Ad = CA_VLOAD(pAd + i), Atx = CA_VLOAD(pAtx + i), Aty = CA_VLOAD(pAty + i);
        const CA_V Ba = CA_VLOAD(pBa + i), Bb = CA_VLOAD(pBb + i), Bc = CA_VLOAD(pBc + i);
        const CA_V Bd = CA_VLOAD(pBd + i), Btx = CA_VLOAD(pBtx + i), Bty = CA_VLOAD(pBty + i);
        /* The scalar product's one definition, on vectors (internal.h). */
        CA_V Ra, Rb, Rc, Rd, Rtx, Rty;
        CA_AFFINE_PRODUCT_OPS(CA_VMUL, CA_VADD, Aa, Ab, Ac, Ad, Atx, Aty, Ba, Bb, Bc, Bd, Btx, Bty,
                              Ra, Rb, Rc, Rd, Rtx, Rty);
        CA_VSTORE(pRa + i, Ra);
        CA_VSTORE(pRb + i, Rb);
        CA_VSTORE(pRc + i, Rc);
        CA_VSTORE(pRd + i, Rd);
        CA_VSTORE(pRtx + i, Rtx);
        CA_VSTORE(pRty + i, Rty);
    }
    ca_concat_scalar_range(A, B, out, i, n);
}
