/* hms-lint hermetic CUDA headers: the memory accesses of intrinsics that move
 * data in bulk (WMMA tile loads and stores, memcpy_async), written as plain
 * device code. A header function marked __HMS_MODEL__ is inlined by the IR
 * builder like user code, its accesses reported at the call in the user's
 * file; every other header function stays opaque. The bodies say which bytes
 * each lane touches and in what widths, not the exact instruction sequence
 * the compiler emits. Not a toolkit header. */
#ifndef HMS_MODEL_H
#define HMS_MODEL_H

#include <stddef.h>

#include "device_launch_parameters.h"
#include "vector_types.h"

#define __HMS_MODEL__ __attribute__((annotate("hms_model")))

namespace __hms
{
/* Lane of the calling thread in its warp (threads numbered x fastest). */
static __device__ __forceinline__ __HMS_MODEL__ unsigned lane_id(void)
{
    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u;
}

/* The widest access of at most B bytes the hardware makes (16 = 128-bit). */
template <int B> struct piece {
    typedef int4 type;
};
template <> struct piece<8> {
    typedef int2 type;
};
template <> struct piece<4> {
    typedef int type;
};
template <> struct piece<2> {
    typedef short type;
};
template <> struct piece<1> {
    typedef char type;
};

/* A warp's access of a tile of Lines lines of Len elements E, lines ldm
 * elements apart. The tile is cut into pieces of up to 16 bytes along its
 * lines. Tiles of 8- and 16-bit elements move as ldmatrix moves them: each
 * group of 8 lanes (one shared-memory phase of 16-byte accesses) reads the
 * same piece of 8 consecutive lines, lane r of the group line r. Bank
 * conflicts then come only from lines that collide in banks: ldm * sizeof(E)
 * a multiple of 128 bytes gives 8-way, an odd multiple of 64 4-way, of 32
 * 2-way; an odd multiple of 16 (e.g. 8 halves of padding on 64) none. Tiles
 * of 32-bit elements (accumulators, tf32) take the pieces in line order, as
 * vector accesses do. Which lane holds which element of the fragment differs
 * in the hardware; the bytes each phase touches do not. */
template <class E, int Lines, int Len> struct tile {
    static constexpr int line_bytes = Len * (int)sizeof(E);
    static constexpr int width = line_bytes >= 16 ? 16 : line_bytes;
    static constexpr int per_line = line_bytes / width;
    static constexpr int pieces = Lines * per_line;
    typedef typename piece<width>::type P;
    /* ldmatrix moves 16-bit (and packed 8-bit) tiles in 8-line matrices;
     * 32-bit tiles (accumulators, tf32) go by plain vector accesses. */
    static constexpr bool ldmatrix = sizeof(E) <= 2 && Lines % 8 == 0;
    /* Line and piece within the line of piece number g (lanes in order). */
    static __device__ __forceinline__ __HMS_MODEL__ int line_of(int g)
    {
        return ldmatrix ? (g / 8 / per_line) * 8 + g % 8 : g / per_line;
    }
    static __device__ __forceinline__ __HMS_MODEL__ int piece_of(int g)
    {
        return ldmatrix ? (g / 8) % per_line : g % per_line;
    }
};

/* A tile of fewer pieces than lanes (16x16 bytes: 16) takes addresses from
 * its first lanes only (ldmatrix .x2). The `g < pieces` guard is that
 * instruction's lane mask: the IR builder marks every branch inside a
 * header model (ir_stmt.lane_mask), so it never counts as divergence. */
template <class E, int Lines, int Len>
__device__ __HMS_MODEL__ void tile_load(const E *p, unsigned ldm)
{
    typedef tile<E, Lines, Len> T;
    const unsigned lane = lane_id();
    for (int i = 0; i < T::pieces; i += 32) {
        const int g = i + (int)lane;
        if (g < T::pieces) {
            typename T::P v =
                *(const typename T::P *)(p + T::line_of(g) * ldm +
                                         T::piece_of(g) * (T::width / (int)sizeof(E)));
            (void)v;
        }
    }
}

template <class E, int Lines, int Len> __device__ __HMS_MODEL__ void tile_store(E *p, unsigned ldm)
{
    typedef tile<E, Lines, Len> T;
    const unsigned lane = lane_id();
    for (int i = 0; i < T::pieces; i += 32) {
        const int g = i + (int)lane;
        if (g < T::pieces)
            *(typename T::P *)(p + T::line_of(g) * ldm +
                               T::piece_of(g) * (T::width / (int)sizeof(E))) = typename T::P();
    }
}

/* An asynchronous copy of n bytes (global -> shared) in pieces of W bytes,
 * the width of the cp.async instructions nvcc issues: the calling thread is
 * number `rank` of `count` threads sharing the copy (1 for a thread's own
 * copy, the group's size for a group's). */
template <int W>
__device__ __HMS_MODEL__ void copy_pieces(void *dst, const void *src, size_t n, unsigned rank,
                                          unsigned count)
{
    typedef typename piece<W>::type P;
    for (size_t i = rank; i < n / W; i += count)
        ((P *)dst)[i] = ((const P *)src)[i];
}

/* A copy whose alignment is known at compile time (aligned_size_t<Align>):
 * pieces as wide as the alignment, at most 16 bytes. The IR does not follow
 * the size through the aligned_size_t struct, so each thread is modelled
 * copying one piece, the usual use (one float or float4 per thread and
 * call), a group's copy one piece per thread in rank order; a larger copy
 * is undercounted, its pattern kept. */
template <size_t Align>
__device__ __HMS_MODEL__ void copy_async(void *dst, const void *src, unsigned rank)
{
    typedef typename piece<(Align >= 16 ? 16 : (int)Align)>::type P;
    ((P *)dst)[rank] = ((const P *)src)[rank];
}

/* A copy of a plain size (libcu++ checks alignment at run time; the
 * pointers are taken to be aligned): the widest of 16, 8, 4 and 1 bytes
 * that divides n. */
__device__ __HMS_MODEL__ inline void copy_async_size(void *dst, const void *src, size_t n,
                                                     unsigned rank, unsigned count)
{
    if (n % 16 == 0)
        copy_pieces<16>(dst, src, n, rank, count);
    else if (n % 8 == 0)
        copy_pieces<8>(dst, src, n, rank, count);
    else if (n % 4 == 0)
        copy_pieces<4>(dst, src, n, rank, count);
    else
        copy_pieces<1>(dst, src, n, rank, count);
}
/* Random-number generator states (curand_kernel.h): initialising one
 * writes the whole state, a draw reads it and writes it back. Whole-struct
 * copies, which the IR builder cuts into the pieces the compiler moves. */
template <class S> __device__ __HMS_MODEL__ void state_write(S *state)
{
    *state = S();
}
template <class S> __device__ __HMS_MODEL__ void state_step(S *state)
{
    S s = *state;
    *state = s;
}
/* A drawn number: no body, so the analysis cannot know it (opaque). */
__device__ unsigned int random_bits(void);
} // namespace __hms

#endif
