/*
 * test_util_pcie.c — util/pcie.h on a sysfs tree and a driver version file made here: the
 * generations of every PCIe speed, a Gen5 x16 link and a Gen4 x8 one under a Gen5 x16 maximum, the
 * bus id in upper case, missing and malformed files, a bus id that tries to leave the tree, and the
 * NVIDIA driver line with and without the module version. No GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"
#include "util/pcie.h"

static char root[256];

/* text into path (created or truncated) */
static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* root/bus/pci/devices/<dev>/<name> = text, making the directories on the way */
static void put(const char *dev, const char *name, const char *text) {
    static const char *const dirs[] = {"bus", "bus/pci", "bus/pci/devices"};
    char path[512];
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        mkdir(path, 0700);
    }
    snprintf(path, sizeof path, "%s/bus/pci/devices/%s", root, dev);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/bus/pci/devices/%s/%s", root, dev, name);
    write_text(path, text);
}

static int setup(void **state) {
    (void)state;
    return pm_test_mkdtemp(root, sizeof root, "pm_pcie");
}
static int teardown(void **state) {
    (void)state;
    return pm_test_rmtree(root);
}

static void generations(void **state) {
    (void)state;
    assert_int_equal(pm_pcie_gen_of_gts(2.5), 1);
    assert_int_equal(pm_pcie_gen_of_gts(5.0), 2);
    assert_int_equal(pm_pcie_gen_of_gts(8.0), 3);
    assert_int_equal(pm_pcie_gen_of_gts(16.0), 4);
    assert_int_equal(pm_pcie_gen_of_gts(32.0), 5);
    assert_int_equal(pm_pcie_gen_of_gts(64.0), 6);
    assert_int_equal(pm_pcie_gen_of_gts(0), 0);
    assert_int_equal(pm_pcie_gen_of_gts(12.0), 0);
}

/* a device's four link files (sysfs text, newline included) */
static void put_link(const char *dev, const char *speed, const char *width, const char *max_speed,
                     const char *max_width) {
    put(dev, "current_link_speed", speed);
    put(dev, "current_link_width", width);
    put(dev, "max_link_speed", max_speed);
    put(dev, "max_link_width", max_width);
}

/* pm_pcie_link of bus id `id` succeeds with these generations and widths */
static void expect_link(const char *id, int gen, int width, int max_gen, int max_width) {
    pm_pcie_link_t l;
    assert_int_equal(pm_pcie_link(&l, root, id), 0);
    assert_int_equal(l.gen, gen);
    assert_int_equal(l.width, width);
    assert_int_equal(l.max_gen, max_gen);
    assert_int_equal(l.max_width, max_width);
}

static void links(void **state) {
    (void)state;
    pm_pcie_link_t l;
    put_link("0000:18:00.0", "32.0 GT/s PCIe\n", "16\n", "32.0 GT/s PCIe\n", "16\n");
    expect_link("0000:18:00.0", 5, 16, 5, 16);
    /* CUDA spells the id in upper case; a link trained down below its maximum */
    put_link("0000:af:00.0", "16.0 GT/s PCIe\n", "8\n", "32.0 GT/s PCIe\n", "16\n");
    expect_link("0000:AF:00.0", 4, 8, 5, 16);
    /* older kernels: "8 GT/s" without the suffix; an unknown speed keeps its GT/s, generation 0 */
    put("0000:01:00.0", "current_link_speed", "8 GT/s\n");
    put("0000:01:00.0", "current_link_width", "4\n");
    assert_int_equal(pm_pcie_link(&l, root, "0000:01:00.0"), 0);
    assert_int_equal(l.gen, 3);
    assert_int_equal(l.max_gen, 0); /* no max_* files */
    put("0000:02:00.0", "current_link_speed", "Unknown\n");
    put("0000:02:00.0", "current_link_width", "0\n");
    assert_int_equal(pm_pcie_link(&l, root, "0000:02:00.0"), -1);
    assert_int_equal(l.gen, 0);
    assert_int_equal(l.width, 0);
    /* absent device, absent root, an id with a path in it, empty */
    assert_int_equal(pm_pcie_link(&l, root, "0000:99:00.0"), -1);
    assert_int_equal(pm_pcie_link(&l, "/nonexistent-sysfs", "0000:18:00.0"), -1);
    assert_int_equal(pm_pcie_link(&l, root, "../../../etc"), -1);
    assert_int_equal(pm_pcie_link(&l, root, ""), -1);
    assert_int_equal(pm_pcie_link(&l, NULL, "0000:18:00.0"), -1);
}

static void driver(void **state) {
    (void)state;
    char path[512], v[32];
    snprintf(path, sizeof path, "%s/version", root);
    write_text(path, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Oct  2 10:15:47 UTC 2025\n"
                     "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
    assert_int_equal(pm_nvidia_driver_version(v, sizeof v, path), 0);
    assert_string_equal(v, "580.159.04");
    char small[4];
    assert_int_equal(pm_nvidia_driver_version(small, sizeof small, path), 0);
    assert_string_equal(small, "580"); /* truncated to fit */
    write_text(path, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build\n");
    assert_int_equal(pm_nvidia_driver_version(v, sizeof v, path), 0); /* the open module: "for x86_64" first */
    assert_string_equal(v, "550.54.14");
    write_text(path, "garbage\n");
    assert_int_equal(pm_nvidia_driver_version(v, sizeof v, path), -1);
    assert_string_equal(v, "");
    assert_int_equal(pm_nvidia_driver_version(v, sizeof v, "/nonexistent/version"), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(generations), cmocka_unit_test(links), cmocka_unit_test(driver)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
