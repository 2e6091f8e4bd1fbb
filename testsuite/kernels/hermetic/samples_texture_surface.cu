// CUDA-samples style: texture objects over a cudaArray (simpleTexture),
// a linear-memory texture object and a surface object written by a kernel.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void transformKernel(float *outputData, int width, int height, float theta,
                                cudaTextureObject_t tex)
{
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = (float)x - (float)width / 2;
    float v = (float)y - (float)height / 2;
    float tu = u * cosf(theta) - v * sinf(theta);
    float tv = v * cosf(theta) + u * sinf(theta);
    tu /= (float)width;
    tv /= (float)height;
    outputData[y * width + x] = tex2D<float>(tex, tu + 0.5f, tv + 0.5f);
}

__global__ void linearFetch(float4 *out, cudaTextureObject_t tex, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = tex1Dfetch<float4>(tex, i);
        float b;
        tex1Dfetch(&b, tex, i);
        out[i] = make_float4(a.x + b, a.y, a.z, a.w);
    }
}

__global__ void surfaceWrite(cudaSurfaceObject_t surf, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float v = surf2Dread<float>(surf, x * 4, y);
        surf2Dwrite(v * 2.0f, surf, x * (int)sizeof(float), y);
    }
}

int main()
{
    const int width = 512, height = 512;
    unsigned int size = width * height * sizeof(float);
    float *hData = (float *)malloc(size);
    memset(hData, 0, size);
    float *dData = NULL;
    cudaMalloc((void **)&dData, size);
    cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray *cuArray;
    cudaMallocArray(&cuArray, &channelDesc, width, height, cudaArraySurfaceLoadStore);
    cudaMemcpy2DToArray(cuArray, 0, 0, hData, width * sizeof(float), width * sizeof(float), height,
                        cudaMemcpyHostToDevice);
    cudaTextureObject_t tex;
    cudaResourceDesc texRes;
    memset(&texRes, 0, sizeof(cudaResourceDesc));
    texRes.resType = cudaResourceTypeArray;
    texRes.res.array.array = cuArray;
    cudaTextureDesc texDescr;
    memset(&texDescr, 0, sizeof(cudaTextureDesc));
    texDescr.normalizedCoords = true;
    texDescr.filterMode = cudaFilterModeLinear;
    texDescr.addressMode[0] = cudaAddressModeWrap;
    texDescr.addressMode[1] = cudaAddressModeWrap;
    texDescr.readMode = cudaReadModeElementType;
    cudaCreateTextureObject(&tex, &texRes, &texDescr, NULL);
    dim3 dimBlock(8, 8, 1);
    dim3 dimGrid(width / dimBlock.x, height / dimBlock.y, 1);
    transformKernel<<<dimGrid, dimBlock, 0>>>(dData, width, height, 0.5f, tex);

    cudaResourceDesc linRes = {};
    linRes.resType = cudaResourceTypeLinear;
    linRes.res.linear.devPtr = dData;
    linRes.res.linear.desc = cudaCreateChannelDesc<float4>();
    linRes.res.linear.sizeInBytes = size;
    cudaTextureDesc linDesc = {};
    linDesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t linTex = 0;
    cudaCreateTextureObject(&linTex, &linRes, &linDesc, NULL);
    linearFetch<<<width * height / 4 / 256, 256>>>((float4 *)dData, linTex, width * height / 4);

    cudaSurfaceObject_t surf = 0;
    cudaCreateSurfaceObject(&surf, &texRes);
    surfaceWrite<<<dimGrid, dimBlock>>>(surf, width, height);
    cudaDestroySurfaceObject(surf);
    cudaDestroyTextureObject(tex);
    cudaDestroyTextureObject(linTex);
    cudaFreeArray(cuArray);
    cudaFree(dData);
    free(hData);
    return 0;
}
