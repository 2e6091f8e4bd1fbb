// Rodinia style (gaussian, kmeans, bfs): pointer-arithmetic accesses, legacy
// texture references bound with cudaBindTexture, __constant__ tables filled
// with cudaMemcpyToSymbol, structs of graph nodes and bool masks.
#include <cuda.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXBLOCKSIZE 512
#define ASSUMED_NR_CLUSTERS 32
#define SDATA(index) CUT_BANK_CHECKER(sdata, index)
#define CUT_BANK_CHECKER(array, index) array[index]

int Size;
float *a, *b, *finalVec;
float *m;

__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t)
        return;
    *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
        *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) /
        *(a_cuda + Size * t + t);
}

__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t)
        return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t)
        return;
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
    if (yidx == 0)
        b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
}

texture<float, 1, cudaReadModeElementType> t_features;
texture<float, 1, cudaReadModeElementType> t_features_flipped;
texture<float, 1, cudaReadModeElementType> t_clusters;
__constant__ float c_clusters[ASSUMED_NR_CLUSTERS * 34];

__global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures)
{
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    int i;
    if (point_id < npoints) {
        for (i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}

__global__ void kmeansPoint(float *features, int nfeatures, int npoints, int nclusters,
                            int *membership, float *clusters, float *block_clusters,
                            int *block_deltas)
{
    const unsigned int block_id = gridDim.x * blockIdx.y + blockIdx.x;
    const unsigned int point_id = block_id * blockDim.x * blockDim.y + threadIdx.x;
    int index = -1;
    if (point_id < npoints) {
        int i, j;
        float min_dist = FLT_MAX;
        float dist;
        for (i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures;
            float ans = 0.0;
            for (j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints;
                float diff = (tex1Dfetch(t_features, addr) - c_clusters[cluster_base_index + j]);
                ans += diff * diff;
            }
            dist = ans;
            if (dist < min_dist) {
                min_dist = dist;
                index = i;
            }
        }
    }
    if (point_id < npoints)
        membership[point_id] = index;
}

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void BFS_Kernel(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask,
                           bool *g_updating_graph_mask, bool *g_graph_visited, int *g_cost,
                           int no_of_nodes)
{
    int tid = blockIdx.x * MAXBLOCKSIZE + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting;
             i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void reduce_legacy(float *g_idata, float *g_odata)
{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    SDATA(tid) = g_idata[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            SDATA(tid) += SDATA(tid + s);
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = sdata[0];
}

void ForwardSub()
{
    float *m_cuda, *a_cuda, *b_cuda;
    cudaMalloc((void **)&m_cuda, Size * Size * sizeof(float));
    cudaMalloc((void **)&a_cuda, Size * Size * sizeof(float));
    cudaMalloc((void **)&b_cuda, Size * sizeof(float));
    cudaMemcpy(m_cuda, m, Size * Size * sizeof(float), cudaMemcpyHostToDevice);
    int block_size = MAXBLOCKSIZE, grid_size;
    grid_size = (Size / block_size) + (!(Size % block_size) ? 0 : 1);
    dim3 dimBlock(block_size);
    dim3 dimGrid(grid_size);
    int blockSize2d = 4, gridSize2d;
    gridSize2d = (Size / blockSize2d) + (!(Size % blockSize2d ? 0 : 1));
    dim3 dimBlockXY(blockSize2d, blockSize2d);
    dim3 dimGridXY(gridSize2d, gridSize2d);
    for (int t = 0; t < (Size - 1); t++) {
        Fan1<<<dimGrid, dimBlock>>>(m_cuda, a_cuda, Size, t);
        cudaThreadSynchronize();
        Fan2<<<dimGridXY, dimBlockXY>>>(m_cuda, a_cuda, b_cuda, Size, Size - t, t);
        cudaThreadSynchronize();
    }
    cudaFree(m_cuda);
    cudaFree(a_cuda);
    cudaFree(b_cuda);
}

int kmeans_host(float **feature, int nfeatures, int npoints, int nclusters, int *membership,
                float **clusters)
{
    float *feature_d, *feature_flipped_d, *clusters_d, *block_clusters_d = NULL;
    int *membership_d, *block_deltas_d = NULL;
    int num_threads = 256;
    int num_blocks = npoints / num_threads + (npoints % num_threads > 0);
    cudaMalloc((void **)&feature_flipped_d, npoints * nfeatures * sizeof(float));
    cudaMemcpy(feature_flipped_d, feature[0], npoints * nfeatures * sizeof(float), cudaMemcpyHostToDevice);
    cudaMalloc((void **)&feature_d, npoints * nfeatures * sizeof(float));
    cudaMalloc((void **)&membership_d, npoints * sizeof(int));
    cudaMalloc((void **)&clusters_d, nclusters * nfeatures * sizeof(float));
    invert_mapping<<<num_blocks, num_threads>>>(feature_flipped_d, feature_d, npoints, nfeatures);
    cudaChannelFormatDesc chDesc0 = cudaCreateChannelDesc<float>();
    t_features.filterMode = cudaFilterModePoint;
    t_features.normalized = false;
    t_features.channelDesc = chDesc0;
    if (cudaBindTexture(NULL, &t_features, feature_d, &chDesc0, npoints * nfeatures * sizeof(float)) != CUDA_SUCCESS)
        printf("Couldn't bind features array to texture!\n");
    cudaBindTexture(NULL, t_features_flipped, feature_flipped_d, npoints * nfeatures * sizeof(float));
    cudaMemcpyToSymbol(c_clusters, clusters[0], nclusters * nfeatures * sizeof(float), 0,
                       cudaMemcpyHostToDevice);
    dim3 grid(num_blocks, 1);
    dim3 threads(num_threads, 1);
    kmeansPoint<<<grid, threads>>>(feature_d, nfeatures, npoints, nclusters, membership_d,
                                   clusters_d, block_clusters_d, block_deltas_d);
    cudaThreadSynchronize();
    cudaUnbindTexture(t_features);
    cudaMemcpy(membership, membership_d, npoints * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(feature_d);
    cudaFree(feature_flipped_d);
    cudaFree(membership_d);
    cudaFree(clusters_d);
    return 0;
}

int main(int argc, char *argv[])
{
    Size = 16;
    m = (float *)calloc(Size * Size, sizeof(float));
    ForwardSub();
    free(m);
    return 0;
}
