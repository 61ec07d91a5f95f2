/* The one engine builder (engine/engine_build.h): the device choice and the pool sizes from fake
 * machines (cores, host memory, CUDA devices the GPU backend sees) through pm_engine_size, the
 * device setting's parser, and one real build on this machine (the CPU backend when it has no GPU). */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "engine/engine_build.h"

#define GIB (1ull << 30)

static pm_engine_machine machine(unsigned cores, uint64_t mem, unsigned gpus) {
    pm_engine_machine m;
    memset(&m, 0, sizeof m);
    m.cores = cores;
    m.memory_bytes = mem;
    m.gpus = gpus;
    if (!gpus) snprintf(m.no_gpu, sizeof m.no_gpu, "this build has no CUDA backend (fake)");
    return m;
}

static pm_status size(pm_engine_sizing *s, const pm_engine_choices *c, const pm_engine_machine *m, pm_error *err) {
    pm_engine_config base;
    pm_engine_config_default(&base);
    pm_error_clear(err);
    return pm_engine_size(s, &base, c, m, err);
}

/* gpu.devices empty on a GPU machine: every device the GPU backend sees, pools from the cores */
static void auto_takes_every_visible_gpu(void **state) {
    (void)state;
    pm_engine_choices c = {.where = PM_ENGINE_DEVICES_AUTO};
    pm_engine_machine m = machine(16, 128 * GIB, 2);
    pm_engine_sizing s;
    pm_error err;
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.gpu, 1);
    assert_int_equal(s.cfg.cpu_devices, 0);
    assert_int_equal(s.cfg.n_devices, 2);
    assert_int_equal(s.cfg.devices[0], 0);
    assert_int_equal(s.cfg.devices[1], 1);
    /* pm_engine_pools_for_host with a GPU at 16 cores */
    assert_int_equal(s.cfg.synth_workers, 4);
    assert_int_equal(s.cfg.workers_per_device, 2);
    assert_int_equal(s.cfg.finalize_threads, 2);
    assert_int_equal(s.start_threads, 4);
    assert_int_equal(s.finalize_msm_threads, 1);
    assert_int_equal(s.cfg.synth_lookahead, pm_engine_auto_lookahead(4, 2, 2));
    assert_true(s.cfg.memory_budget == 127 * GIB); /* host memory - the default 1 GiB margin */
    print_message("line: %s\n", s.line);
    assert_non_null(strstr(s.line, "2 CUDA device(s) 0,1 (every device the GPU backend sees, none named)"));
    assert_non_null(strstr(s.line, "16 cores"));
    assert_non_null(strstr(s.line, "4 synthesis workers (from the cores)"));
    /* 80 cards: the first PM_ENGINE_MAX_DEVICES */
    m.gpus = 80;
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.cfg.n_devices, PM_ENGINE_MAX_DEVICES);
}

/* gpu.devices empty without a GPU: the CPU backend on cpu_slots, its defaults, and the reason said */
static void auto_without_gpu_is_cpu(void **state) {
    (void)state;
    pm_engine_choices c = {.where = PM_ENGINE_DEVICES_AUTO, .cpu_slots = 3};
    pm_engine_machine m = machine(64, 24 * GIB, 0);
    pm_engine_sizing s;
    pm_error err;
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.gpu, 0);
    assert_int_equal(s.cfg.cpu_devices, 1);
    assert_int_equal(s.cfg.n_devices, 3);
    assert_int_equal(s.cfg.devices[2], 2);
    assert_int_equal(s.cfg.synth_workers, 2);
    assert_int_equal(s.cfg.workers_per_device, 2);
    assert_int_equal(s.cfg.finalize_threads, 1);
    assert_int_equal(s.start_threads, 0); /* every core */
    print_message("line: %s\n", s.line);
    assert_non_null(strstr(s.line, "on the CPU, 3 slot(s) (no CUDA device: this build has no CUDA backend (fake))"));
    c.cpu_slots = 0; /* 0 = one slot */
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.cfg.n_devices, 1);
}

/* none / cpu forces the CPU on a GPU machine */
static void cpu_forced_on_a_gpu_machine(void **state) {
    (void)state;
    pm_engine_choices c = {.where = PM_ENGINE_DEVICES_CPU, .cpu_slots = 2};
    pm_engine_machine m = machine(16, 128 * GIB, 4);
    pm_engine_sizing s;
    pm_error err;
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.gpu, 0);
    assert_int_equal(s.cfg.n_devices, 2);
    assert_int_equal(s.cfg.synth_workers, 2); /* the CPU backend's pools */
    assert_non_null(strstr(s.line, "on the CPU, 2 slot(s) (chosen)"));
}

/* named devices: used as named; one the backend does not see, or none visible, is refused */
static void named_devices(void **state) {
    (void)state;
    pm_engine_choices c = {.where = PM_ENGINE_DEVICES_GPU, .devices = {1}, .n_devices = 1, .origin = "gpu.devices"};
    pm_engine_machine m = machine(32, 256 * GIB, 2);
    pm_engine_sizing s;
    pm_error err;
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.gpu, 1);
    assert_int_equal(s.cfg.n_devices, 1);
    assert_int_equal(s.cfg.devices[0], 1);
    assert_non_null(strstr(s.line, "1 CUDA device(s) 1 (named)"));
    c.devices[0] = 2;
    assert_int_equal(size(&s, &c, &m, &err), PM_ERR_ARG);
    assert_string_equal(err.file, "gpu.devices");
    assert_non_null(strstr(err.msg, "CUDA device 2 is not visible"));
    m = machine(32, 256 * GIB, 0);
    c.devices[0] = 0;
    assert_int_equal(size(&s, &c, &m, &err), PM_ERR_GPU); /* never a silent CPU proof */
    assert_non_null(strstr(err.msg, "no CUDA backend (fake)"));
    c.n_devices = 0; /* "all" on a machine without one: refused too */
    assert_int_equal(size(&s, &c, &m, &err), PM_ERR_GPU);
}

/* given sizes win; PM_ENGINE_ALL_CORES; the budget given, from memory, or half of a tiny memory */
static void given_sizes_and_budget(void **state) {
    (void)state;
    pm_engine_choices c = {.where = PM_ENGINE_DEVICES_AUTO, .synth_workers = 7, .workers_per_device = 3,
                           .finalize_threads = 5, .start_threads = PM_ENGINE_ALL_CORES, .finalize_msm_threads = 2,
                           .synth_lookahead = 9};
    pm_engine_machine m = machine(16, 64 * GIB, 1);
    pm_engine_sizing s;
    pm_error err;
    assert_int_equal(size(&s, &c, &m, &err), PM_OK);
    assert_int_equal(s.cfg.synth_workers, 7);
    assert_int_equal(s.cfg.workers_per_device, 3);
    assert_int_equal(s.cfg.finalize_threads, 5);
    assert_int_equal(s.start_threads, 0);
    assert_int_equal(s.finalize_msm_threads, 2);
    assert_int_equal(s.cfg.synth_lookahead, 9);
    assert_non_null(strstr(s.line, "7 synthesis workers (given)"));
    assert_non_null(strstr(s.line, "start-phase MSMs on every core (given)"));
    pm_engine_config base;
    pm_engine_config_default(&base);
    base.memory_budget = 5 * GIB;
    base.trace = 1;
    assert_int_equal(pm_engine_size(&s, &base, &c, &m, &err), PM_OK);
    assert_true(s.cfg.memory_budget == 5 * GIB);
    assert_int_equal(s.cfg.trace, 1); /* the base's own settings kept */
    base.memory_budget = 0;
    m.memory_bytes = GIB / 2; /* below the 1 GiB margin: half of it, as pm_engine_create */
    assert_int_equal(pm_engine_size(&s, &base, &c, &m, &err), PM_OK);
    assert_true(s.cfg.memory_budget == GIB / 4);
}

static void devices_parse(void **state) {
    (void)state;
    pm_engine_choices c = {.origin = "gpu.devices"};
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_devices_parse(&c, "", &err), PM_OK);
    assert_int_equal(c.where, PM_ENGINE_DEVICES_AUTO);
    assert_int_equal(pm_engine_devices_parse(&c, NULL, &err), PM_OK);
    assert_int_equal(c.where, PM_ENGINE_DEVICES_AUTO);
    assert_int_equal(pm_engine_devices_parse(&c, "none", &err), PM_OK);
    assert_int_equal(c.where, PM_ENGINE_DEVICES_CPU);
    assert_int_equal(pm_engine_devices_parse(&c, "cpu", &err), PM_OK);
    assert_int_equal(c.where, PM_ENGINE_DEVICES_CPU);
    assert_int_equal(pm_engine_devices_parse(&c, "all", &err), PM_OK);
    assert_int_equal(c.where, PM_ENGINE_DEVICES_GPU);
    assert_int_equal(c.n_devices, 0);
    assert_int_equal(pm_engine_devices_parse(&c, "0, 2,3", &err), PM_OK);
    assert_int_equal(c.where, PM_ENGINE_DEVICES_GPU);
    assert_int_equal(c.n_devices, 3);
    assert_int_equal(c.devices[1], 2);
    assert_int_equal(c.devices[2], 3);
    const char *bad[] = {"x", "0,x", "-1", "1024", "gpu0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(pm_engine_devices_parse(&c, bad[i], &err), PM_ERR_ARG);
        assert_string_equal(err.file, "gpu.devices");
        assert_non_null(strstr(err.msg, bad[i]));
    }
}

static char g_line[1024];
static void grab(void *arg, const char *line) {
    (*(int *)arg)++;
    snprintf(g_line, sizeof g_line, "%s", line);
}

/* a real build on this machine: the CPU when asked; automatic = what the GPU backend sees here */
static void builds_here(void **state) {
    (void)state;
    for (int where = PM_ENGINE_DEVICES_AUTO; where <= PM_ENGINE_DEVICES_CPU; where++) {
        int calls = 0;
        pm_engine_build_opts o = {.choices = {.where = (pm_engine_where)where}, .log = grab, .log_arg = &calls};
        pm_engine_config_default(&o.base);
        pm_engine_built b;
        pm_error err;
        pm_error_clear(&err);
        assert_int_equal(pm_engine_build(&b, &o, &err), PM_OK);
        assert_non_null(b.engine);
        assert_int_equal(calls, 1);
        print_message("%s\n", g_line);
        pm_engine_machine m;
        pm_engine_machine_probe(&m, 1);
        assert_true(m.cores >= 1);
        const int gpu = where == PM_ENGINE_DEVICES_AUTO && m.gpus > 0;
        assert_int_equal(b.sizing.gpu, gpu);
        assert_non_null(strstr(g_line, gpu ? "engine groth16-cuda: start phase on " : "engine groth16-cpu: start phase on the CPU"));
        pm_engine_status st;
        pm_engine_get_status(b.engine, &st);
        assert_int_equal(st.n_devices, b.sizing.cfg.n_devices);
        assert_int_equal(st.synth_total, b.sizing.cfg.synth_workers);
        assert_true(st.budget_bytes == b.sizing.cfg.memory_budget);
        pm_engine_status_free(&st);
        pm_engine_built_destroy(&b);
        pm_engine_built_destroy(&b); /* emptied: a no-op */
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(auto_takes_every_visible_gpu), cmocka_unit_test(auto_without_gpu_is_cpu),
        cmocka_unit_test(cpu_forced_on_a_gpu_machine),  cmocka_unit_test(named_devices),
        cmocka_unit_test(given_sizes_and_budget),       cmocka_unit_test(devices_parse),
        cmocka_unit_test(builds_here),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
