/* hms-lint hermetic CUDA headers: cudaCreateChannelDesc<T>(), the channel
 * bit widths and kind of each element type. */
#ifndef HMS_CHANNEL_DESCRIPTOR_H
#define HMS_CHANNEL_DESCRIPTOR_H
#define __CHANNEL_DESCRIPTOR_H__

#include "driver_types.h"
#include "vector_types.h"

extern "C" __host__ struct cudaChannelFormatDesc
cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f);

template <class T> __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void)
{
    return cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

/* HMS_CHANNEL(T, bits, lanes, kind): lanes channels of `bits` bits each. */
#define HMS_CHANNEL(T, B, L, K)                                                                    \
    template <> __inline__ __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc<T>(void) {  \
        return cudaCreateChannelDesc(B, (L) > 1 ? B : 0, (L) > 2 ? B : 0, (L) > 3 ? B : 0,         \
                                     cudaChannelFormatKind##K);                                    \
    }
#define HMS_CHANNELS(N, B, K)                                                                      \
    HMS_CHANNEL(N##1, B, 1, K) HMS_CHANNEL(N##2, B, 2, K) HMS_CHANNEL(N##4, B, 4, K)

HMS_CHANNEL(char, 8, 1, Signed)
HMS_CHANNEL(signed char, 8, 1, Signed)
HMS_CHANNEL(unsigned char, 8, 1, Unsigned)
HMS_CHANNEL(short, 16, 1, Signed)
HMS_CHANNEL(unsigned short, 16, 1, Unsigned)
HMS_CHANNEL(int, 32, 1, Signed)
HMS_CHANNEL(unsigned int, 32, 1, Unsigned)
HMS_CHANNEL(float, 32, 1, Float)
HMS_CHANNELS(char, 8, Signed)
HMS_CHANNELS(uchar, 8, Unsigned)
HMS_CHANNELS(short, 16, Signed)
HMS_CHANNELS(ushort, 16, Unsigned)
HMS_CHANNELS(int, 32, Signed)
HMS_CHANNELS(uint, 32, Unsigned)
HMS_CHANNELS(float, 32, Float)

#undef HMS_CHANNEL
#undef HMS_CHANNELS

#endif
