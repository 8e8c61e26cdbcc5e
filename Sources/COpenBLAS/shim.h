#include <cblas.h>
#include <lapacke.h>
// OpenBLAS's own control; declared here because Debian's cblas.h may be the reference one.
void openblas_set_num_threads(int num_threads);
