/* A value the optimiser cannot see through. */
#ifndef ZKPIN_VALUE_BARRIER_H
#define ZKPIN_VALUE_BARRIER_H
#include <stdint.h>

/* x unchanged, but opaque to the compiler: a mask derived from a secret passes through it so that
 * the compiler cannot tell it is all zeros or all ones and turn the masked selection back into a
 * branch on the secret (clang did: G1's table reads loaded their last words under a branch on
 * entry == digit). An empty asm statement: no instruction, on any architecture. */
static inline __attribute__((always_inline)) uint64_t zk_value_barrier(uint64_t x) {
    __asm__("" : "+r"(x));
    return x;
}

#endif
