/* emu8.h — the 8-lane emulated instantiation of the SIMD template (emu8.c). */
#ifndef CKERNELTESTS_EMU8_H
#define CKERNELTESTS_EMU8_H
#include "CAffineKernels.h"
void test_emu8_frames(const BGFrameColumns *columns, size_t start, size_t end);
void test_emu8_concat(size_t n, const BGAffineColumns *A, const BGAffineColumns *B, BGAffineColumns *out);
#endif
