/* Whether this CPU runs the kernels of field_arithmetic.h (x86-64 with BMI2 and ADX). */
#ifndef ZKPIN_CPU_SUPPORT_H
#define ZKPIN_CPU_SUPPORT_H

/* 1 when it does, 0 otherwise (and on other architectures, which never call the kernels). */
int zk_cpu_has_bmi2_adx(void);

#endif
