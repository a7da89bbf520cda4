/* The C API tests' check: a failed condition is counted and printed with its place and
   fftc_last_error(), and the test goes on (capi_test.c, capi_cuda_test.c). */
#ifndef FFTC_TESTS_CAPI_CHECK_H
#define FFTC_TESTS_CAPI_CHECK_H

#include <stdio.h>

#include <fftc/fftc.h>

static int failures = 0;
#define CHECK(cond, ...)                                \
  do {                                                  \
    if (!(cond)) {                                      \
      ++failures;                                       \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);       \
      printf(__VA_ARGS__);                              \
      printf(" [last error: %s]\n", fftc_last_error()); \
    }                                                   \
  } while (0)

#endif
