/*
 * sysmem.h — memory probes of the machine and of this process, for the engine's memory budget and
 * the daemon's status and metrics (Linux: sysconf(3), the cgroup v2 limit, /proc/self/status).
 */
#ifndef PROOFMILL_UTIL_SYSMEM_H
#define PROOFMILL_UTIL_SYSMEM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Physical memory in bytes: the smaller of RAM (sysconf _SC_PHYS_PAGES x _SC_PAGESIZE) and the
 * cgroup v2 limit (/sys/fs/cgroup/memory.max, when set); 0 when neither is readable. */
uint64_t pm_sys_memory_bytes(void);
/* This process's resident set size and its peak (VmRSS, VmHWM of /proc/self/status), bytes; 0 when
 * unreadable. */
void pm_proc_rss(uint64_t *rss_bytes, uint64_t *peak_bytes);

#ifdef __cplusplus
}
#endif
#endif
