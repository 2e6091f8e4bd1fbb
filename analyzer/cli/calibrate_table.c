/* CSV of measured runs -> hms_cal_table (see calibrate_table.h). */
#include "analyzer/cli/calibrate_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analyzer/cli/csv.h"

static const char *const col_names[HMS_CAL_NCOLS] = {
    "rbh",           "bw_util", "dram_bytes", "time_s",     "time_cycles",    "e_global",
    "e_const",       "e_tex",   "e_shared",   "e_row_miss", "e_row_conflict", "warps",
    "overlap_ratio", "t_comp",  "t_mem",
};

const char *hms_cal_col_name(hms_cal_col c)
{
    return (unsigned)c < HMS_CAL_NCOLS ? col_names[c] : "?";
}

/* Header spellings: our own names (with a fixed unit) and the Nsight Compute
 * metrics that measure the same thing (unit from its units row). Two
 * headers mapping to one column add up (DRAM reads + writes). */
typedef struct {
    const char *header;
    int col;      /* hms_cal_col, or LABEL / DEVICE */
    double scale; /* applied when the units row gives no unit */
    bool unit_from_row;
} alias;

enum { IGNORED = -3, DEVICE = -2, LABEL = -1 };

static const alias aliases[] = {
    {"kernel", LABEL, 1, false},
    {"Kernel Name", LABEL, 1, false},
    {"device", DEVICE, 1, false},
    {"device__attribute_display_name", DEVICE, 1, false},
    {"time_ns", HMS_CAL_TIME_S, 1e-9, false},
    {"time_us", HMS_CAL_TIME_S, 1e-6, false},
    {"time_ms", HMS_CAL_TIME_S, 1e-3, false},
    {"gpu__time_duration.sum", HMS_CAL_TIME_S, 1e-9, true},
    {"dram__bytes.sum", HMS_CAL_DRAM_BYTES, 1, true},
    {"dram__bytes_read.sum", HMS_CAL_DRAM_BYTES, 1, true},
    {"dram__bytes_write.sum", HMS_CAL_DRAM_BYTES, 1, true},
    {"sm__cycles_elapsed.avg", HMS_CAL_TIME_CYCLES, 1, true},
    {"sm__warps_active.avg.per_cycle_active", HMS_CAL_WARPS, 1, true},
};

/* Nsight Compute unit names -> factor to seconds / bytes / plain counts. */
static const struct {
    const char *unit;
    double factor;
} units[] = {
    {"", 1},        {"nsecond", 1e-9}, {"usecond", 1e-6},    {"msecond", 1e-3}, {"second", 1},
    {"byte", 1},    {"Kbyte", 1e3},    {"Mbyte", 1e6},       {"Gbyte", 1e9},    {"Tbyte", 1e12},
    {"KB", 1024.0}, {"MB", 1048576.0}, {"GB", 1073741824.0}, {"cycle", 1},      {"warp", 1},
    {"%", 0.01},
};

typedef struct {
    int col; /* -2 = ignored */
    double scale;
} mapping;

static bool parse_number(const char *cell, bool ncu, double *v)
{
    char buf[128];
    size_t n = 0;
    for (const char *p = cell; *p && n + 1 < sizeof buf; p++) {
        if (ncu && *p == ',')
            continue; /* Nsight Compute may group thousands */
        if (*p != ' ')
            buf[n++] = *p;
    }
    buf[n] = '\0';
    if (n == 0)
        return false;
    char *end;
    *v = strtod(buf, &end);
    return *end == '\0' && isfinite(*v);
}

void hms_cal_table_free(hms_cal_table *t)
{
    free(t->run);
    t->run = NULL;
    t->nruns = 0;
}

bool hms_cal_table_read(const char *path, hms_cal_table *t, hms_file_error *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    hms_csv csv;
    if (!hms_csv_read(path, &csv, err))
        return false;
    bool ok = true;
    mapping *map = NULL;
    if (csv.nrows == 0) {
        hms_file_error_set(err, path, 0, 0,
                           "empty file: expected a header row and one row per run");
        ok = false;
        goto out;
    }
    const hms_csv_row *h = &csv.row[0];
    map = calloc(h->ncells ? h->ncells : 1, sizeof *map);
    if (!map) {
        hms_file_error_set(err, path, 0, 0, "out of memory");
        ok = false;
        goto out;
    }
    size_t first = 1;
    for (size_t c = 0; c < h->ncells; c++)
        if (strstr(h->cell[c], "__") || strcmp(h->cell[c], "Kernel Name") == 0)
            t->ncu = true;
    /* Nsight Compute's second row holds units: its ID cell is empty. */
    const hms_csv_row *unit_row = NULL;
    if (t->ncu && csv.nrows > 1 && csv.row[1].ncells > 0 && csv.row[1].cell[0][0] == '\0') {
        unit_row = &csv.row[1];
        first = 2;
    }
    bool any = false;
    for (size_t c = 0; c < h->ncells; c++) {
        const char *name = h->cell[c];
        map[c] = (mapping){IGNORED, 1};
        for (int k = 0; k < HMS_CAL_NCOLS; k++)
            if (strcmp(name, col_names[k]) == 0)
                map[c] = (mapping){k, 1};
        for (size_t a = 0; a < sizeof aliases / sizeof *aliases; a++) {
            if (strcmp(name, aliases[a].header) != 0)
                continue;
            map[c] = (mapping){aliases[a].col, aliases[a].scale};
            const char *u = unit_row && c < unit_row->ncells ? unit_row->cell[c] : NULL;
            if (aliases[a].unit_from_row && u && u[0]) {
                size_t i = 0, nu = sizeof units / sizeof *units;
                while (i < nu && strcmp(units[i].unit, u) != 0)
                    i++;
                if (i == nu) {
                    hms_file_error_set(err, path, unit_row->line, 0,
                                       "column '%s': unknown unit '%s'", name, u);
                    ok = false;
                    goto out;
                }
                map[c].scale = units[i].factor;
            }
        }
        if (map[c].col >= 0) {
            t->col[map[c].col] = true;
            any = true;
        }
    }
    if (!any) {
        hms_file_error_set(err, path, h->line, 0,
                           "no known column in the header (expected e.g. rbh, bw_util, dram_bytes, "
                           "time_s, e_global, ..., warps, overlap_ratio; see docs/probe.md)");
        ok = false;
        goto out;
    }
    t->run = calloc(csv.nrows, sizeof *t->run);
    if (!t->run) {
        hms_file_error_set(err, path, 0, 0, "out of memory");
        ok = false;
        goto out;
    }
    for (size_t r = first; r < csv.nrows && ok; r++) {
        const hms_csv_row *row = &csv.row[r];
        hms_cal_run *run = &t->run[t->nruns++];
        run->line = row->line;
        snprintf(run->label, sizeof run->label, "line %u", row->line);
        for (size_t c = 0; c < h->ncells && ok; c++) {
            const char *cell = c < row->ncells ? row->cell[c] : "";
            if (map[c].col == LABEL && cell[0])
                snprintf(run->label, sizeof run->label, "%s (line %u)", cell, row->line);
            if (map[c].col == DEVICE)
                snprintf(run->device, sizeof run->device, "%s", cell);
            if (map[c].col < 0)
                continue;
            double v;
            if (!parse_number(cell, t->ncu, &v)) {
                hms_file_error_set(err, path, row->line, 0, "column '%s': '%s' is not a number",
                                   h->cell[c], cell);
                ok = false;
                break;
            }
            int k = map[c].col;
            run->v[k] = (run->has[k] ? run->v[k] : 0) + v * map[c].scale;
            run->has[k] = true;
        }
    }
out:
    free(map);
    hms_csv_free(&csv);
    if (!ok)
        hms_cal_table_free(t);
    return ok;
}
