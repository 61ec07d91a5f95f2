/*
 * pcie.c — the PCIe link and NVIDIA driver probes of pcie.h.
 */
#include "util/pcie.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pm_pcie_gen_of_gts(double gts) {
    static const double speeds[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    for (int i = 0; i < 6; i++)
        if (gts > speeds[i] * 0.99 && gts < speeds[i] * 1.01) return i + 1;
    return 0;
}

/* The first line of <dir>/<name> into buf; 0 on success. */
static int read_line(char *buf, size_t n, const char *dir, const char *name) {
    char path[1024];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) return -1;
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    const int ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

/* "32.0 GT/s PCIe" (or "8 GT/s", "2.5 GT/s") -> 32.0; 0 when not a speed */
static double speed_of(const char *s) {
    char *end;
    const double v = strtod(s, &end);
    if (end == s || v <= 0 || v > 1000) return 0;
    while (*end == ' ') end++;
    return strncmp(end, "GT/s", 4) ? 0 : v;
}

static unsigned width_of(const char *s) {
    char *end;
    const unsigned long v = strtoul(s, &end, 10);
    return end != s && v >= 1 && v <= 32 ? (unsigned)v : 0;
}

int pm_pcie_link(pm_pcie_link_t *out, const char *sysfs_root, const char *bus_id) {
    memset(out, 0, sizeof *out);
    if (!sysfs_root || !bus_id || !*bus_id || strlen(bus_id) > 32) return -1;
    char id[40], dir[1200], line[128];
    size_t i = 0;
    for (; bus_id[i]; i++) {
        const char ch = bus_id[i];
        if (!isxdigit((unsigned char)ch) && ch != ':' && ch != '.') return -1; /* no path parts */
        id[i] = (char)tolower((unsigned char)ch);
    }
    id[i] = 0;
    snprintf(dir, sizeof dir, "%s/bus/pci/devices/%s", sysfs_root, id);
    if (!read_line(line, sizeof line, dir, "current_link_speed")) out->gts = speed_of(line);
    if (!read_line(line, sizeof line, dir, "current_link_width")) out->width = width_of(line);
    if (!read_line(line, sizeof line, dir, "max_link_speed")) out->max_gts = speed_of(line);
    if (!read_line(line, sizeof line, dir, "max_link_width")) out->max_width = width_of(line);
    out->gen = pm_pcie_gen_of_gts(out->gts);
    out->max_gen = pm_pcie_gen_of_gts(out->max_gts);
    return out->gts > 0 && out->width ? 0 : -1;
}

/* 1 when the token t[0..len) is a version: digits and dots, starting with a digit, one dot at least */
static int is_version(const char *t, size_t len) {
    size_t dots = 0;
    if (!len || !isdigit((unsigned char)t[0])) return 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] == '.') dots++;
        else if (!isdigit((unsigned char)t[i])) return 0;
    }
    return dots > 0;
}

int pm_nvidia_driver_version(char *out, size_t n, const char *proc_path) {
    if (!out || !n) return -1;
    out[0] = 0;
    FILE *f = proc_path ? fopen(proc_path, "r") : NULL;
    if (!f) return -1;
    char line[512];
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "Kernel Module");
        if (strncmp(line, "NVRM version:", 13) || !p) continue;
        /* the first version-shaped word after "Kernel Module" (the open module adds "for x86_64") */
        for (p += strlen("Kernel Module"); *p && found;) {
            while (*p && isspace((unsigned char)*p)) p++;
            size_t len = 0;
            while (p[len] && !isspace((unsigned char)p[len])) len++;
            if (is_version(p, len)) {
                const size_t k = len < n - 1 ? len : n - 1;
                memcpy(out, p, k);
                out[k] = 0;
                found = 0;
            }
            p += len;
        }
    }
    fclose(f);
    return found;
}
