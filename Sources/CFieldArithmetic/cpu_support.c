/* Compiled on its own so the kernels' header (field_arithmetic.h, all static inline, for Swift
 * to inline) need not be compiled into an object file of its own. */
#include "cpu_support.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* CPUID leaf 7: BMI2 is bit 8, ADX bit 19 of EBX. */
int zk_cpu_has_bmi2_adx(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (1u << 8)) && (ebx & (1u << 19));
}
#else
int zk_cpu_has_bmi2_adx(void) { return 0; }
#endif
