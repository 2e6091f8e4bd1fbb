// hms-probe: measures the GPU it runs on and writes an architecture file
// (the base description with every measured value replaced and marked, plus
// a probe: section naming the GPU). Usage: docs/probe.md.
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "runtime/probe/probe.h"

extern "C" {
#include "runtime/probe_meta.h"
}

struct edits {
    std::vector<hms_yaml_edit> v;
    std::vector<std::string> paths;
    std::string why;    // "measured by hms-probe on <date>"
    std::string report; // base -> measured, for the summary
};

static void add(edits &e, const char *path, const char *how, const char *fmt, ...)
{
    hms_yaml_edit x;
    memset(&x, 0, sizeof x);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x.value, sizeof x.value, fmt, ap);
    va_end(ap);
    snprintf(x.comment, sizeof x.comment, "%s: %s", e.why.c_str(), how);
    e.paths.push_back(path);
    e.v.push_back(x);
    e.report += std::string("  ") + path + " = " + x.value + "\n";
}

static void usage(FILE *f)
{
    fputs("USAGE: hms-probe --output=<file.yaml> [--base=<name|sm_XX|file>] [--device=<n>]\n"
          "                 "
          "[--skip=l1,texture,readonly,constant,l2,tlb,dram,global,bandwidth,shared]\n"
          "Measures this GPU (fine-grained P-chase, Huang & Li Algorithm 1, bandwidths) and\n"
          "writes an architecture file for hms-lint --arch=<file.yaml>. The L2 and TLB walks\n"
          "take minutes on a large L2; --skip leaves those values as the base file has them.\n",
          f);
}

static bool skipped(const char *skip, const char *what)
{
    if (!skip)
        return false;
    size_t n = strlen(what);
    for (const char *p = skip; (p = strstr(p, what)) != nullptr; p += n)
        if ((p == skip || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

static const char *repl_name(hms_replacement r)
{
    return r == HMS_REPL_LRU ? "lru" : "random";
}

// One cache level by P-chase: thresholds from a walk that surely hits and
// one that surely misses, then runtime/infer.h.
static void measure_cache(edits &e, probe_space s, const char *key, uint64_t elem,
                          uint64_t max_bytes, uint64_t miss_stride, bool latency_only = false)
{
    probe_pchase p;
    if (!probe_pchase_init(&p, s, max_bytes)) {
        printf("  %s: could not set up the walk; left as the base file has it\n", key);
        return;
    }
    double hit = probe_pchase_median(&p, elem * 4, elem);
    double miss = probe_pchase_median(&p, max_bytes, miss_stride);
    if (!(miss > hit * 1.1 + 4)) {
        printf("  %s: no miss latency above the hit latency %.0f (got %.0f); left as it was\n", key,
               hit, miss);
        probe_pchase_free(&p);
        return;
    }
    p.threshold = 0.5 * (hit + miss);
    hms_infer_cache_opts o = {elem, max_bytes, p.threshold, 8, 2, 0};
    hms_infer_cache_result r;
    char err[300], path[96];
    if (latency_only || !hms_infer_cache(probe_pchase_run, &p, &o, &r, err, sizeof err)) {
        if (!latency_only)
            printf("  %s: geometry not inferred (%s); hit latency only\n", key, err);
        snprintf(path, sizeof path, "caches.%s.latency", key);
        add(e, path, "P-chase hit median", "%.0f", hit);
    } else {
        const char *how = "fine-grained P-chase (Mei & Chu)";
        snprintf(path, sizeof path, "caches.%s.size", key);
        add(e, path, how, "%llu", (unsigned long long)r.size_bytes);
        snprintf(path, sizeof path, "caches.%s.line", key);
        add(e, path, how, "%u", r.line_bytes);
        snprintf(path, sizeof path, "caches.%s.ways", key);
        add(e, path, how, "%u", r.ways);
        snprintf(path, sizeof path, "caches.%s.replacement", key);
        add(e, path, how, "%s", repl_name(r.replacement));
        if (r.set_bit_low) {
            snprintf(path, sizeof path, "caches.%s.set_bit_low", key);
            add(e, path, how, "%u", r.set_bit_low);
        }
        snprintf(path, sizeof path, "caches.%s.latency", key);
        add(e, path, how, "%.0f", r.hit_latency);
        printf("  %s: %llu B, %u-byte lines, %u ways, %u sets, %s, hit %.0f / miss %.0f cycles "
               "(%u walks)\n",
               key, (unsigned long long)r.size_bytes, r.line_bytes, r.ways, r.sets,
               repl_name(r.replacement), r.hit_latency, r.miss_latency, p.launches);
        if (s == PROBE_L2)
            add(e, "global.dram_latency", "L2 P-chase miss median", "%.0f", r.miss_latency);
    }
    probe_pchase_free(&p);
}

// TLB levels: latency plateaus of walks with one access per 2 MB, then a
// P-chase per level with the threshold between its plateau and the next.
static void measure_tlb(edits &e, size_t free_bytes)
{
    const uint64_t MB = 1ull << 20, page_guess = 2 * MB;
    uint64_t max_bytes = 1ull << 32;
    while (max_bytes > free_bytes / 2)
        max_bytes /= 2;
    probe_pchase p;
    if (!probe_pchase_init(&p, PROBE_L2, max_bytes)) {
        printf("  tlb: could not allocate %llu bytes; left as it was\n",
               (unsigned long long)max_bytes);
        return;
    }
    std::vector<double> plateau;
    for (uint64_t b = 4 * MB; b <= max_bytes; b *= 2) {
        double m = probe_pchase_median(&p, b, page_guess);
        if (plateau.empty() || m > plateau.back() * 1.03 + 5)
            plateau.push_back(m);
    }
    if (plateau.size() < 3) {
        printf("  tlb: %zu latency level(s) up to %llu MB, need 3; left as it was\n",
               plateau.size(), (unsigned long long)(max_bytes / MB));
        probe_pchase_free(&p);
        return;
    }
    const char *lv[2] = {"tlb.l1", "tlb.l2"};
    const char *how = "P-chase at page strides (Mei & Chu Sec. 4.4)";
    for (int l = 0; l < 2; l++) {
        p.threshold = 0.5 * (plateau[l] + plateau[l + 1]);
        hms_infer_cache_opts o = {256 * 1024, max_bytes, p.threshold, 8, 2, 0};
        hms_infer_cache_result r;
        char err[300], path[64];
        if (!hms_infer_cache(probe_pchase_run, &p, &o, &r, err, sizeof err)) {
            printf("  %s: not inferred (%s); left as it was\n", lv[l], err);
            continue;
        }
        snprintf(path, sizeof path, "%s.entries", lv[l]);
        add(e, path, how, "%llu", (unsigned long long)(r.size_bytes / r.line_bytes));
        snprintf(path, sizeof path, "%s.page", lv[l]);
        add(e, path, how, "%u", r.line_bytes);
        snprintf(path, sizeof path, "%s.ways", lv[l]);
        add(e, path, how, "%u", r.ways);
        snprintf(path, sizeof path, "%s.replacement", lv[l]);
        add(e, path, how, "%s", repl_name(r.replacement));
        printf("  %s: %llu entries of %u B, %u ways, %s\n", lv[l],
               (unsigned long long)(r.size_bytes / r.line_bytes), r.line_bytes, r.ways,
               repl_name(r.replacement));
    }
    add(e, "tlb.l2.latency", how, "%.0f", plateau[1] - plateau[0]);
    add(e, "global.tlb_miss_latency", how, "%.0f", plateau[2] - plateau[0]);
    probe_pchase_free(&p);
}

static std::string bit_list(uint64_t mask)
{
    std::string s = "[";
    for (int b = 0; b < 64; b++) {
        if (!((mask >> b) & 1))
            continue;
        int e = b;
        while (e + 1 < 64 && ((mask >> (e + 1)) & 1))
            e++;
        char buf[32];
        snprintf(buf, sizeof buf, "%s%d-%d", s.size() > 1 ? ", " : "", b, e);
        s += buf;
        b = e;
    }
    return s + "]";
}

static void measure_dram(edits &e, const hms_arch *base, size_t free_bytes, size_t l2_bytes,
                         double clock_ghz)
{
    unsigned high = 32;
    while (high > 12 && (2ull << high) > free_bytes / 2)
        high--;
    probe_dram d;
    if (!probe_dram_init(&d, 2ull << high, l2_bytes)) {
        printf("  dram: could not allocate the buffers; left as it was\n");
        probe_dram_free(&d);
        return;
    }
    uint64_t bases[8];
    srand(12345);
    for (int i = 0; i < 8; i++)
        bases[i] = (((uint64_t)rand() << 31) ^ (uint64_t)rand()) % (2ull << high) & ~255ull;
    // Bits below 8 stay within one L2 line or its sector group: the second
    // load would hit the L2, so they cannot be told apart through it.
    const unsigned low = 8;
    hms_infer_dram_opts o = {low, high, bases, 8};
    hms_infer_dram_result r;
    char err[300];
    bool ok = hms_infer_dram(probe_dram_pair, &d, &o, &r, err, sizeof err);
    probe_dram_free(&d);
    if (!ok) {
        printf("  dram: mapping not inferred (%s); left as it was\n", err);
        return;
    }
    // Only bits this run tested replace the base's; the others stay as they were.
    uint64_t untested = ~((2ull << high) - 1) | ((1ull << low) - 1);
    uint64_t bank = r.bank_bits | (base->dram_bank_bits_mask & untested);
    uint64_t row = r.row_bits | (base->dram_row_bits_mask & untested);
    const char *how = "Huang & Li Algorithm 1 (pairs of uncached loads one bit apart)";
    add(e, "dram.bank_bits", how, "%s", bit_list(bank).c_str());
    add(e, "dram.row_bits", how, "%s", bit_list(row).c_str());
    add(e, "dram.row_hit_ns", how, "%.1f", r.hit / clock_ghz);
    add(e, "dram.row_miss_ns", how, "%.1f", r.miss / clock_ghz);
    add(e, "dram.row_conflict_ns", how, "%.1f", r.conflict / clock_ghz);
    printf("  dram: bank bits %s, row bits %s, column bits %s; hit/miss/conflict %.0f/%.0f/%.0f "
           "cycles\n",
           bit_list(bank).c_str(), bit_list(row).c_str(), bit_list(r.column_bits).c_str(), r.hit,
           r.miss, r.conflict);
}

int main(int argc, char **argv)
{
    const char *output = nullptr, *base_name = nullptr, *skip = nullptr;
    int device = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--output=", 9))
            output = argv[i] + 9;
        else if (!strncmp(argv[i], "--base=", 7))
            base_name = argv[i] + 7;
        else if (!strncmp(argv[i], "--skip=", 7))
            skip = argv[i] + 7;
        else if (!strncmp(argv[i], "--device=", 9))
            device = atoi(argv[i] + 9);
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "hms-probe: error: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!output) {
        fprintf(stderr, "hms-probe: error: --output=<file.yaml> is required\n");
        usage(stderr);
        return 2;
    }
    CUDA_OK(cudaSetDevice(device));
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, device));
    int clock_khz = 0, sms = 0, l2_bytes = 0;
    CUDA_OK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_OK(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device));
    size_t free_b = 0, total_b = 0;
    CUDA_OK(cudaMemGetInfo(&free_b, &total_b));
    double clock_ghz = clock_khz / 1e6;

    char sm[16], err[700];
    snprintf(sm, sizeof sm, "sm_%d%d", prop.major, prop.minor);
    const hms_arch *base = hms_arch_get(base_name ? base_name : sm, err, sizeof err);
    if (!base) {
        fprintf(stderr, "hms-probe: error: %s (pass --base=<closest built-in or file>)\n", err);
        return 2;
    }
    if (!hms_probe_same_gpu(base, prop.name, prop.major, prop.minor, err, sizeof err)) {
        fprintf(stderr, "hms-probe: error: %s\n", err);
        return 2;
    }
    char date[16];
    time_t now = time(nullptr);
    struct tm tmv;
    strftime(date, sizeof date, "%Y-%m-%d", gmtime_r(&now, &tmv));
    edits e;
    e.why = std::string("measured by hms-probe on ") + date;
    printf("hms-probe: %s (%s, %d SMs, %.2f GHz, L2 %d B), base %s\n", prop.name, sm, sms,
           clock_ghz, l2_bytes, base->name);

    add(e, "name", "this GPU", "%.20s-measured", base->name);
    add(e, "multiprocessor.count", "cudaDevAttrMultiProcessorCount", "%d", sms);
    add(e, "multiprocessor.clock_ghz", "cudaDevAttrClockRate", "%.3f", clock_ghz);
    // the L1 share depends on the shared-memory carve-out: up to the whole 256 KB on recent GPUs
    uint64_t l1_max =
        8ull * base->l1.size_bytes > (2u << 20) ? 8ull * base->l1.size_bytes : 2u << 20;
    if (!skipped(skip, "l1") && base->l1.size_bytes)
        measure_cache(e, PROBE_L1, "l1", 4, l1_max, 128);
    if (!skipped(skip, "texture") && base->tex_l1.size_bytes)
        measure_cache(e, PROBE_TEXTURE, "texture", 4, l1_max, 128);
    if (!skipped(skip, "readonly") && base->readonly.size_bytes)
        measure_cache(e, PROBE_READONLY, "readonly", 4, l1_max, 128);
    if (!skipped(skip, "constant"))
        measure_cache(e, PROBE_CONSTANT, "constant", 4, 64 * 1024, 256);
    if (!skipped(skip, "l2") && base->l2.size_bytes)
        measure_cache(e, PROBE_L2, "l2", 32, 4ull * (uint64_t)l2_bytes, 4096);
    if (!skipped(skip, "tlb"))
        measure_tlb(e, free_b);
    if (!skipped(skip, "dram"))
        measure_dram(e, base, free_b, (size_t)l2_bytes, clock_ghz);

    std::string extra;
    if (!skipped(skip, "shared")) {
        static const int ways[6] = {1, 2, 4, 8, 16, 32};
        std::string lat = "[";
        for (int i = 0; i < 6; i++) {
            char b[16];
            snprintf(b, sizeof b, "%s%.0f", i ? ", " : "", probe_shared_latency(ways[i]));
            lat += b;
        }
        add(e, "shared.latency", "dependent chain, one warp, 1..32-way conflicts", "%s]",
            lat.c_str());
    }
    if (!skipped(skip, "global")) {
        char b[256];
        snprintf(b, sizeof b,
                 "  # global latency by pattern (L2 misses, cycles): lanes 4 B apart %.0f, "
                 "32 B apart %.0f, 128 B apart %.0f\n",
                 probe_global_pattern_latency(4), probe_global_pattern_latency(32),
                 probe_global_pattern_latency(128));
        extra += b;
    }
    if (!skipped(skip, "bandwidth")) {
        size_t bytes = free_b / 4 > (1ull << 31) ? (1ull << 31) : free_b / 4;
        double gbs = probe_dram_read_gbs(bytes);
        if (gbs <= base->dram_bandwidth_gbs)
            add(e, "dram.measured_bandwidth_gbs", "best of 5 streaming reads", "%.1f", gbs);
        else
            printf("  dram: measured %.0f GB/s is above the base file's theoretical %.0f GB/s: "
                   "not written (check the base file's bandwidth_gbs)\n",
                   gbs, base->dram_bandwidth_gbs);
        add(e, "caches.l2.bytes_per_clock", "repeated reads of a quarter of the L2", "%.0f",
            probe_l2_bytes_per_clock((size_t)l2_bytes, clock_ghz));
        char b[256];
        snprintf(b, sizeof b,
                 "  # shared bandwidth %.1f B/clock/SM (model: %d banks x %d B); issue rate %.2f "
                 "warp instructions/clock/SM\n",
                 probe_shared_bytes_per_clock_sm(sms, clock_ghz), base->shared_banks,
                 base->shared_bank_bytes, probe_issue_rate_sm(sms, clock_ghz));
        extra += b;
    }

    for (size_t i = 0; i < e.v.size(); i++)
        e.v[i].path = e.paths[i].c_str();
    std::string header = std::string("# Written by hms-probe (format " HMS_PROBE_VERSION ") on ") +
                         date + " for " + prop.name + "; base: " + base->name + " (" +
                         base->source_path +
                         ").\n# Values marked 'measured' were measured on "
                         "this GPU; the others are the base file's.\n";
    std::string trailer = std::string("probe:\n  format: " HMS_PROBE_VERSION "\n  device: \"") +
                          prop.name + "\"\n  date: \"" + date + "\"\n" + extra;
    char *base_text = hms_arch_yaml_text(base, err, sizeof err);
    char *text = base_text ? hms_arch_patch(base_text, output, header.c_str(), trailer.c_str(),
                                            e.v.data(), e.v.size(), err, sizeof err)
                           : nullptr;
    free(base_text);
    if (!text) {
        fprintf(stderr, "hms-probe: error: %s\nmeasured values:\n%s", err, e.report.c_str());
        return 2;
    }
    FILE *f = fopen(output, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "hms-probe: error: %s: cannot write\n", output);
        free(text);
        return 2;
    }
    free(text);
    printf("measured (the base file's values are in %s):\n%s", base->source_path, e.report.c_str());
    printf("wrote %s (use it with hms-lint --arch=%s)\n", output, output);
    return 0;
}
