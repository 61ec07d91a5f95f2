/*
 * pcie.h — what the kernel says of a GPU's PCIe link and of the NVIDIA driver, for `proofmill
 * doctor` (Linux sysfs, Documentation/ABI/testing/sysfs-bus-pci: current_link_speed,
 * current_link_width, max_link_speed, max_link_width; the NVIDIA kernel module's
 * /proc/driver/nvidia/version). No CUDA, no NVML: plain files, absent ones said as such.
 */
#ifndef PROOFMILL_UTIL_PCIE_H
#define PROOFMILL_UTIL_PCIE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int gen, max_gen;          /* PCIe generation 1-6 from the link speed (2.5/5/8/16/32/64 GT/s); 0 unknown */
    unsigned width, max_width; /* lanes (x1..x32); 0 unknown */
    double gts, max_gts;       /* the link speed in GT/s as sysfs gives it; 0 unknown */
} pm_pcie_link_t;

/* The PCIe generation of a link speed in GT/s (2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6);
 * 0 for any other value. */
int pm_pcie_gen_of_gts(double gts);

/* The link of PCI device bus_id (sysfs form, "0000:18:00.0", hex in either case) under sysfs_root
 * ("/sys"; tests pass a directory of their own): <root>/bus/pci/devices/<bus_id>/{current,max}_link_
 * {speed,width}. Returns 0 when the current speed and width were read, -1 otherwise (what could not
 * be read stays 0). Never fails loudly: a container without /sys, a device behind a virtual bus. */
int pm_pcie_link(pm_pcie_link_t *out, const char *sysfs_root, const char *bus_id);

/* The NVIDIA kernel module's version ("580.159.04") from proc_path (/proc/driver/nvidia/version:
 * "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  <date>"), into out (NUL-terminated,
 * at most n - 1 characters). Returns 0 when found, -1 otherwise (out = ""). */
int pm_nvidia_driver_version(char *out, size_t n, const char *proc_path);

#ifdef __cplusplus
}
#endif
#endif
