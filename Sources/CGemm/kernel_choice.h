#ifndef LECTERN_KERNEL_CHOICE_H
#define LECTERN_KERNEL_CHOICE_H
/* Shared by gemm.c and encoder_ops.c (not exported to Swift): whether this CPU runs the kernel
   named ("avx512", "avx2", "portable"), by the one set of feature checks the matrix product's
   own choice uses, so the products and the passes between them never disagree. */
int lectern_cpu_runs_kernel(const char *name);
#endif
