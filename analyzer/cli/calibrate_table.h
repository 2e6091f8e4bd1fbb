/* The measured runs `hms-lint calibrate` fits: a CSV with the columns of
 * docs/probe.md, or Nsight Compute's `--csv --page raw` export (its metric
 * names and units row are translated), with any model columns appended. */
#ifndef HMS_ANALYZER_CALIBRATE_TABLE_H
#define HMS_ANALYZER_CALIBRATE_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/file_error.h"

/* The quantities a run can carry; one column each. */
typedef enum {
    HMS_CAL_RBH = 0,     /* DRAM row-buffer hit rate, 0..1 */
    HMS_CAL_BW_UTIL,     /* DRAM bandwidth used / theoretical peak, 0..1 */
    HMS_CAL_DRAM_BYTES,  /* bytes moved to and from DRAM */
    HMS_CAL_TIME_S,      /* kernel duration, seconds */
    HMS_CAL_TIME_CYCLES, /* kernel duration, SM cycles */
    HMS_CAL_E_GLOBAL,    /* Huang & Li eq. 11 event fractions ... */
    HMS_CAL_E_CONST,
    HMS_CAL_E_TEX,
    HMS_CAL_E_SHARED,
    HMS_CAL_E_ROW_MISS,
    HMS_CAL_E_ROW_CONFLICT,
    HMS_CAL_WARPS,         /* resident warps per SM */
    HMS_CAL_OVERLAP_RATIO, /* measured T_overlap / T_mem */
    HMS_CAL_T_COMP,        /* model T_comp, cycles (with t_mem and time_cycles gives the ratio) */
    HMS_CAL_T_MEM,         /* model T_mem, cycles */
    HMS_CAL_NCOLS
} hms_cal_col;

const char *hms_cal_col_name(hms_cal_col c);

typedef struct {
    double v[HMS_CAL_NCOLS];
    bool has[HMS_CAL_NCOLS];
    char label[96];  /* kernel name, or "line N" */
    char device[96]; /* GPU name, when the table has one (Nsight Compute), else "" */
    unsigned line;
} hms_cal_run;

typedef struct {
    const char *path;
    bool ncu;                /* read as an Nsight Compute raw export */
    bool col[HMS_CAL_NCOLS]; /* the column is present */
    hms_cal_run *run;
    size_t nruns;
} hms_cal_table;

/* Reads and converts the file. False with the file, line and reason in err: an
 * unreadable file, a header with no known column, a non-numeric or
 * non-finite cell, a unit it does not know. */
bool hms_cal_table_read(const char *path, hms_cal_table *t, hms_file_error *err);
void hms_cal_table_free(hms_cal_table *t);

#endif
