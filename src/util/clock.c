/*
 * clock.c — the monotonic clock (clock.h).
 */
#include "util/clock.h"

double pm_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int64_t pm_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void pm_deadline_us(struct timespec *ts, int64_t us_from_now) {
    clock_gettime(CLOCK_MONOTONIC, ts);
    ts->tv_sec += us_from_now / 1000000;
    ts->tv_nsec += (us_from_now % 1000000) * 1000;
    if (ts->tv_nsec >= 1000000000) {
        ts->tv_sec++;
        ts->tv_nsec -= 1000000000;
    }
}
