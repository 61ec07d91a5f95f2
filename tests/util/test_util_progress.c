/* util/progress.h, a task's own progress: stages and counts recorded in the task bound to the
 * thread (and only that thread), counted from other threads with pm_progress_add_to, the task idle
 * once a counted stage completes unless a newer stage began, snapshots of an idle task. */
#include "test_util.h"

#include <pthread.h>
#include <string.h>

#include "util/progress.h"

static void bound_thread_records(void **state) {
    (void)state;
    pm_task_progress t;
    pm_task_init(&t);
    uint64_t done = 7, total = 7;
    int dev = 7;
    assert_null(pm_task_get(&t, &done, &total, &dev));
    assert_int_equal(done, 0);
    assert_int_equal(total, 0);
    assert_int_equal(dev, -1);
    pm_progress_stage("before", 10); /* nothing bound: the task does not see it */
    assert_null(pm_task_get(&t, NULL, NULL, NULL));
    assert_null(pm_progress_bind(&t));
    assert_ptr_equal(pm_progress_bound(), &t);
    pm_progress_stage("reading", 300);
    pm_progress_add(100);
    assert_string_equal(pm_task_get(&t, &done, &total, &dev), "reading");
    assert_int_equal(done, 100);
    assert_int_equal(total, 300);
    assert_int_equal(dev, -1);
    pm_progress_add(200); /* complete: idle */
    assert_null(pm_task_get(&t, &done, &total, NULL));
    assert_int_equal(done, 0);
    pm_progress_stage("uncounted", 0);
    pm_progress_add(5000); /* no total: stays */
    assert_string_equal(pm_task_get(&t, &done, NULL, NULL), "uncounted");
    assert_int_equal(done, 5000);
    assert_ptr_equal(pm_progress_bind(NULL), &t);
    pm_progress_stage("after", 0); /* unbound again */
    assert_string_equal(pm_task_get(&t, NULL, NULL, NULL), "uncounted");
    pm_task_idle(&t);
    assert_null(pm_task_get(&t, NULL, NULL, NULL));
    pm_task_idle(NULL);
    pm_task_stage(NULL, "x", 1, 0);
    pm_task_add(NULL, 1);
}

static void *add_many(void *arg) {
    pm_task_progress *t = arg;
    assert_null(pm_progress_bound()); /* a new thread inherits no binding */
    for (int i = 0; i < 1000; i++) pm_progress_add_to(t, 1);
    return NULL;
}

static void counted_from_other_threads(void **state) {
    (void)state;
    pm_task_progress t;
    pm_task_init(&t);
    pm_task_stage(&t, "uploading to GPU", 8001, 3);
    pthread_t th[8];
    for (int i = 0; i < 8; i++) assert_int_equal(pthread_create(&th[i], NULL, add_many, &t), 0);
    for (int i = 0; i < 8; i++) pthread_join(th[i], NULL);
    uint64_t done, total;
    int dev;
    assert_string_equal(pm_task_get(&t, &done, &total, &dev), "uploading to GPU");
    assert_int_equal(done, 8000);
    assert_int_equal(total, 8001);
    assert_int_equal(dev, 3);
    pm_task_add(&t, 5); /* past the total: idle, and never reported above it */
    assert_null(pm_task_get(&t, &done, NULL, &dev));
    assert_int_equal(dev, -1);
}

static void newer_stage_survives_completion(void **state) {
    (void)state;
    pm_task_progress t;
    pm_task_init(&t);
    pm_task_stage(&t, "pinning host bases", 10, 0);
    pm_task_stage(&t, "uploading to GPU", 100, 0); /* began meanwhile */
    pm_task_add(&t, 10);                           /* the count restarted with the new stage */
    assert_string_equal(pm_task_get(&t, NULL, NULL, NULL), "uploading to GPU");
    pm_task_add(&t, 90);
    assert_null(pm_task_get(&t, NULL, NULL, NULL));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bound_thread_records),
        cmocka_unit_test(counted_from_other_threads),
        cmocka_unit_test(newer_stage_survives_completion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
