/* hms-lint hermetic headers: the part of the PyTorch C++ extension API that
 * host code around CUDA kernels uses (torch::Tensor, its sizes and data
 * pointers, TensorOptions, empty/zeros, the current stream, device guards,
 * TORCH_CHECK, PYBIND11_MODULE). Declarations only: hms-lint never runs host
 * code, it only needs the launcher functions to type-check so that the
 * template kernels they launch are instantiated and their launches read.
 * A real libtorch on the -I path is found first and replaces all of this. */
#ifndef HMS_TORCH_H
#define HMS_TORCH_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <algorithm>
#include <initializer_list>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "cuda_runtime.h"

namespace c10
{
enum class ScalarType : int8_t {
    Byte,
    Char,
    Short,
    Int,
    Long,
    Half,
    Float,
    Double,
    ComplexHalf,
    ComplexFloat,
    ComplexDouble,
    Bool,
    QInt8,
    QUInt8,
    QInt32,
    BFloat16,
    Float8_e5m2,
    Float8_e4m3fn,
    Undefined
};
enum class DeviceType : int8_t { CPU, CUDA };
enum class Layout : int8_t { Strided, Sparse };
using Half = __half;
using BFloat16 = __nv_bfloat16;

struct Device {
    Device(DeviceType type, int index = -1);
    DeviceType type() const;
    int index() const;
    bool is_cuda() const;
};

template <typename T> struct ArrayRef {
    ArrayRef();
    ArrayRef(const T &one);
    ArrayRef(std::initializer_list<T> list);
    ArrayRef(const std::vector<T> &v);
    const T *data() const;
    size_t size() const;
    const T *begin() const;
    const T *end() const;
    T operator[](size_t i) const;
    std::vector<T> vec() const;
};
using IntArrayRef = ArrayRef<int64_t>;

template <typename T> struct optional {
    optional();
    optional(const T &v);
    bool has_value() const;
    explicit operator bool() const;
    const T &value() const;
    const T &operator*() const;
    const T *operator->() const;
};

struct TensorOptions {
    TensorOptions();
    TensorOptions(ScalarType t);
    TensorOptions(DeviceType t);
    TensorOptions(Device d);
    TensorOptions dtype(ScalarType t) const;
    ScalarType dtype() const;
    TensorOptions device(Device d) const;
    TensorOptions device(DeviceType t, int index = -1) const;
    Device device() const;
    TensorOptions layout(Layout l) const;
    TensorOptions requires_grad(bool r) const;
};

template <typename T> struct DefaultPtrTraits {
    typedef T *PtrType;
};
template <typename T> struct RestrictPtrTraits {
    typedef T *__restrict__ PtrType;
};

/* An accessor's subscript yields the next lower dimension, down to T&. */
template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
struct TensorAccessor {
    __host__ __device__ TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const;
    __host__ __device__ index_t size(index_t d) const;
    __host__ __device__ index_t stride(index_t d) const;
};
template <typename T, template <typename> class PtrTraits, typename index_t>
struct TensorAccessor<T, 1, PtrTraits, index_t> {
    __host__ __device__ T &operator[](index_t i) const;
    __host__ __device__ index_t size(index_t d) const;
    __host__ __device__ index_t stride(index_t d) const;
};
template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits,
          typename index_t = int64_t>
using PackedTensorAccessor = TensorAccessor<T, N, PtrTraits, index_t>;
template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = TensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = TensorAccessor<T, N, PtrTraits, int64_t>;

struct Scalar {
    Scalar(double v);
    Scalar(int64_t v);
    template <typename T> T to() const;
};
} // namespace c10

namespace at
{
using namespace c10;

class Tensor
{
  public:
    Tensor();
    int64_t size(int64_t dim) const;
    IntArrayRef sizes() const;
    int64_t stride(int64_t dim) const;
    IntArrayRef strides() const;
    int64_t numel() const;
    int64_t dim() const;
    int64_t ndimension() const;
    int64_t element_size() const;
    void *data_ptr() const;
    template <typename T> T *data_ptr() const;
    template <typename T> T *data() const;
    const void *const_data_ptr() const;
    template <typename T> const T *const_data_ptr() const;
    void *mutable_data_ptr() const;
    template <typename T> T *mutable_data_ptr() const;
    TensorOptions options() const;
    ScalarType scalar_type() const;
    ScalarType dtype() const;
    ScalarType type() const;
    Device device() const;
    int get_device() const;
    bool is_cuda() const;
    bool is_contiguous() const;
    bool defined() const;
    Tensor contiguous() const;
    Tensor to(ScalarType t) const;
    Tensor to(Device d) const;
    Tensor to(TensorOptions o) const;
    Tensor view(IntArrayRef shape) const;
    Tensor reshape(IntArrayRef shape) const;
    Tensor transpose(int64_t a, int64_t b) const;
    Tensor permute(IntArrayRef dims) const;
    Tensor clone() const;
    Tensor &zero_();
    Tensor &fill_(const Scalar &v);
    Scalar item() const;
    template <typename T> T item() const;
    template <typename T, size_t N> TensorAccessor<T, N> accessor() const;
    template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits,
              typename index_t = int64_t>
    PackedTensorAccessor<T, N, PtrTraits, index_t> packed_accessor() const;
    template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits>
    PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const;
    template <typename T, size_t N, template <typename> class PtrTraits = DefaultPtrTraits>
    PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const;
};

Tensor empty(IntArrayRef size, TensorOptions options = {});
Tensor zeros(IntArrayRef size, TensorOptions options = {});
Tensor ones(IntArrayRef size, TensorOptions options = {});
Tensor full(IntArrayRef size, const Scalar &v, TensorOptions options = {});
Tensor arange(const Scalar &end, TensorOptions options = {});
Tensor empty_like(const Tensor &t, TensorOptions options = {});
Tensor zeros_like(const Tensor &t, TensorOptions options = {});
Tensor ones_like(const Tensor &t, TensorOptions options = {});

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kInt8 = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kInt32 = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kFloat64 = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;
constexpr ScalarType kFloat8_e5m2 = ScalarType::Float8_e5m2;
constexpr ScalarType kFloat8_e4m3fn = ScalarType::Float8_e4m3fn;
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr Layout kStrided = Layout::Strided;

namespace cuda
{
struct CUDAStream {
    operator cudaStream_t() const;
    cudaStream_t stream() const;
};
CUDAStream getCurrentCUDAStream(int device = -1);
cudaDeviceProp *getCurrentDeviceProperties();
struct CUDAGuard {
    explicit CUDAGuard(Device d);
    explicit CUDAGuard(int index);
};
struct OptionalCUDAGuard {
    OptionalCUDAGuard();
    explicit OptionalCUDAGuard(Device d);
    explicit OptionalCUDAGuard(optional<Device> d);
};
} // namespace cuda
} // namespace at

namespace c10
{
namespace cuda
{
using at::cuda::CUDAGuard;
using at::cuda::CUDAStream;
using at::cuda::getCurrentCUDAStream;
using at::cuda::OptionalCUDAGuard;
} // namespace cuda
} // namespace c10

/* Printing, found by argument-dependent lookup in each type's namespace. */
namespace at
{
std::ostream &operator<<(std::ostream &o, const Tensor &t);
} // namespace at
namespace c10
{
std::ostream &operator<<(std::ostream &o, const TensorOptions &t);
std::ostream &operator<<(std::ostream &o, ScalarType t);
std::ostream &operator<<(std::ostream &o, const Device &d);
} // namespace c10

namespace torch
{
using namespace at;
struct DeviceGuard {
    explicit DeviceGuard(Device d);
};
} // namespace torch

namespace pybind11
{
struct module_ {
    template <typename F, typename... A> module_ &def(const char *name, F &&f, A &&...extra);
};
using module = module_;
template <typename T> struct arg_v {
};
struct arg {
    arg(const char *name);
    template <typename T> arg_v<T> operator=(T &&v) const;
};
} // namespace pybind11
namespace py = pybind11;

/* Host-side checks: the condition is evaluated (it may name kernels' sizes),
 * the message never is. */
#define TORCH_CHECK(cond, ...) ((void)(cond))
#define TORCH_CHECK_INDEX(cond, ...) ((void)(cond))
#define TORCH_INTERNAL_ASSERT(cond, ...) ((void)(cond))
#define TORCH_WARN(...) ((void)0)
#define TORCH_WARN_ONCE(...) ((void)0)
#define AT_ASSERT(cond, ...) ((void)(cond))
#define C10_CUDA_KERNEL_LAUNCH_CHECK() ((void)0)
#define C10_CUDA_CHECK(e) ((void)(e))
#define C10_WARP_SIZE 32
#ifndef TORCH_EXTENSION_NAME
#define TORCH_EXTENSION_NAME hms_torch_extension
#endif
#define PYBIND11_MODULE(name, m) void hms_pybind11_module_##name(pybind11::module_ &m)

#endif
