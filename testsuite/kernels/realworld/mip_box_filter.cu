// Vulkan interop sample style: a column box filter over every mip level of an
// image whose surfaces are passed as arrays of surface objects (one per
// level). The sizes and the radius are members of the application class, so
// hms-lint has no value for them: with every default at 64 (or every one at
// 1) the guard `height > filter_radius` keeps every thread from the surface
// accesses; the radius must be small and the sizes large.
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void boxfilter_columns(cudaSurfaceObject_t *dstSurfMipMapArray,
                                  cudaSurfaceObject_t *srcSurfMipMapArray, size_t baseWidth,
                                  size_t baseHeight, size_t mipLevels, int filter_radius)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    for (uint32_t level = 0; level < mipLevels; level++) {
        uint32_t width = (baseWidth >> level) ? (baseWidth >> level) : 1;
        uint32_t height = (baseHeight >> level) ? (baseHeight >> level) : 1;
        if (x < width && height > filter_radius) {
            int colInBytes = x * sizeof(uchar4);
            unsigned int sum = 0;
            for (int y = 0; y <= filter_radius && y < height; y++)
                sum += surf2Dread<unsigned int>(srcSurfMipMapArray[level], colInBytes, y);
            surf2Dwrite(sum / (filter_radius + 1), dstSurfMipMapArray[level], colInBytes, 0);
            for (int y = 1; y < height - filter_radius; y++) {
                sum += surf2Dread<unsigned int>(srcSurfMipMapArray[level], colInBytes,
                                                y + filter_radius);
                sum -= surf2Dread<unsigned int>(srcSurfMipMapArray[level], colInBytes, y - 1);
                surf2Dwrite(sum / (filter_radius + 1), dstSurfMipMapArray[level], colInBytes, y);
            }
        }
    }
}

class MipFilterApp {
  public:
    size_t imageWidth, imageHeight, mipLevels;
    int filter_radius;
    cudaSurfaceObject_t *d_src, *d_dst;
    static const int nthreads = 128;

    void filter(cudaStream_t stream)
    {
        boxfilter_columns<<<imageWidth / nthreads, nthreads, 0, stream>>>(
            d_dst, d_src, imageWidth, imageHeight, mipLevels, filter_radius);
    }
};
