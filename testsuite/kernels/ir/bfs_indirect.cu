// Rodinia BFS: a frontier mask, node records read by index, the neighbour
// list read through an index loaded from memory, bool arrays, and a
// write guarded by a data-dependent condition.
#include <cuda_runtime.h>

struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask,
                       bool *g_updating_graph_mask, bool *g_graph_visited, int *g_cost,
                       int no_of_nodes)
{
    int tid = blockIdx.x * 512 + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        // EXPECT-ACCESS: -1 load g_graph_mask global 1 guard={blockIdx.x * 512 + threadIdx.x < no_of_nodes} index=blockIdx.x * 512 + threadIdx.x
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting;
             i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
            // EXPECT-ACCESS: -4 load g_graph_visited global 1 index=unknown(value loaded from memory: g_graph_edges[i])
            // EXPECT-ACCESS: -4 store g_cost global 4 guard={!unknown(value loaded from memory: g_graph_visited[id])} index=unknown(value loaded from memory: g_graph_edges[i])
        }
        // EXPECT-ACCESS: -10 load g_graph_nodes global 4 stride=8 index=blockIdx.x * 512 + threadIdx.x
        // EXPECT-ACCESS: -10 load g_graph_nodes global 4 stride=8 offset=4 index=blockIdx.x * 512 + threadIdx.x
        // EXPECT-LIMIT: -12 loop trip count depends on an unknown value
    }
    // EXPECT-ARRAY: g_graph_nodes global Node 8B param read
    // EXPECT-ARRAY: g_graph_mask global bool 1B param read written
    // (1000000 + 511) / 512 = 1954 blocks
    // EXPECT-LAUNCH: grid=(1954,1,1) block=(512,1,1) source=host-call
}

int main()
{
    int no_of_nodes = 1000000;
    // Rodinia picks the block count in an if; kept straight-line here so it folds
    int num_of_blocks = (int)((no_of_nodes + 511) / 512);
    int num_of_threads_per_block = 512;
    dim3 grid(num_of_blocks, 1, 1);
    dim3 threads(num_of_threads_per_block, 1, 1);
    Node *d_graph_nodes;
    int *d_graph_edges, *d_cost;
    bool *d_graph_mask, *d_updating_graph_mask, *d_graph_visited;
    Kernel<<<grid, threads, 0>>>(d_graph_nodes, d_graph_edges, d_graph_mask, d_updating_graph_mask,
                                 d_graph_visited, d_cost, no_of_nodes);
    return 0;
}
