/* CuMAPz shared-memory mappings (Kim & Shrivastava, seeds/001_3bb0fc5541bb7adb.txt,
 * section 4.1 "Shared memory usage"): a store into a shared buffer whose value
 * is a global load pairs the load (the "data fetch reference") with the store
 * (the "access reference"); the pair maps global addresses to shared ones so
 * later global reads of covered addresses can be recognised as served from
 * the buffer. Shared arrays without such a store are temporary storage. */
#include "analyzer/frontend/ir_build_impl.h"

static bool fetchable(hms_space s)
{
    /* Global memory, read directly, through the read-only path or a texture. */
    return s == HMS_SPACE_GLOBAL || s == HMS_SPACE_READONLY || s == HMS_SPACE_TEXTURE;
}

void mb_store(irb *b, int store_site, int value_load_site)
{
    ir_kernel *k = b->k;
    if (store_site < 0 || value_load_site < 0 || (size_t)store_site >= k->nsites ||
        (size_t)value_load_site >= k->nsites)
        return;
    ir_access *st = k->sites[store_site], *ld = k->sites[value_load_site];
    if (st->kind != HMS_ACCESS_STORE || ld->kind != HMS_ACCESS_LOAD)
        return;
    if (st->array < 0 || ld->array < 0 || st->array == b->unknown_array ||
        ld->array == b->unknown_array)
        return;
    const ir_array *sa = &k->arrays[st->array], *ga = &k->arrays[ld->array];
    if (sa->space != HMS_SPACE_SHARED || !fetchable(ga->space))
        return;
    ir_mapping m = {st->array, ld->array, value_load_site, store_site};
    st->mapping = ir_add_mapping(k, &m);
}
