/* The example of docs/c-api.md (the doc quotes this file; ctest capi.example runs it, and
 * tests/install builds it against the installed package): a 256-point FFT of a cosine. */
#include <math.h>
#include <stdio.h>

#include <fftc/fftc.h>

int main(void) {
  enum { N = 256 };
  static fftcf_complex x[N], y[N];
  const double pi = 3.14159265358979323846;
  for (int j = 0; j < N; ++j) { /* cos(2 pi 5 j / N) */
    x[j][0] = (float)cos(2 * pi * 5 * j / N);
    x[j][1] = 0;
  }
  fftcf_plan p = fftcf_plan_dft_1d(N, x, y, FFTC_FORWARD, FFTC_ESTIMATE);
  if (p == NULL || fftcf_execute(p) != 0) {
    fprintf(stderr, "fftc: %s\n", fftc_last_error());
    return 1;
  }
  fftcf_destroy_plan(p);
  /* Unnormalized, as FFTW: N/2 at the frequencies 5 and N - 5, zero elsewhere. */
  for (int k = 0; k < N; ++k) {
    const double want = (k == 5 || k == N - 5) ? N / 2.0 : 0.0;
    if (fabs(y[k][0] - want) > 1e-3 || fabs(y[k][1]) > 1e-3) {
      fprintf(stderr, "y[%d] = %g%+gi, expected %g\n", k, y[k][0], y[k][1], want);
      return 1;
    }
  }
  printf("y[5] = %g%+gi\n", y[5][0], y[5][1]);
  return 0;
}
