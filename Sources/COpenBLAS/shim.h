#include <cblas.h>
#include <lapacke.h>
// OpenBLAS's own controls; declared here because Debian's cblas.h may be the reference one.
void openblas_set_num_threads(int num_threads);
char *openblas_get_corename(void);
char *openblas_get_config(void);

#if defined(__x86_64__)
#include <cpuid.h>
// The vector extensions OpenBLAS's kernels are chosen by (OpenBLASSettings), as this process's processor reports them
// through CPUID and the operating system enables their registers (XGETBV): bit 0, AVX2 with FMA; bit 1, AVX-512 F,
// CD, BW, DQ and VL. CPUID rather than /proc/cpuinfo, so that a processor emulated for a program (valgrind's,
// which has no AVX-512) is asked, not the machine under it.
static inline unsigned int benchbook_vector_extensions(void) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  if (!osxsave || !avx) return 0;
  unsigned int enabledLow, enabledHigh;
  __asm__ volatile("xgetbv" : "=a"(enabledLow), "=d"(enabledHigh) : "c"(0));
  if ((enabledLow & 0x6) != 0x6) return 0;  // XMM and YMM state
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
  unsigned int extensions = 0;
  if (((b >> 5) & 1) && fma) extensions |= 1;
  const unsigned int avx512 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);
  if ((extensions & 1) && (b & avx512) == avx512 && (enabledLow & 0xe0) == 0xe0) extensions |= 2;
  return extensions;
}
#endif
