/*
 * sysmem.c — memory probes (sysmem.h).
 */
#include "util/sysmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static uint64_t read_u64_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[64] = {0};
    uint64_t v = 0;
    if (fgets(buf, sizeof buf, f) && buf[0] >= '0' && buf[0] <= '9') v = strtoull(buf, NULL, 10);
    fclose(f);
    return v;
}

uint64_t pm_sys_memory_bytes(void) {
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    uint64_t phys = (pages > 0 && psz > 0) ? (uint64_t)pages * (uint64_t)psz : 0;
    uint64_t cg = read_u64_file("/sys/fs/cgroup/memory.max"); /* "max" reads as 0 */
    if (cg && (!phys || cg < phys)) phys = cg;
    return phys;
}

void pm_proc_rss(uint64_t *rss, uint64_t *peak) {
    *rss = 0;
    *peak = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long long kb;
        if (sscanf(line, "VmRSS: %llu kB", &kb) == 1) *rss = kb * 1024ull;
        else if (sscanf(line, "VmHWM: %llu kB", &kb) == 1) *peak = kb * 1024ull;
    }
    fclose(f);
}
