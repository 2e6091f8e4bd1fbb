/* hms-lint hermetic CUDA headers: warp matrix multiply-accumulate
 * (nvcuda::wmma). Fragments are register tiles; load_matrix_sync and
 * store_matrix_sync are the warp's memory accesses of a tile, modelled in
 * hms_model.h (each lane its share of the tile's lines, 16 bytes at a time);
 * mma_sync and fill_fragment touch no memory. */
#ifndef HMS_MMA_H
#define HMS_MMA_H
#define __CUDA_MMA_H__
#define __CUDA_MMA_HPP__

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "hms_model.h"

namespace nvcuda
{
namespace wmma
{
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };

namespace precision
{
struct tf32;
struct u4;
struct s4;
struct b1;
} // namespace precision
namespace experimental
{
namespace precision
{
struct u4;
struct s4;
struct b1;
} // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} // namespace experimental

/* What a fragment's elements are stored as, and what a pointer to the tile
 * in memory points to (sub-byte types: void, their accesses not modelled). */
template <class T> struct __storage {
    typedef T type;
    typedef T pointee;
};
template <> struct __storage<precision::tf32> {
    typedef float type;
    typedef float pointee;
};
#define HMS_WMMA_SUBBYTE(T)                                                                        \
    template <> struct __storage<T> {                                                              \
        typedef int type;                                                                          \
        typedef void pointee;                                                                      \
    };
HMS_WMMA_SUBBYTE(precision::u4)
HMS_WMMA_SUBBYTE(precision::s4)
HMS_WMMA_SUBBYTE(precision::b1)
HMS_WMMA_SUBBYTE(experimental::precision::u4)
HMS_WMMA_SUBBYTE(experimental::precision::s4)
HMS_WMMA_SUBBYTE(experimental::precision::b1)
#undef HMS_WMMA_SUBBYTE

/* Rows x columns of the tile a fragment holds. */
template <class Use, int m, int n, int k> struct __shape;
template <int m, int n, int k> struct __shape<matrix_a, m, n, k> {
    enum { rows = m, cols = k };
};
template <int m, int n, int k> struct __shape<matrix_b, m, n, k> {
    enum { rows = k, cols = n };
};
template <int m, int n, int k> struct __shape<accumulator, m, n, k> {
    enum { rows = m, cols = n };
};

/* Trivially constructible. Fragments live in registers, arrays of them too
 * (annotate("hms_register"): the IR never gives them memory accesses). */
template <class Use, int m, int n, int k, class T, class Layout = void>
class __attribute__((annotate("hms_register"))) fragment
{
  public:
    typedef typename __storage<T>::type element_type;
    typedef typename __storage<T>::type storage_element_type;
    enum {
        num_elements = __shape<Use, m, n, k>::rows * __shape<Use, m, n, k>::cols / 32 > 0
                           ? __shape<Use, m, n, k>::rows *__shape<Use, m, n, k>::cols / 32
                           : 1
    };
    element_type x[num_elements];
};

template <class Use, int m, int n, int k, class T, class Layout>
__device__ void fill_fragment(fragment<Use, m, n, k, T, Layout> &a,
                              const typename __storage<T>::type &v);

/* Memory lines of a tile: rows when row-major, columns when column-major. */
template <class Layout, int rows, int cols> struct __lines {
    enum { count = rows, length = cols };
};
template <int rows, int cols> struct __lines<col_major, rows, cols> {
    enum { count = cols, length = rows };
};

template <class Use, int m, int n, int k, class T, class Layout>
__device__ __HMS_MODEL__ void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &a,
                                               const typename __storage<T>::pointee *p,
                                               unsigned ldm)
{
    typedef __shape<Use, m, n, k> S;
    typedef __lines<Layout, S::rows, S::cols> L;
    __hms::tile_load<typename __storage<T>::pointee, L::count, L::length>(p, ldm);
}

template <int m, int n, int k, class T>
__device__ __HMS_MODEL__ void load_matrix_sync(fragment<accumulator, m, n, k, T> &a,
                                               const typename __storage<T>::pointee *p,
                                               unsigned ldm, layout_t layout)
{
    if (layout == mem_row_major)
        __hms::tile_load<typename __storage<T>::pointee, m, n>(p, ldm);
    else
        __hms::tile_load<typename __storage<T>::pointee, n, m>(p, ldm);
}

template <int m, int n, int k, class T>
__device__ __HMS_MODEL__ void store_matrix_sync(typename __storage<T>::pointee *p,
                                                const fragment<accumulator, m, n, k, T> &a,
                                                unsigned ldm, layout_t layout)
{
    if (layout == mem_row_major)
        __hms::tile_store<typename __storage<T>::pointee, m, n>(p, ldm);
    else
        __hms::tile_store<typename __storage<T>::pointee, n, m>(p, ldm);
}

template <int m, int n, int k, class Td, class Ta, class La, class Tb, class Lb, class Tc>
__device__ void mma_sync(fragment<accumulator, m, n, k, Td> &d,
                         const fragment<matrix_a, m, n, k, Ta, La> &a,
                         const fragment<matrix_b, m, n, k, Tb, Lb> &b,
                         const fragment<accumulator, m, n, k, Tc> &c, bool satf = false);
template <int m, int n, int k, class Ta, class La, class Tb, class Lb>
__device__ void bmma_sync(fragment<accumulator, m, n, k, int> &d,
                          const fragment<matrix_a, m, n, k, Ta, La> &a,
                          const fragment<matrix_b, m, n, k, Tb, Lb> &b,
                          const fragment<accumulator, m, n, k, int> &c,
                          experimental::bmmaBitOp op = experimental::bmmaBitOpXOR,
                          experimental::bmmaAccumulateOp acc = experimental::bmmaAccumulateOpPOPC);

__device__ float __float_to_tf32(float in);
} // namespace wmma
} // namespace nvcuda

#endif
