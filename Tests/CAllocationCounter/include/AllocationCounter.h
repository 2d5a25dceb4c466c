// Counts heap allocations made by the calling thread between start and stop, so a test can
// assert that an operation (one pairing) allocates nothing. The test binary's malloc family is
// replaced by thin wrappers around glibc's own entry points.
#pragma once

void zkpin_allocation_counter_start(void);
/// Stops counting and returns the allocations seen on this thread since the start.
long zkpin_allocation_counter_stop(void);
