// Rodinia srad_v1 style: the precision and the block size are chosen here,
// once, by the program that #includes the kernel files.
#define fp float
#define NUMBER_THREADS 256
