// CUDA-samples newdelete style: a polymorphic container created on the
// device and used through a pointer that sits in global memory. The virtual
// call's body is not visible, but the load of the object pointer is an
// access of its own.
#include <cuda_runtime.h>

template <class T> class Container
{
  public:
    __device__ Container() {}
    __device__ virtual ~Container() {}
    __device__ virtual void push(T e) = 0;
    __device__ virtual bool pop(T &e) = 0;
};

__global__ void containerFill(Container<int> **g_container)
{
    if (threadIdx.x == 0)
        (*g_container)->push(blockIdx.x);
}

__global__ void containerConsume(Container<int> **g_containers, int *d_result)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    int v;
    d_result[idx] = g_containers[blockIdx.x]->pop(v) ? v : -1;
}

int main()
{
    Container<int> **d_container;
    int *d_result;
    cudaMalloc(&d_container, 64 * sizeof(Container<int> *));
    cudaMalloc(&d_result, 64 * 128 * sizeof(int));
    containerFill<<<64, 128>>>(d_container);
    containerConsume<<<64, 128>>>(d_container, d_result);
    return 0;
}
