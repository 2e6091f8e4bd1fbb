/* getopt_long front of the tool: clang-tidy's habits (-p, --checks, "--"). */
#include "analyzer/cli/options.h"

#include <getopt.h>
#include <stdarg.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/report/diag_sink.h"
#include "passes/analysis_budget.h"
#include "runtime/arch.h"
#include "runtime/out_of_memory.h"

void hms_strvec_push(hms_strvec *v, const char *s)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 8;
        v->v = hms_xrealloc(v->v, cap * sizeof *v->v);
        v->cap = cap;
    }
    v->v[v->n++] = s;
}

void hms_strvec_free(hms_strvec *v)
{
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

void hms_options_free(hms_options *o)
{
    hms_strvec_free(&o->files);
    hms_strvec_free(&o->compiler_args);
    hms_strvec_free(&o->launches);
    hms_strvec_free(&o->params);
}

void hms_print_usage(FILE *out)
{
    fputs("USAGE: hms-lint [options] <file.cu>... [-- <compiler flags>]\n"
          "       hms-lint --corun [--qos=<kernel>:<np>] <a.cu>:<kernel> <b.cu>:<kernel>\n"
          "       hms-lint calibrate [--arch=<base>] [--output=<file.yaml>] <runs.csv>\n"
          "\n"
          "Lints CUDA kernels for memory performance without a GPU: models coalescing,\n"
          "shared-memory banks, constant/texture/L1/L2 caches and DRAM for the target\n"
          "architecture and reports what placement or access pattern costs time.\n"
          "\n"
          "OPTIONS:\n"
          "  -p <build-dir>                 read compile flags from "
          "<build-dir>/compile_commands.json\n"
          "  --arch=<name|sm_XX|file>       target GPU (default " HMS_ARCH_DEFAULT
          "; see --list-arches)\n"
          "  --checks=<globs>               enable/disable checks, e.g. '-*,hms-shared-*'\n"
          "  --launch=<kernel>:grid=X,Y,Z:block=X,Y,Z[:shared=N]\n"
          "                                 launch configuration override (repeatable)\n"
          "  --param=<kernel>.<param>=<value>\n"
          "                                 value of a scalar kernel parameter (repeatable)\n"
          "  -D <NAME>=<VALUE>              define a macro (also passed to the parser)\n"
          "  -I <dir>                       add an include directory\n"
          "  --format=text|json|sarif|html  output format (default text)\n"
          "  --output=<file>                write the report to <file>\n"
          "  --sort=cost|source             kernels and findings by the estimated gain of their\n"
          "                                 fixes, worst first (default source order)\n"
          "  --source-root=<dir>            report paths relative to <dir> (default the git\n"
          "                                 top level, else the current directory)\n"
          "  --sarif-notes                  also emit note-level findings as SARIF results\n"
          "  --explain                      per-kernel model report and a ranking of the kernels\n"
          "  --fail-on=error|warning|note|never\n"
          "                                 exit 1 when a finding has at least this severity\n"
          "                                 (default warning)\n"
          "  --placement-threshold=<x>      report hms-placement / hms-shared-reuse when another\n"
          "                                 space / direct reads are predicted at least x times\n"
          "                                 faster (default 1.10)\n"
          "  --analysis-budget=<x>          work per kernel: x times the default sample of blocks,\n"
          "                                 traced accesses and re-simulated cache lines (0.01 to\n"
          "                                 16, default 1); more is slower with a smaller\n"
          "                                 sampling error\n"
          "  --ptxas                        registers per thread from nvcc's ptxas (nvcc\n"
          "                                 installed) instead of the IR's estimate\n"
          "  --baseline=<file>              ignore findings in this baseline (--write-baseline)\n"
          "                                 or earlier JSON report\n"
          "  --write-baseline=<file>        record the current findings as the baseline (and\n"
          "                                 exit 0: they are accepted)\n"
          "  --fix                          apply mechanical fixes in place\n"
          "  --export-fixes=<file>          write fixes as YAML instead\n"
          "  -j <n>                         analyse n files in parallel\n"
          "  --timeout=<seconds>            give up on a file after this long (default 300,\n"
          "                                 0 = no limit)\n"
          "  --color=auto|always|never      colour diagnostics (default auto)\n"
          "  --list-kernels                 list kernels, shared/constant/texture variables and\n"
          "                                 launch sites, then exit\n"
          "  --dump-ir                      print the kernel IR, then exit\n"
          "  --list-checks                  list the checks, then exit\n"
          "  --list-arches                  list the built-in architectures, then exit\n"
          "  --config-file=<file>           use this config instead of the nearest .hms-lint\n"
          "  --dump-config                  print the configuration in effect, then exit\n"
          "  --warnings-as-errors=<globs>   findings of these checks are errors\n"
          "  --header-filter=<regex>        report findings in headers matching <regex> only\n"
          "  --extra-arg=<flag>             compiler flag to append (repeatable)\n"
          "  --extra-arg-before=<flag>      compiler flag to prepend (repeatable)\n"
          "  --quiet                        no summary lines on stderr\n"
          "  --assume-filename=<file>       take -p's compile flags of <file> (for a copy of it)\n"
          "  --lsp                          run a Language Server Protocol server on stdin/stdout\n"
          "  --corun                        co-run advice for two kernels (HSM): SM split for\n"
          "                                 fairness, or for a QoS target with --qos\n"
          "  --qos=<kernel>:<np>            normalised progress <kernel> must keep (0..1)\n"
          "  calibrate <runs.csv>           fit HSM / T_overlap coefficients to measured runs\n"
          "                                 (docs/probe.md); --output writes the architecture\n"
          "  --version                      print the version, then exit\n"
          "  -h, --help                     print this help, then exit\n"
          "\n"
          "Exit status: 0 clean, 1 findings at or above --fail-on (after NOLINT and\n"
          "--baseline), 2 usage or input errors (nothing is changed then).\n",
          out);
}

enum {
    OPT_ARCH = 256,
    OPT_CHECKS,
    OPT_CORUN, /* --corun, --qos: co-run advice (analyzer/cli/corun.c) */
    OPT_QOS,
    OPT_LAUNCH,
    OPT_PARAM,
    OPT_FORMAT,
    OPT_OUTPUT,
    OPT_EXPLAIN,
    OPT_FAIL_ON,
    OPT_BASELINE,
    OPT_FIX,
    OPT_EXPORT_FIXES,
    OPT_COLOR,
    OPT_LIST_KERNELS,
    OPT_DUMP_IR,
    OPT_LIST_CHECKS,
    OPT_LIST_ARCHES,
    OPT_VERSION,
    OPT_PLACEMENT_THRESHOLD,
    OPT_SORT,
    OPT_SOURCE_ROOT,
    OPT_SARIF_NOTES,
    OPT_WRITE_BASELINE,
    OPT_LSP,
    OPT_CONFIG_FILE,
    OPT_DUMP_CONFIG,
    OPT_QUIET,
    OPT_EXTRA_ARG,
    OPT_EXTRA_ARG_BEFORE,
    OPT_WARNINGS_AS_ERRORS,
    OPT_HEADER_FILTER,
    OPT_ASSUME_FILENAME,
    OPT_PTXAS,
    OPT_TIMEOUT,
    OPT_ANALYSIS_BUDGET,
};

static const struct option long_opts[] = {
    {"arch", required_argument, 0, OPT_ARCH},
    {"checks", required_argument, 0, OPT_CHECKS},
    {"corun", no_argument, 0, OPT_CORUN},
    {"qos", required_argument, 0, OPT_QOS},
    {"launch", required_argument, 0, OPT_LAUNCH},
    {"param", required_argument, 0, OPT_PARAM},
    {"format", required_argument, 0, OPT_FORMAT},
    {"output", required_argument, 0, OPT_OUTPUT},
    {"explain", no_argument, 0, OPT_EXPLAIN},
    {"fail-on", required_argument, 0, OPT_FAIL_ON},
    {"placement-threshold", required_argument, 0, OPT_PLACEMENT_THRESHOLD},
    {"baseline", required_argument, 0, OPT_BASELINE},
    {"fix", no_argument, 0, OPT_FIX},
    {"export-fixes", required_argument, 0, OPT_EXPORT_FIXES},
    {"color", required_argument, 0, OPT_COLOR},
    {"list-kernels", no_argument, 0, OPT_LIST_KERNELS},
    {"dump-ir", no_argument, 0, OPT_DUMP_IR},
    {"list-checks", no_argument, 0, OPT_LIST_CHECKS},
    {"list-arches", no_argument, 0, OPT_LIST_ARCHES},
    {"version", no_argument, 0, OPT_VERSION},
    {"sort", required_argument, 0, OPT_SORT},
    {"source-root", required_argument, 0, OPT_SOURCE_ROOT},
    {"sarif-notes", no_argument, 0, OPT_SARIF_NOTES},
    {"write-baseline", required_argument, 0, OPT_WRITE_BASELINE},
    {"lsp", no_argument, 0, OPT_LSP},
    {"config-file", required_argument, 0, OPT_CONFIG_FILE},
    {"dump-config", no_argument, 0, OPT_DUMP_CONFIG},
    {"quiet", no_argument, 0, OPT_QUIET},
    {"extra-arg", required_argument, 0, OPT_EXTRA_ARG},
    {"extra-arg-before", required_argument, 0, OPT_EXTRA_ARG_BEFORE},
    {"warnings-as-errors", required_argument, 0, OPT_WARNINGS_AS_ERRORS},
    {"header-filter", required_argument, 0, OPT_HEADER_FILTER},
    {"assume-filename", required_argument, 0, OPT_ASSUME_FILENAME},
    {"ptxas", no_argument, 0, OPT_PTXAS},
    {"timeout", required_argument, 0, OPT_TIMEOUT},
    {"analysis-budget", required_argument, 0, OPT_ANALYSIS_BUDGET},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0},
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = hms_diag_vusage_error(stderr, fmt, ap);
    va_end(ap);
    return rc;
}

static int free_extra(hms_strvec *a, hms_strvec *b, int rc)
{
    hms_strvec_free(a);
    hms_strvec_free(b);
    return rc;
}

static int pick(const char *arg, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(arg, names[i]) == 0)
            return i;
    return -1;
}

int hms_options_parse(int argc, char **argv, hms_options *o)
{
    memset(o, 0, sizeof *o);
    o->arch = HMS_ARCH_DEFAULT;
    o->fail_on = HMS_FAIL_WARNING;
    o->placement_threshold = 1.10;
    o->analysis_budget = 1;
    o->jobs = 1;
    o->timeout = 300;
    o->color = -1;

    /* Everything after a bare "--" goes to the parser untouched. */
    int end = argc;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            end = i;
            for (int j = i + 1; j < argc; j++)
                hms_strvec_push(&o->compiler_args, argv[j]);
            break;
        }
    }

    static const char *const formats[] = {"text", "json", "sarif", "html"};
    static const char *const sorts[] = {"source", "cost"};
    static const char *const fail_ons[] = {"error", "warning", "note", "never"};
    static const char *const colors[] = {"never", "always", "auto"};
    /* "hms-lint calibrate ...": a subcommand word before any option */
    bool calibrate = end > 1 && strcmp(argv[1], "calibrate") == 0;
    optind = 1;
    opterr = 0;
    hms_strvec extra_before = {0}, extra_after = {0};
    int c;
    while ((c = getopt_long(end, argv, "p:D:I:j:h", long_opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            o->build_dir = optarg;
            break;
        case 'D':
            /* -D feeds both the preprocessor and, as NAME=VALUE, scalar values. */
            hms_strvec_push(&o->params, optarg);
            hms_strvec_push(&o->compiler_args, "-D");
            hms_strvec_push(&o->compiler_args, optarg);
            break;
        case 'I':
            hms_strvec_push(&o->compiler_args, "-I");
            hms_strvec_push(&o->compiler_args, optarg);
            break;
        case 'j': {
            char *endp;
            long j = strtol(optarg, &endp, 10);
            if (*endp || j < 1 || j > 256)
                return free_extra(
                    &extra_before, &extra_after,
                    usage_error("-j expects a number from 1 to 256, got '%s'", optarg));
            o->jobs = (int)j;
            break;
        }
        case 'h':
            o->command = HMS_CMD_HELP;
            break;
        case OPT_ARCH:
            o->arch = optarg;
            o->arch_given = true;
            break;
        case OPT_PLACEMENT_THRESHOLD: {
            char *end = NULL;
            double x = strtod(optarg, &end);
            if (!end || end == optarg || *end || !(x > 0) || x > 1e6)
                return free_extra(
                    &extra_before, &extra_after,
                    usage_error("bad --placement-threshold '%s' (a speedup > 0, e.g. 1.10)",
                                optarg));
            o->placement_threshold = x;
            break;
        }
        case OPT_ANALYSIS_BUDGET: {
            /* range: passes/analysis_budget.h HMS_BUDGET_SCALE_MIN/MAX */
            char *end = NULL;
            double x = strtod(optarg, &end);
            if (!end || end == optarg || *end || !(x >= HMS_BUDGET_SCALE_MIN) ||
                x > HMS_BUDGET_SCALE_MAX)
                return free_extra(&extra_before, &extra_after,
                                  usage_error("bad --analysis-budget '%s' (a factor from 0.01 to "
                                              "16, e.g. 4 for four times the default work)",
                                              optarg));
            o->analysis_budget = x;
            break;
        }
        case OPT_TIMEOUT: {
            char *endp;
            long t = strtol(optarg, &endp, 10);
            if (endp == optarg || *endp || t < 0 || t > 86400)
                return usage_error("--timeout expects seconds from 0 to 86400, got '%s'", optarg);
            o->timeout = (unsigned)t;
            break;
        }
        case OPT_CHECKS:
            o->checks = optarg;
            break;
        case OPT_PTXAS:
            o->ptxas = true;
            break;
        case OPT_LAUNCH:
            hms_strvec_push(&o->launches, optarg);
            break;
        case OPT_PARAM:
            hms_strvec_push(&o->params, optarg);
            break;
        case OPT_FORMAT: {
            int f = pick(optarg, formats, 4);
            if (f < 0)
                return free_extra(
                    &extra_before, &extra_after,
                    usage_error("unknown --format '%s' (text, json, sarif or html)", optarg));
            o->format = (hms_format)f;
            break;
        }
        case OPT_OUTPUT:
            o->output = optarg;
            break;
        case OPT_EXPLAIN:
            o->explain = true;
            break;
        case OPT_FAIL_ON: {
            int f = pick(optarg, fail_ons, 4);
            if (f < 0)
                return free_extra(
                    &extra_before, &extra_after,
                    usage_error("unknown --fail-on '%s' (error, warning, note or never)", optarg));
            o->fail_on = (hms_fail_on)f;
            o->fail_on_given = true;
            break;
        }
        case OPT_BASELINE:
            o->baseline = optarg;
            break;
        case OPT_FIX:
            o->fix = true;
            break;
        case OPT_EXPORT_FIXES:
            o->export_fixes = optarg;
            break;
        case OPT_COLOR: {
            int f = pick(optarg, colors, 3);
            if (f < 0)
                return free_extra(
                    &extra_before, &extra_after,
                    usage_error("unknown --color '%s' (auto, always or never)", optarg));
            o->color = f == 2 ? -1 : f;
            break;
        }
        case OPT_SORT: {
            int f = pick(optarg, sorts, 2);
            if (f < 0)
                return free_extra(&extra_before, &extra_after,
                                  usage_error("unknown --sort '%s' (source or cost)", optarg));
            o->sort_cost = f == 1;
            break;
        }
        case OPT_SOURCE_ROOT:
            o->source_root = optarg;
            break;
        case OPT_SARIF_NOTES:
            o->sarif_notes = true;
            break;
        case OPT_WRITE_BASELINE:
            o->write_baseline = optarg;
            break;
        case OPT_LIST_KERNELS:
            o->command = HMS_CMD_LIST_KERNELS;
            break;
        case OPT_DUMP_IR:
            o->command = HMS_CMD_DUMP_IR;
            break;
        case OPT_LIST_CHECKS:
            o->command = HMS_CMD_LIST_CHECKS;
            break;
        case OPT_LIST_ARCHES:
            o->command = HMS_CMD_LIST_ARCHES;
            break;
        case OPT_VERSION:
            o->command = HMS_CMD_VERSION;
            break;
        case OPT_LSP:
            o->command = HMS_CMD_LSP;
            break;
        case OPT_CONFIG_FILE:
            o->config_file = optarg;
            break;
        case OPT_DUMP_CONFIG:
            o->command = HMS_CMD_DUMP_CONFIG;
            break;
        case OPT_QUIET:
            o->quiet = true;
            break;
        case OPT_EXTRA_ARG: /* clang-tidy's: appended to the compiler flags */
            hms_strvec_push(&extra_after, optarg);
            break;
        case OPT_EXTRA_ARG_BEFORE:
            hms_strvec_push(&extra_before, optarg);
            break;
        case OPT_ASSUME_FILENAME: /* a copy of a file (an editor's buffer) linted as that file */
            o->assume_filename = optarg;
            break;
        case OPT_WARNINGS_AS_ERRORS:
            o->warnings_as_errors = optarg;
            break;
        case OPT_HEADER_FILTER: {
            regex_t re;
            if (regcomp(&re, optarg, REG_EXTENDED | REG_NOSUB) != 0)
                return free_extra(
                    &extra_before, &extra_after,
                    usage_error("bad --header-filter '%s' (a POSIX extended regex)", optarg));
            regfree(&re);
            o->header_filter = optarg;
            break;
        }
        case OPT_CORUN:
            o->command = HMS_CMD_CORUN;
            break;
        case OPT_QOS:
            o->qos = optarg;
            break;
        case ':':
            return free_extra(&extra_before, &extra_after,
                              usage_error("option '%s' needs a value", argv[optind - 1]));
        default:
            return free_extra(&extra_before, &extra_after,
                              usage_error("unknown option '%s'", argv[optind - 1]));
        }
    }
    for (int i = optind; i < end; i++)
        hms_strvec_push(&o->files, argv[i]);
    /* --extra-arg-before flags go first, --extra-arg ones last. */
    hms_strvec merged = {0};
    for (size_t i = 0; i < extra_before.n; i++)
        hms_strvec_push(&merged, extra_before.v[i]);
    for (size_t i = 0; i < o->compiler_args.n; i++)
        hms_strvec_push(&merged, o->compiler_args.v[i]);
    for (size_t i = 0; i < extra_after.n; i++)
        hms_strvec_push(&merged, extra_after.v[i]);
    hms_strvec_free(&o->compiler_args);
    o->compiler_args = merged;
    free_extra(&extra_before, &extra_after, 0);
    if (calibrate && o->command == HMS_CMD_LINT) {
        o->command = HMS_CMD_CALIBRATE; /* getopt kept the word first among the operands */
        o->files.n--;
        memmove(o->files.v, o->files.v + 1, o->files.n * sizeof *o->files.v);
    }
    if (o->qos && o->command != HMS_CMD_CORUN)
        return usage_error("%s", "--qos needs --corun");

    bool needs_files = o->command == HMS_CMD_LINT || o->command == HMS_CMD_LIST_KERNELS ||
                       o->command == HMS_CMD_DUMP_IR;
    if (needs_files && o->files.n == 0 && !o->build_dir) /* -p alone: the database's files */
        return usage_error("%s", "no input files");
    return 0;
}
