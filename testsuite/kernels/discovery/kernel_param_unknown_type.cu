// A kernel file #included by its host file, which defines the parameter's
// struct: standalone the type is unknown. That is a warning naming the type
// (clang would silently make it int); the kernel is still listed, with the
// parameter as written.
__global__ void visit(Graph *g, int *level)
{
    level[blockIdx.x * blockDim.x + threadIdx.x] = g[threadIdx.x].depth;
}

// EXPECT-STATUS: 0
// EXPECT-STDERR: kernel_param_unknown_type.cu:5:23: warning: unknown type 'Graph' for a parameter of kernel 'visit', declared in a header this file does not include
// EXPECT-KERNEL: visit line=5 params=Graph *g (unknown type), int *level
