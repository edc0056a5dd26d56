/* The state file the library's tests publish (state_writer.cpp writes it; consumer_state.h
 * checks what the library reads of it): this machine's boot, clocksource and online CPUs at
 * the moment it is written, and a table made up by these numbers, so that every offset and
 * every order the library answers is known exactly. C99 and C++. */
#ifndef TSCAUDIT_STATE_FIXTURE_H
#define TSCAUDIT_STATE_FIXTURE_H

/* The k-th CPU of the table (k = 0: the reference CPU, the first online CPU) has its offset in
 * [k * STEP - HALF, k * STEP + HALF] ticks at the moment (the reference CPU's [0, 0]) and its
 * drift in [-DRIFT, +DRIFT] ppb. */
#define FIXTURE_STEP_TICKS 100.0
#define FIXTURE_HALF_TICKS 5.0
#define FIXTURE_DRIFT_PPB 50.0
#define FIXTURE_COUNTER_HZ 1e9
#define FIXTURE_QUANTUM_TICKS 1
/* The tolerance, far beyond the bands: valid_seconds is then about 2000 s, so the fixture is
 * CURRENT for as long as any test runs, under a sanitizer too. */
#define FIXTURE_TOLERANCE_NS 100000.0
/* bound_ns of the fixture; a republished version i (state_writer's `versions`) has
 * FIXTURE_BOUND_NS + i. */
#define FIXTURE_BOUND_NS 1000.0
#define FIXTURE_REASON "synchronized: the library's test table"

#endif /* TSCAUDIT_STATE_FIXTURE_H */
