// Rodinia particlefilter style: launches written `kernel << < grid, block >> > (...)`
// by an IDE formatter (nvcc accepts them), next to an operator<< <T> call and a
// nested template closed with `> >`, which must stay as they are.
#include <cuda_runtime.h>
#include <vector>

struct Log {
};
template <class T> Log &operator<<(Log &l, const T &) { return l; }

__global__ void likelihood_kernel(float *weights, const float *likelihood, int Nparticles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Nparticles)
        weights[i] = weights[i] * likelihood[i];
}

__global__ void sum_kernel(float *partial_sums, int Nparticles)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        float sum = 0;
        for (int x = 0; x < Nparticles / 512; x++)
            sum += partial_sums[x];
        partial_sums[0] = sum;
    }
}

int main()
{
    const int Nparticles = 4096, threads_per_block = 512;
    int num_blocks = (Nparticles + threads_per_block - 1) / threads_per_block;
    std::vector<std::vector<int> > unused; /* "<< <" in a comment stays */
    Log log;
    operator<< <int>(log, 3);
    const char *text = "a << < b >> > c";
    (void)text;
    float *w, *l, *p;
    cudaMalloc(&w, Nparticles * sizeof(float));
    cudaMalloc(&l, Nparticles * sizeof(float));
    cudaMalloc(&p, Nparticles * sizeof(float));
    likelihood_kernel << < num_blocks, threads_per_block >> > (w, l, Nparticles);
    sum_kernel << <num_blocks, threads_per_block>> >(p, Nparticles);
    return 0;
}
