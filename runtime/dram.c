/* DRAM rows, banks and per-bank G/G/1 queues.
 * Huang & Li, seeds/000_2b7270bf81dd448e.txt, Section III-C (eqs. 6-10). */
#include "runtime/dram.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/issue_order.h"

const char *hms_row_outcome_name(hms_row_outcome o)
{
    switch (o) {
    case HMS_ROW_HIT:
        return "hit";
    case HMS_ROW_MISS:
        return "miss";
    case HMS_ROW_CONFLICT:
        return "conflict";
    }
    return "?";
}

/* A mask's runs of contiguous bits, found once so that extracting them from
 * each request's address (hms_bits_extract) needs no scan of the mask. */
typedef struct {
    unsigned n;
    unsigned lo[32], at[32]; /* a run's lowest bit, and where it lands in the result */
    uint64_t ones[32];       /* its length as a mask */
} bit_runs;

static void runs_of(uint64_t mask, bit_runs *r)
{
    unsigned k = 0;
    r->n = 0;
    while (mask) { /* a 64-bit mask has at most 32 runs */
        unsigned lo = (unsigned)__builtin_ctzll(mask);
        uint64_t rest = ~(mask >> lo);
        unsigned len = rest ? (unsigned)__builtin_ctzll(rest) : 64 - lo;
        uint64_t ones = len >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << len) - 1;
        r->lo[r->n] = lo;
        r->at[r->n] = k;
        r->ones[r->n] = ones;
        r->n++;
        k += len;
        mask &= ~(ones << lo);
    }
}

static inline uint64_t extract_runs(const bit_runs *r, uint64_t x)
{
    uint64_t out = 0;
    for (unsigned i = 0; i < r->n; i++)
        out |= ((x >> r->lo[i]) & r->ones[i]) << r->at[i];
    return out;
}

uint64_t hms_bits_extract(uint64_t x, uint64_t mask)
{
    bit_runs r;
    runs_of(mask, &r);
    return extract_runs(&r, x);
}

unsigned hms_dram_channel(const hms_arch *a, uint64_t addr)
{
    return (unsigned)((addr / (uint64_t)a->dram_channel_bytes) % (uint64_t)a->dram_channels);
}

uint64_t hms_dram_bank(const hms_arch *a, uint64_t addr)
{
    if (a->dram_bank_bits_mask)
        return hms_bits_extract(addr, a->dram_bank_bits_mask);
    /* Fallback: channel stripes rotate over the banks of each channel. */
    uint64_t stripe = addr / ((uint64_t)a->dram_channel_bytes * (uint64_t)a->dram_channels);
    uint64_t b = (uint64_t)a->dram_banks_per_channel;
    return (uint64_t)hms_dram_channel(a, addr) * b + stripe % b;
}

uint64_t hms_dram_row(const hms_arch *a, uint64_t addr)
{
    if (a->dram_row_bits_mask)
        return hms_bits_extract(addr, a->dram_row_bits_mask);
    return addr / ((uint64_t)a->dram_channels * (uint64_t)a->dram_banks_per_channel *
                   (uint64_t)a->dram_row_bytes);
}

double hms_dram_ns_to_cycles(const hms_arch *a, double ns)
{
    return ns * a->clock_ghz;
}

bool hms_kingman_wq(double c_a, double c_s, double tau_a, double tau_s, double *wq)
{
    *wq = INFINITY;
    if (!(c_a >= 0) || !(c_s >= 0) || !(tau_a > 0) || !(tau_s >= 0))
        return false;
    double rho = tau_s / tau_a;
    if (rho >= 1.0)
        return false;
    *wq = ((c_a * c_a + c_s * c_s) / 2.0) * (rho / (1.0 - rho)) * tau_s;
    return true;
}

static const char *arch_origin(const hms_arch *a)
{
    if (a->source_path[0])
        return a->source_path;
    return a->name[0] ? a->name : "<arch>";
}

/* Every bank id is below this, or 0 when that bound is too large for a
 * direct table (more than 2^16 ids). */
static size_t bank_id_bound(const hms_arch *a)
{
    enum { MAX_DIRECT = 1 << 16 };
    if (a->dram_bank_bits_mask) {
        int bits = __builtin_popcountll(a->dram_bank_bits_mask);
        return bits <= 16 ? (size_t)1 << bits : 0;
    }
    uint64_t n = (uint64_t)a->dram_channels * (uint64_t)a->dram_banks_per_channel;
    return n <= MAX_DIRECT ? (size_t)n : 0;
}

bool hms_dram_init(hms_dram_model *m, const hms_arch *a, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    const char *field = NULL, *why = "must be > 0";
    if (!a) {
        snprintf(err, errlen, "<arch>: no architecture description");
        return false;
    }
    if (!(a->clock_ghz > 0))
        field = "clock_ghz";
    else if (a->dram_channels <= 0)
        field = "dram_channels";
    else if (a->dram_channel_bytes <= 0)
        field = "dram_channel_bytes";
    else if (!(a->dram_row_hit_ns > 0))
        field = "dram_row_hit_ns";
    else if (!(a->dram_row_miss_ns > 0))
        field = "dram_row_miss_ns";
    else if (!(a->dram_row_conflict_ns > 0))
        field = "dram_row_conflict_ns";
    else if ((!a->dram_bank_bits_mask || !a->dram_row_bits_mask) && a->dram_banks_per_channel <= 0)
        field = "dram_banks_per_channel", why = "must be > 0 when a bank or row bit mask is absent";
    else if (!a->dram_row_bits_mask && a->dram_row_bytes <= 0)
        field = "dram_row_bytes", why = "must be > 0 when dram_row_bits_mask is absent";
    else if (a->dram_bank_bits_mask & a->dram_row_bits_mask)
        field = "dram_bank_bits_mask", why = "overlaps dram_row_bits_mask";
    if (field) {
        snprintf(err, errlen, "%s: %s: %s", arch_origin(a), field, why);
        return false;
    }
    m->arch = a;
    m->t_hit = hms_dram_ns_to_cycles(a, a->dram_row_hit_ns);
    m->t_miss = hms_dram_ns_to_cycles(a, a->dram_row_miss_ns);
    m->t_conflict = hms_dram_ns_to_cycles(a, a->dram_row_conflict_ns);
    m->nchannels = (unsigned)a->dram_channels;
    m->ndirect = bank_id_bound(a);
    m->channel_requests = calloc(m->nchannels, sizeof *m->channel_requests);
    if (!m->channel_requests) {
        snprintf(err, errlen, "%s: out of memory for the DRAM model", arch_origin(a));
        return false;
    }
    return true;
}

bool hms_dram_add(hms_dram_model *m, uint64_t addr, double time)
{
    if (!(time >= 0) || isinf(time))
        return false;
    if (m->nreq == m->capreq) {
        size_t cap = m->capreq ? m->capreq * 2 : 256;
        hms_dram_request *v = realloc(m->req, cap * sizeof *v);
        if (!v)
            return false;
        m->req = v;
        m->capreq = cap;
    }
    if (m->nreq > 0 && time < m->req[m->nreq - 1].time)
        m->unordered = true;
    m->req[m->nreq++] = (hms_dram_request){addr, time};
    return true;
}

void hms_dram_free(hms_dram_model *m)
{
    free(m->req);
    free(m->outcome);
    free(m->banks);
    free(m->slots);
    free(m->direct);
    free(m->channel_requests);
    memset(m, 0, sizeof *m);
}

/* ---- bank table ------------------------------------------------------------ */

static size_t hash64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull; /* splitmix64 finaliser */
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (size_t)(x ^ (x >> 31));
}

static bool rehash(hms_dram_model *m, size_t nslots)
{
    size_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < m->nbanks; i++) {
        size_t h = hash64(m->banks[i].id) & (nslots - 1);
        while (slots[h])
            h = (h + 1) & (nslots - 1);
        slots[h] = i + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    return true;
}

static ptrdiff_t find_slot(const hms_dram_model *m, uint64_t id)
{
    if (m->direct)
        return id < m->ndirect && m->direct[id] ? (ptrdiff_t)m->direct[id] - 1 : -1;
    if (!m->nslots)
        return -1;
    size_t h = hash64(id) & (m->nslots - 1);
    while (m->slots[h]) {
        if (m->banks[m->slots[h] - 1].id == id)
            return (ptrdiff_t)(m->slots[h] - 1);
        h = (h + 1) & (m->nslots - 1);
    }
    return -1;
}

/* Returns the bank's index, adding it if new; -1 on allocation failure. */
static ptrdiff_t bank_index(hms_dram_model *m, uint64_t id)
{
    ptrdiff_t i = find_slot(m, id);
    if (i >= 0)
        return i;
    if (m->nbanks == m->capbanks) {
        size_t cap = m->capbanks ? m->capbanks * 2 : 64;
        hms_dram_bank_stats *v = realloc(m->banks, cap * sizeof *v);
        if (!v)
            return -1;
        m->banks = v;
        m->capbanks = cap;
    }
    if (!m->direct && 2 * (m->nbanks + 1) > m->nslots &&
        !rehash(m, m->nslots ? m->nslots * 2 : 128))
        return -1;
    hms_dram_bank_stats *b = &m->banks[m->nbanks];
    memset(b, 0, sizeof *b);
    b->id = id;
    if (m->direct) { /* id < ndirect (bank_id_bound); checked all the same */
        if (id >= m->ndirect)
            return -1;
        m->direct[id] = (uint32_t)++m->nbanks;
        return (ptrdiff_t)(m->nbanks - 1);
    }
    size_t h = hash64(id) & (m->nslots - 1);
    while (m->slots[h])
        h = (h + 1) & (m->nslots - 1);
    m->slots[h] = ++m->nbanks;
    return (ptrdiff_t)(m->nbanks - 1);
}

const hms_dram_bank_stats *hms_dram_find_bank(const hms_dram_model *m, uint64_t bank_id)
{
    ptrdiff_t i = find_slot(m, bank_id);
    return i >= 0 ? &m->banks[i] : NULL;
}

hms_row_outcome hms_dram_outcome(const hms_dram_model *m, size_t i)
{
    return (hms_row_outcome)m->outcome[i];
}

/* ---- evaluation ------------------------------------------------------------ */

/* hms_dram_bank, hms_dram_row and hms_dram_channel with the masks' runs and
 * the channel stripe's shift found once. */
typedef struct {
    const hms_arch *a;
    bit_runs bank, row;
    int stripe_shift; /* log2 dram_channel_bytes, or -1 when not a power of two */
    uint64_t channels;
    unsigned __int128 channel_m; /* fastmod's multiplier for `channels` */
} addr_map;

/* x % d by multiplication (Lemire, Kaser & Kurz, "Faster remainder by
 * direct computation", 2019: exact for every 64-bit x with a 128-bit m =
 * floor((2^128 - 1) / d) + 1): a 64-bit division costs as much as the rest
 * of a request's mapping. */
static inline uint64_t fastmod_u64(uint64_t x, unsigned __int128 m, uint64_t d)
{
    unsigned __int128 low = m * x; /* mod 2^128 */
    unsigned __int128 bottom = ((low & UINT64_MAX) * d) >> 64;
    unsigned __int128 top = (low >> 64) * d;
    return (uint64_t)((bottom + top) >> 64);
}

static void addr_map_init(addr_map *am, const hms_arch *a)
{
    am->a = a;
    runs_of(a->dram_bank_bits_mask, &am->bank);
    runs_of(a->dram_row_bits_mask, &am->row);
    uint64_t cb = (uint64_t)a->dram_channel_bytes; /* > 0 (hms_dram_init) */
    am->stripe_shift = (cb & (cb - 1)) == 0 ? __builtin_ctzll(cb) : -1;
    am->channels = (uint64_t)a->dram_channels; /* > 0 (hms_dram_init) */
    am->channel_m = ~(unsigned __int128)0 / am->channels + 1;
}

static inline unsigned map_channel(const addr_map *am, uint64_t addr)
{
    if (am->stripe_shift < 0)
        return hms_dram_channel(am->a, addr);
    return (unsigned)fastmod_u64(addr >> am->stripe_shift, am->channel_m, am->channels);
}

static inline uint64_t map_bank(const addr_map *am, uint64_t addr)
{
    return am->a->dram_bank_bits_mask ? extract_runs(&am->bank, addr) : hms_dram_bank(am->a, addr);
}

static inline uint64_t map_row(const addr_map *am, uint64_t addr)
{
    return am->a->dram_row_bits_mask ? extract_runs(&am->row, addr) : hms_dram_row(am->a, addr);
}

/* Running sums per bank while serving the stream in time order. */
typedef struct {
    bool row_open;
    uint64_t open_row;
    double last_time;
    double sum_ia, sum_ia2, sum_s, sum_s2;
} bank_acc;

static double cv(double sum, double sum2, double n, double *mean)
{
    *mean = sum / n;
    double var = sum2 / n - *mean * *mean; /* population variance */
    if (var < 0)
        var = 0; /* rounding */
    return *mean > 0 ? sqrt(var) / *mean : 0;
}

/* `in_flight`: the bank's share of the requests that can be outstanding at
 * once (0 = unbounded); `drain`: cycles to drain every outstanding request at
 * peak bandwidth (0 = no bound). */
static void bank_figures(hms_dram_bank_stats *b, const bank_acc *acc, double in_flight,
                         double drain)
{
    b->c_s = cv(acc->sum_s, acc->sum_s2, (double)b->requests, &b->tau_s);
    b->tau_a = b->c_a = b->rho = 0;
    b->queue_delay = 0;
    b->saturated = b->capped = false;
    if (b->requests >= 2) {
        double gaps = (double)(b->requests - 1);
        b->c_a = cv(acc->sum_ia, acc->sum_ia2, gaps, &b->tau_a);
        b->rho = b->tau_a > 0 ? b->tau_s / b->tau_a : INFINITY;
        /* The cap (see dram.h): bounds Kingman on short streams and stands in
         * for it when the bank is saturated. */
        double cap = gaps / 2.0 * b->tau_s;
        if (in_flight > 0) {
            double closed = (fmax(1.0, in_flight) - 1.0) * b->tau_s;
            cap = fmin(cap, closed);
        }
        if (drain > 0)
            cap = fmin(cap, drain);
        double wq;
        if (!hms_kingman_wq(b->c_a, b->c_s, b->tau_a, b->tau_s, &wq)) {
            b->saturated = true;
            wq = INFINITY;
        }
        if (wq > cap) {
            wq = cap;
            b->capped = true;
        }
        b->queue_delay = wq;
    }
    b->latency = b->queue_delay + b->tau_s;
}

bool hms_dram_evaluate(hms_dram_model *m, char *err, size_t errlen)
{
    const char *origin = arch_origin(m->arch);
    /* Callers usually feed in time order: then the k-th request served is the
     * k-th fed (ties keep feed order, as the sort's index tie-break does) and
     * no order array is built. */
    bool fed_in_order = !m->unordered; /* hms_dram_add watched the times */
    hms_timed *order = NULL;
    if (!fed_in_order)
        order = malloc(m->nreq * sizeof *order);
    uint8_t *outcome = realloc(m->outcome, (m->nreq ? m->nreq : 1) * sizeof *outcome);
    if ((!fed_in_order && !order) || !outcome) {
        free(order);
        if (outcome)
            m->outcome = outcome;
        snprintf(err, errlen, "%s: out of memory evaluating %zu DRAM requests", origin, m->nreq);
        return false;
    }
    m->outcome = outcome;
    if (order) {
        for (size_t i = 0; i < m->nreq; i++)
            order[i] = (hms_timed){m->req[i].time, i};
        hms_timed_sort(order, m->nreq);
    }

    m->nbanks = 0;
    if (m->nslots)
        memset(m->slots, 0, m->nslots * sizeof *m->slots);
    if (m->ndirect && !m->direct)
        m->direct = malloc(m->ndirect * sizeof *m->direct); /* NULL: the hash serves */
    if (m->direct)
        memset(m->direct, 0, m->ndirect * sizeof *m->direct);
    memset(m->channel_requests, 0, m->nchannels * sizeof *m->channel_requests);
    m->hits = m->misses = m->conflicts = 0;

    bank_acc *acc = NULL;
    size_t capacc = 0;
    bool ok = true;
    addr_map am;
    addr_map_init(&am, m->arch);
    for (size_t k = 0; k < m->nreq && ok; k++) {
        size_t ri = order ? order[k].index : k;
        const hms_dram_request *r = &m->req[ri];
        ptrdiff_t bi = bank_index(m, map_bank(&am, r->addr));
        if (bi < 0) {
            ok = false;
            break;
        }
        if ((size_t)bi >= capacc) {
            size_t cap = capacc ? capacc * 2 : 64;
            bank_acc *v = realloc(acc, cap * sizeof *v);
            if (!v) {
                ok = false;
                break;
            }
            memset(v + capacc, 0, (cap - capacc) * sizeof *v);
            acc = v;
            capacc = cap;
        }
        hms_dram_bank_stats *b = &m->banks[bi];
        bank_acc *a = &acc[bi];
        unsigned ch = map_channel(&am, r->addr);
        m->channel_requests[ch]++;
        uint64_t row = map_row(&am, r->addr);
        hms_row_outcome o;
        double s;
        /* Open-page policy: a row stays open until another row is needed. */
        if (!a->row_open) {
            o = HMS_ROW_MISS, s = m->t_miss, b->misses++, m->misses++;
            b->channel = ch;
        } else if (a->open_row == row) {
            o = HMS_ROW_HIT, s = m->t_hit, b->hits++, m->hits++;
        } else {
            o = HMS_ROW_CONFLICT, s = m->t_conflict, b->conflicts++, m->conflicts++;
        }
        if (b->requests > 0) {
            double ia = r->time - a->last_time;
            a->sum_ia += ia;
            a->sum_ia2 += ia * ia;
        }
        a->row_open = true;
        a->open_row = row;
        a->last_time = r->time;
        a->sum_s += s;
        a->sum_s2 += s * s;
        b->requests++;
        m->outcome[ri] = (uint8_t)o;
    }
    free(order);
    if (!ok) {
        free(acc);
        snprintf(err, errlen, "%s: out of memory evaluating %zu DRAM requests", origin, m->nreq);
        return false;
    }

    /* Eq. 7: banks weighted by arrival rate. All banks are observed over the
     * same window, so lambda_i / sum_j lambda_j = n_i / N. */
    m->service = m->queue_delay = m->latency = 0;
    m->saturated_banks = 0;
    m->any_capped = false;
    double drain = 0;
    double bw_gbs = m->arch->dram_bandwidth_meas_gbs > 0 ? m->arch->dram_bandwidth_meas_gbs
                                                         : m->arch->dram_bandwidth_gbs;
    if (m->max_outstanding > 0 && bw_gbs > 0) {
        double bytes = m->request_bytes > 0        ? m->request_bytes
                       : m->arch->sector_bytes > 0 ? (double)m->arch->sector_bytes
                                                   : 32.0;
        drain = m->max_outstanding * bytes / (bw_gbs / m->arch->clock_ghz);
    }
    for (size_t i = 0; i < m->nbanks; i++) {
        hms_dram_bank_stats *b = &m->banks[i];
        double share = (double)b->requests / (double)m->nreq;
        bank_figures(b, &acc[i], m->max_outstanding > 0 ? m->max_outstanding * share : 0, drain);
        m->service += share * b->tau_s;
        m->queue_delay += share * b->queue_delay;
        m->latency += share * b->latency;
        m->saturated_banks += b->saturated;
        m->any_capped |= b->capped;
    }
    free(acc);
    m->row_hit_rate = m->nreq ? (double)m->hits / (double)m->nreq : 0;
    return true;
}
