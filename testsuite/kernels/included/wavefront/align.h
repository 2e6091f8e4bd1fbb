// Rodinia nw style: the tile size both the kernels and the host use.
#ifndef ALIGN_H
#define ALIGN_H
#define TILE 16
#endif
