/* --list-arches: one line per built-in architecture, the --arch target marked
 * (and listed too when it is a user file). */
#include <stdio.h>
#include <string.h>

#include "analyzer/cli/arch_select.h"
#include "analyzer/cli/commands.h"

static void format_size(char *buf, size_t len, uint32_t bytes)
{
    if (bytes == 0)
        snprintf(buf, len, "-");
    else if (bytes % (1u << 20) == 0)
        snprintf(buf, len, "%u MB", bytes >> 20);
    else if (bytes >= 1u << 20)
        snprintf(buf, len, "%.1f MB", bytes / 1048576.0);
    else
        snprintf(buf, len, "%u KB", bytes >> 10);
}

static void print_row(const hms_arch *a, bool selected)
{
    char banks[24], l2[16], bw[24], aliases[300] = "";
    snprintf(banks, sizeof banks, "%d x %d B", a->shared_banks, a->shared_bank_bytes);
    format_size(l2, sizeof l2, a->l2.size_bytes);
    snprintf(bw, sizeof bw, "%g GB/s", a->dram_bandwidth_gbs);
    size_t used = 0;
    for (int i = 0; i < a->alias_count && used < sizeof aliases; i++)
        used += (size_t)snprintf(aliases + used, sizeof aliases - used, "%s%s", i ? ", " : "",
                                 a->aliases[i]);
    if (strcmp(a->source_path, "<builtin>") != 0)
        snprintf(aliases, sizeof aliases, "(file %s)", a->source_path);
    printf("%c %-8s %-6s %-20s %4d  %-12s %-8s %-12s %s\n", selected ? '*' : ' ', a->name, a->sm,
           a->product, a->sm_count, banks, l2, bw, aliases);
}

int hms_cmd_list_arches(const hms_options *o)
{
    hms_diag_sink said;
    hms_diag_sink_init(&said, stderr);
    const hms_arch *target = hms_resolve_arch(o, &said);
    hms_diag_sink_free(&said);
    if (!target)
        return 2;
    size_t n = hms_arch_builtin_count();
    printf("  %-8s %-6s %-20s %4s  %-12s %-8s %-12s %s\n", "NAME", "SM", "PRODUCT", "SMS",
           "SHARED BANKS", "L2", "DRAM BW", "ALIASES");
    for (size_t i = 0; i < n; i++)
        print_row(hms_arch_builtin(i), hms_arch_builtin(i) == target);
    if (strcmp(target->source_path, "<builtin>") != 0)
        print_row(target, true);
    printf("\n* = target of --arch (default %s). Select with --arch=<name|sm_XX|alias|file.yaml>;\n"
           "docs/architectures.md describes the file format.\n",
           HMS_ARCH_DEFAULT);
    return 0;
}
