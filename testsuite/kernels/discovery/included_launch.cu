// A host file that #includes the project file holding its kernel and the
// launch: launches in project files the main file includes are collected,
// with their own file and line.
#include "included_launch_body.inc"

int main()
{
    run_halve(0);
    return 0;
}

// EXPECT-STATUS: 0
// EXPECT-KERNEL: halve line=3 params=float *v, int n
// 2^20 / 256 = 4096 blocks
// EXPECT-LAUNCH: halve line=13 grid=(4096,1,1) block=(256,1,1) shared=0 args=v, n=1048576
// EXPECT-SUMMARY: 1 kernel, 0 variables, 1 launch site
