/* What the passes hand to the report writers: plain data, no IR, no libclang.
 * Mirrors docs/report-format.md field for field, so the JSON writer
 * is a straight transcription and other writers (text, SARIF, --explain)
 * read the same numbers. */
#ifndef HMS_PASSES_FINDINGS_H
#define HMS_PASSES_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { HMS_SEV_NOTE = 0, HMS_SEV_WARNING, HMS_SEV_ERROR } hms_severity;

/* All strings are owned by the report (copied on construction) except the
 * ones documented as static (check names, space/kind/source names). */
typedef struct {
    char *message;
    char *file;
    unsigned line, col;
} hms_note;

typedef struct {
    char *file;
    unsigned line, col, end_line, end_col;
    char *replacement;
} hms_fixit;

typedef struct {
    const char *check; /* "hms-shared-bank-conflict" (static string from the registry) */
    hms_severity severity;
    char *message;
    char *file;
    unsigned line, col, end_line, end_col;
    hms_note *notes;
    size_t nnotes;
    hms_fixit *fixits;
    size_t nfixits;
} hms_finding;

/* Per static access site, over the simulated launch (docs/model.md "Coalescing"). */
typedef struct {
    unsigned line, col;
    char *array;
    const char *space; /* global|shared|constant|texture|local */
    const char *kind;  /* load|store|atomic */
    int element_bytes;
    double requests;            /* scaled to the full launch when sampled */
    double sectors_per_request; /* <0: not applicable */
    double lines_per_request;
    double bank_wavefronts_per_request;
    double distinct_addresses_per_request;
    double latency_cycles;
    bool exact;
} hms_access_metrics;

typedef struct {
    const char *space; /* global|readonly|texture1d|texture2d|constant|shared */
    bool legal;
    char *reason;          /* why illegal, or a short why for legal ones; may be NULL */
    double predicted_time; /* cycles */
    double speedup;        /* vs current placement */
} hms_placement_option;

typedef struct {
    char *array;
    const char *current;
    const char *best;
    hms_placement_option *options;
    size_t noptions;
} hms_placement;

typedef struct {
    double data_reuse, lat_hiding, bw_util, ch_skew, shm_eff, branch_eff, mpe;
    double t_comp, t_mem, t_overlap;
    double
        t_pipe; /* memory-pipe bound per SM (passes x pass cycles); model time = max(eq. 1, it) */
    double mlp; /* memory requests a warp keeps in flight (Huang & Li eq. 18's MLP): an estimate */
    double amat, camat, c_h, c_m, pmr, pamp;
    double dram_row_hit_rate, occupancy;
    const char *bound; /* "memory" | "compute" */
    /* Roofline (runtime/roofline.h): the predicted time is the largest of
     * the model's time and every bound; all cycles, 0 when not evaluated. */
    double predicted_time;
    const char *binding; /* "model" | "dram" | "l2" | "shared" | "fp32" | "issue"; static */
    double bound_model, bound_dram, bound_l2, bound_shared, bound_fp32, bound_issue;
    double dram_gbs, dram_peak_gbs; /* DRAM traffic over the predicted time; the peak */
    double flops;                   /* FP operations counted (a lower bound) */
    /* HSM eqs. 2-3 (B_d, B_p), GB/s, for --corun */
    double hsm_demand_gbs, hsm_supply_gbs;
    /* Huang & Li eq. 11 inputs of the kernel as written (hms_overlap_inputs:
     * e_global, e_const, e_tex, e_shared, e_row_miss, e_row_conflict, warps),
     * for `hms-lint calibrate`; overlap_inputs_ok false when not evaluated */
    double overlap_inputs[7];
    bool overlap_inputs_ok;
} hms_model_figures;

typedef struct {
    uint32_t grid[3], block[3];
    uint32_t shared_bytes;
    const char *source;   /* cli|annotation|host-call|default */
    char *via;            /* host-call through a host function: the call path, else NULL */
    char *others;         /* configurations other call paths give, else NULL */
    bool others_analysed; /* each analysed, this the slowest (analyzer/frontend/launch_alts.h) */
} hms_launch_report;

typedef struct {
    char *name;
    unsigned line;
    hms_launch_report launch;
    bool sampled; /* figures scaled from a sample of blocks */
    hms_access_metrics *accesses;
    size_t naccesses;
    hms_placement *placements;
    size_t nplacements;
    hms_model_figures model;
    hms_finding *diagnostics;
    size_t ndiagnostics;
    double occupancy_blocks_per_sm, occupancy_warps_per_sm; /* for --explain */
    const char *occupancy_limiter; /* static: "warps", "blocks", "registers", "shared" */
    int registers_per_thread;      /* used for occupancy */
    const char *registers_source;  /* static: "assumed", "estimated from the IR", "ptxas" */
} hms_kernel_report;

typedef struct {
    char *path;
    char **errors;
    size_t nerrors; /* file-level problems */
    hms_kernel_report *kernels;
    size_t nkernels;
} hms_file_report;

typedef struct {
    const char *tool_name, *tool_version;
    const char *arch;
    hms_file_report *files;
    size_t nfiles;
} hms_report;

/* Construction helpers (findings.c); all strings are copied and owned. */
hms_finding *hms_kernel_add_finding(hms_kernel_report *k, const char *check, hms_severity sev,
                                    const char *file, unsigned line, unsigned col, const char *fmt,
                                    ...) __attribute__((format(printf, 7, 8)));
void hms_finding_add_note(hms_finding *f, const char *file, unsigned line, unsigned col,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void hms_finding_add_fixit(hms_finding *f, const char *file, unsigned line, unsigned col,
                           unsigned end_line, unsigned end_col, const char *replacement);
void hms_file_add_error(hms_file_report *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Frees what one finding owns (not the struct itself). */
void hms_finding_release(hms_finding *f);
void hms_kernel_report_free(hms_kernel_report *k);
void hms_file_report_free(hms_file_report *f);
void hms_report_free(hms_report *r);

const char *hms_severity_name(hms_severity s);

#endif
