/*
 * clock.h — the one monotonic clock of proofmill (CLOCK_MONOTONIC, clock_gettime(2)): stage timings,
 * trace events, deadlines. Not the wall clock (time(2) / CLOCK_REALTIME): it never jumps when the
 * system time is set, so differences of two readings are durations.
 */
#ifndef PROOFMILL_UTIL_CLOCK_H
#define PROOFMILL_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds since an arbitrary fixed point (boot), as a double (ns resolution). */
double pm_now_s(void);
/* Microseconds since the same point. */
int64_t pm_now_us(void);
/* *ts = now + us_from_now microseconds on CLOCK_MONOTONIC: the absolute deadline that
 * pthread_cond_timedwait expects from a condition variable whose clock attribute is
 * CLOCK_MONOTONIC (pthread_condattr_setclock). us_from_now >= 0. */
void pm_deadline_us(struct timespec *ts, int64_t us_from_now);

#ifdef __cplusplus
}
#endif
#endif
