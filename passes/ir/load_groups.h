/* Memory-level parallelism from the code: which off-chip loads of a warp
 * are in flight together. A warp issues loads until an instruction needs
 * one of their values; the loads issued before that point wait as one
 * "memory period" (Hong & Kim, ISCA 2009, section 3: a warp's memory
 * waiting periods; Sim et al., PPoPP 2012, MLP = memory requests per
 * period; Huang & Li's eq. 18 takes MLP as the requests a warp keeps
 * outstanding). Counting periods instead of loads is what lets three
 * independent loads cost one latency, not three.
 *
 * The IR carries loads, stores, index and branch expressions, not the
 * arithmetic in between, so a group ends where the IR shows a consumer or
 * an ordering point:
 *  - a load whose index (or a branch or loop condition, or an assigned
 *    variable later used so) reads a value of the group: a dependent load;
 *  - a store or atomic: its value is taken to come from the loads before it
 *    (the `dst[i] = f(src...)` shape);
 *  - __syncthreads, the top and bottom of a loop body (a loop that is not
 *    unrolled consumes an iteration's loads before the back edge: nvcc's
 *    unrolling is not modelled, which makes the count a lower bound), and
 *    the merge after an if whose arms access memory.
 * Shared-memory accesses are on-chip: they neither start a group nor join
 * one, but a shared store consumes (it is a store). */
#ifndef HMS_PASSES_IR_LOAD_GROUPS_H
#define HMS_PASSES_IR_LOAD_GROUPS_H

#include <stddef.h>

#include "passes/ir/ir.h"

/* Fills leader[site] for every site of k (k->nsites entries): for an
 * off-chip load, the site id of the first load of its group (itself when it
 * starts one); -1 for every other site. Returns false only when out of
 * memory (leader then all -1). */
bool ir_load_groups(const ir_kernel *k, int *leader);

/* Loads per memory period, weighted by how often each site runs:
 * sum of count[s] over off-chip loads / sum of count[s] over group
 * leaders; count is by site id (warp requests, say). 1 when there are no
 * off-chip loads or no counts. */
double ir_load_mlp(const ir_kernel *k, const int *leader, const double *count);

#endif
