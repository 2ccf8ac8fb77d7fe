// OpenBLAS's CBLAS interface (cblas_sgemm) and its thread control, for the MiniLM encoder.
#include <cblas.h>
