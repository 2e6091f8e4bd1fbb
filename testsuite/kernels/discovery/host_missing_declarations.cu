// Host code that uses declarations of headers it does not include (it is
// meant to be #included by another file, or relied on a transitive include):
// host code is not analysed, so those errors are warnings and the file does
// not fail. printf needs no <cstdio> in host or device code, as with nvcc.
long long now_us()
{
    struct timeval tv;
    gettimeofday(&tv, 0);
    return tv.tv_sec * 1000000LL + tv.tv_usec;
}

__global__ void fill(float *a)
{
    a[threadIdx.x] = 1.0f;
    if (threadIdx.x == 0)
        printf("block %d\n", blockIdx.x);
}

int main()
{
    long long t0 = now_us();
    fill<<<8, 64>>>(0);
    printf("%lld us\n", now_us() - t0);
    return 0;
}

// EXPECT-STATUS: 0
// EXPECT-STDERR: host_missing_declarations.cu:8:5: warning: use of undeclared identifier 'gettimeofday' (in host code, which is not analysed: ignored)
// EXPECT-KERNEL: fill line=12 params=float *a
// EXPECT-LAUNCH: fill line=22 grid=(8,1,1) block=(64,1,1) shared=0 args=0
