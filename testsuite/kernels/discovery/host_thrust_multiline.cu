// CUDA-samples segmentationTreeThrust style: host code calls thrust over
// several lines; without the thrust headers each piece is an error in host
// code, including the syntax errors clang gives once thrust::device_ptr<T>
// is unknown (parsed as comparisons) on the lines after the missing name.
// Host code is not analysed: none of this makes the run fail.
#include <cuda_runtime.h>
#include <thrust/sort.h>

typedef unsigned int uint;

__global__ void markSegments(const uint *flags, uint *marks, uint n)
{
    uint i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        marks[i] = flags[i] != 0;
}

int main()
{
    uint *dA, *dB, n = 1 << 16;
    cudaMalloc(&dA, n * sizeof(uint));
    cudaMalloc(&dB, n * sizeof(uint));
    thrust::sort(thrust::make_zip_iterator(thrust::make_tuple(thrust::device_ptr<uint>(dA),
                                                              thrust::device_ptr<uint>(dB))),
                 thrust::make_zip_iterator(thrust::make_tuple(thrust::device_ptr<uint>(dA + n),
                                                              thrust::device_ptr<uint>(dB + n))));
    markSegments<<<n / 256, 256>>>(dA, dB, n);
    return 0;
}

// EXPECT-STATUS: 0
// EXPECT-STDERR: host_thrust_multiline.cu:7: warning: 'thrust/sort.h' not found; analysing without it
// EXPECT-KERNEL: markSegments line=11 params=const uint *flags, uint *marks, uint n
// EXPECT-LAUNCH: markSegments line=27 grid=(256,1,1) block=(256,1,1) shared=0 args=dA, dB, n=65536
