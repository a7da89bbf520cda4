/* The C API (fftc/fftc.h, docs/c-api.md) from C: every planner entry point in both precisions
 * on the default OpenCL device (PoCL in CI), compared with a DFT in long double computed here,
 * then OpenCL buffers on a queue of the test's own, wisdom (FFTC_MEASURE, export, import,
 * FFTC_WISDOM_ONLY) and the error paths. Exit 0 when every check passes; each failure prints
 * one line. argv[1]: a scratch file for the wisdom. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftc/fftc.h>

#include "check.h"

/* ---- data in either precision: `f64` picks double, else float ---- */
static long double get(const void* a, int f64, size_t i) {
  return f64 ? (long double)((const double*)a)[i] : (long double)((const float*)a)[i];
}
static void set(void* a, int f64, size_t i, long double v) {
  if (f64)
    ((double*)a)[i] = (double)v;
  else
    ((float*)a)[i] = (float)v;
}
static void* reals(int f64, size_t count) { return calloc(count, f64 ? sizeof(double) : sizeof(float)); }

static unsigned long long seed = 12345;
static long double uniform(void) { /* in [-1, 1) */
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long double)(seed >> 11) / (long double)(1ULL << 52) - 1.0L;
}

/* ---- the reference: a dense DFT of one transform in long double ---- */
typedef struct {
  long double re, im;
} cxl;

static size_t prod(int rank, const int* n) {
  size_t p = 1;
  int d;
  for (d = 0; d < rank; ++d) p *= (size_t)n[d];
  return p;
}

/* y[k] = sum_j x[j] exp(sign 2 pi i sum_d j_d k_d / n_d), row-major, unnormalized. */
static void dft(int rank, const int* n, const cxl* x, cxl* y, int sign) {
  const size_t total = prod(rank, n);
  const long double pi = 3.141592653589793238462643383279502884L;
  size_t k, j;
  for (k = 0; k < total; ++k) {
    long double re = 0, im = 0;
    for (j = 0; j < total; ++j) {
      long double turns = 0;
      size_t kk = k, jj = j;
      int d;
      for (d = rank - 1; d >= 0; --d) {
        const size_t kd = kk % (size_t)n[d], jd = jj % (size_t)n[d];
        turns += (long double)((kd * jd) % (size_t)n[d]) / (long double)n[d];
        kk /= (size_t)n[d];
        jj /= (size_t)n[d];
      }
      {
        const long double c = cosl(2 * pi * turns), s = sign * sinl(2 * pi * turns);
        re += x[j].re * c - x[j].im * s;
        im += x[j].re * s + x[j].im * c;
      }
    }
    y[k].re = re;
    y[k].im = im;
  }
}

/* The element offset of dense index `i` of a transform in an FFTW layout (embed, stride). */
static size_t offset(int rank, const int* n, const int* embed, int stride, size_t i) {
  size_t off = 0, inner = 1;
  int d;
  for (d = rank - 1; d >= 0; --d) {
    off += (i % (size_t)n[d]) * inner;
    i /= (size_t)n[d];
    inner *= (size_t)(embed ? embed[d] : n[d]);
  }
  return off * (size_t)stride;
}

/* The element extent of `howmany` transforms in a layout. */
static size_t extent(int rank, const int* n, const int* embed, int stride, int dist, int howmany) {
  return (size_t)(howmany - 1) * (size_t)dist + offset(rank, n, embed, stride, prod(rank, n) - 1) + 1;
}

/* f32: 2e-6 + 5e-7 log10(N); f64: 5e-15 + 5e-16 log10(N) (the project's bar, fftTolerance),
 * on max |y - ref| / max |ref|. */
static long double tolerance(int f64, size_t n) {
  const long double l = log10l((long double)n);
  return f64 ? 5e-15L + 5e-16L * l : 2e-6L + 5e-7L * l;
}

typedef struct {
  long double err, max;
} errors;
static void account(errors* e, long double dre, long double dim, long double rre, long double rim) {
  const long double d = sqrtl(dre * dre + dim * dim), r = sqrtl(rre * rre + rim * rim);
  if (d > e->err) e->err = d;
  if (r > e->max) e->max = r;
}
static int within(const errors* e, int f64, size_t n) {
  return e->max > 0 && e->err / e->max <= tolerance(f64, n);
}

/* ---- plans and executions in either precision ---- */
static void* plan_c2c(int f64, int api, int rank, const int* n, int howmany, void* in,
                      const int* inembed, int istride, int idist, void* out, const int* onembed,
                      int ostride, int odist, int sign, unsigned flags) {
  if (api == 1)
    return f64 ? (void*)fftc_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out,
                                           onembed, ostride, odist, sign, flags)
               : (void*)fftcf_plan_many_dft(rank, n, howmany, in, inembed, istride, idist, out,
                                            onembed, ostride, odist, sign, flags);
  if (api == 2) return f64 ? (void*)fftc_plan_dft(rank, n, in, out, sign, flags)
                           : (void*)fftcf_plan_dft(rank, n, in, out, sign, flags);
  if (rank == 1) return f64 ? (void*)fftc_plan_dft_1d(n[0], in, out, sign, flags)
                            : (void*)fftcf_plan_dft_1d(n[0], in, out, sign, flags);
  if (rank == 2) return f64 ? (void*)fftc_plan_dft_2d(n[0], n[1], in, out, sign, flags)
                            : (void*)fftcf_plan_dft_2d(n[0], n[1], in, out, sign, flags);
  return f64 ? (void*)fftc_plan_dft_3d(n[0], n[1], n[2], in, out, sign, flags)
             : (void*)fftcf_plan_dft_3d(n[0], n[1], n[2], in, out, sign, flags);
}
static int execute(int f64, void* p) { return f64 ? fftc_execute(p) : fftcf_execute(p); }
static void destroy(int f64, void* p) {
  if (f64)
    fftc_destroy_plan(p);
  else
    fftcf_destroy_plan(p);
}

/* A complex transform: api 0 = plan_dft_1d/2d/3d, 1 = plan_many_dft, 2 = plan_dft. The
 * output's holes must keep their values; `inplace` passes one array as both. */
static void check_c2c(int f64, int api, int rank, const int* n, int howmany, const int* inembed,
                      int istride, int idist, const int* onembed, int ostride, int odist, int sign,
                      int inplace, const char* what) {
  const size_t total = prod(rank, n);
  const size_t ie = extent(rank, n, inembed, istride, idist, howmany);
  const size_t oe = inplace ? ie : extent(rank, n, onembed, ostride, odist, howmany);
  void* in = reals(f64, 2 * ie);
  void* out = inplace ? in : reals(f64, 2 * oe);
  void* orig = reals(f64, 2 * ie);
  cxl* x = calloc(total, sizeof(cxl));
  cxl* y = calloc(total, sizeof(cxl));
  errors e = {0, 0};
  int holes = 0, b;
  size_t i;
  void* p;
  for (i = 0; i < 2 * ie; ++i) set(in, f64, i, uniform());
  memcpy(orig, in, 2 * ie * (f64 ? sizeof(double) : sizeof(float)));
  if (!inplace)
    for (i = 0; i < 2 * oe; ++i) set(out, f64, i, 777);
  p = plan_c2c(f64, api, rank, n, howmany, in, inembed, istride, idist, out, onembed, ostride,
               odist, sign, FFTC_ESTIMATE);
  CHECK(p != NULL, "%s: no plan", what);
  if (p != NULL) {
    CHECK(execute(f64, p) == 0, "%s: execute failed", what);
    for (b = 0; b < howmany; ++b) {
      for (i = 0; i < total; ++i) {
        const size_t o = (size_t)b * (size_t)idist + offset(rank, n, inembed, istride, i);
        x[i].re = get(orig, f64, 2 * o);
        x[i].im = get(orig, f64, 2 * o + 1);
      }
      dft(rank, n, x, y, sign);
      for (i = 0; i < total; ++i) {
        const size_t o = inplace ? (size_t)b * (size_t)idist + offset(rank, n, inembed, istride, i)
                                 : (size_t)b * (size_t)odist + offset(rank, n, onembed, ostride, i);
        account(&e, get(out, f64, 2 * o) - y[i].re, get(out, f64, 2 * o + 1) - y[i].im, y[i].re,
                y[i].im);
      }
    }
    if (!inplace)
      for (i = 0; i < 2 * oe; ++i) holes += get(out, f64, i) == 777;
    CHECK(within(&e, f64, total), "%s: error %Lg of %Lg", what, e.err, e.max);
    CHECK(inplace || holes == (int)(2 * oe - 2 * total * (size_t)howmany),
          "%s: %d of the output's %d hole values kept", what, holes,
          (int)(2 * oe - 2 * total * (size_t)howmany));
    destroy(f64, p);
  }
  free(in);
  if (!inplace) free(out);
  free(orig);
  free(x);
  free(y);
}

/* ---- real transforms: dense layouts, or FFTW's padded in-place one (rank > 1) ---- */
/* The real element (b, dense index i) in an array whose rows of n_last reals start every
 * `rs` reals, transforms every `rdist`. */
static size_t roff(int rank, const int* n, size_t rs, size_t rdist, int b, size_t i) {
  const size_t nl = (size_t)n[rank - 1];
  return (size_t)b * rdist + (i / nl) * rs + i % nl;
}

/* r2c (`r2c`) or c2r: api 0 = plan_dft_r2c_1d/2d/3d (c2r_...), 1 = plan_many, 2 = plan_dft_r2c. */
static void check_real_one(int f64, int r2c, int api, int rank, const int* n, int howmany,
                           int inplace, const char* what) {
  const size_t total = prod(rank, n), nl = (size_t)n[rank - 1], h = nl / 2 + 1;
  const size_t rows = total / nl, half = rows * h;
  const size_t rs = inplace ? 2 * h : nl, rdist = rows * rs;
  const size_t realCount = inplace ? 2 * half * (size_t)howmany : rdist * (size_t)howmany;
  void* r = reals(f64, realCount);
  void* c = inplace ? r : reals(f64, 2 * half * (size_t)howmany);
  cxl* x = calloc(total, sizeof(cxl));
  cxl* y = calloc(total, sizeof(cxl));
  long double* xs = calloc(total * (size_t)howmany, sizeof(long double));
  errors e = {0, 0};
  void* p = NULL;
  size_t i;
  int b;
  /* real data x; its spectrum y (the c2r input is y's half, the output total * x) */
  for (b = 0; b < howmany; ++b)
    for (i = 0; i < total; ++i) xs[(size_t)b * total + i] = uniform();
  for (b = 0; b < howmany; ++b) {
    for (i = 0; i < total; ++i) {
      x[i].re = xs[(size_t)b * total + i];
      x[i].im = 0;
    }
    dft(rank, n, x, y, FFTC_FORWARD);
    for (i = 0; i < total; ++i) {
      if (r2c) {
        set(r, f64, roff(rank, n, rs, rdist, b, i), x[i].re);
      } else if (i % nl < h) {
        const size_t o = (size_t)b * half + (i / nl) * h + i % nl;
        set(c, f64, 2 * o, y[i].re);
        set(c, f64, 2 * o + 1, y[i].im);
      }
    }
  }
  if (r2c) {
    if (api == 1)
      p = f64 ? (void*)fftc_plan_many_dft_r2c(rank, n, howmany, r, NULL, 1, (int)total, c, NULL,
                                              1, (int)half, FFTC_ESTIMATE)
              : (void*)fftcf_plan_many_dft_r2c(rank, n, howmany, r, NULL, 1, (int)total, c, NULL,
                                               1, (int)half, FFTC_ESTIMATE);
    else if (api == 2)
      p = f64 ? (void*)fftc_plan_dft_r2c(rank, n, r, c, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_r2c(rank, n, r, c, FFTC_ESTIMATE);
    else if (rank == 1)
      p = f64 ? (void*)fftc_plan_dft_r2c_1d(n[0], r, c, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_r2c_1d(n[0], r, c, FFTC_ESTIMATE);
    else if (rank == 2)
      p = f64 ? (void*)fftc_plan_dft_r2c_2d(n[0], n[1], r, c, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_r2c_2d(n[0], n[1], r, c, FFTC_ESTIMATE);
    else
      p = f64 ? (void*)fftc_plan_dft_r2c_3d(n[0], n[1], n[2], r, c, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_r2c_3d(n[0], n[1], n[2], r, c, FFTC_ESTIMATE);
  } else {
    if (api == 1)
      p = f64 ? (void*)fftc_plan_many_dft_c2r(rank, n, howmany, c, NULL, 1, (int)half, r, NULL,
                                              1, (int)total, FFTC_ESTIMATE)
              : (void*)fftcf_plan_many_dft_c2r(rank, n, howmany, c, NULL, 1, (int)half, r, NULL,
                                               1, (int)total, FFTC_ESTIMATE);
    else if (api == 2)
      p = f64 ? (void*)fftc_plan_dft_c2r(rank, n, c, r, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_c2r(rank, n, c, r, FFTC_ESTIMATE);
    else if (rank == 1)
      p = f64 ? (void*)fftc_plan_dft_c2r_1d(n[0], c, r, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_c2r_1d(n[0], c, r, FFTC_ESTIMATE);
    else if (rank == 2)
      p = f64 ? (void*)fftc_plan_dft_c2r_2d(n[0], n[1], c, r, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_c2r_2d(n[0], n[1], c, r, FFTC_ESTIMATE);
    else
      p = f64 ? (void*)fftc_plan_dft_c2r_3d(n[0], n[1], n[2], c, r, FFTC_ESTIMATE)
              : (void*)fftcf_plan_dft_c2r_3d(n[0], n[1], n[2], c, r, FFTC_ESTIMATE);
  }
  CHECK(p != NULL, "%s: no plan", what);
  if (p != NULL) {
    CHECK(execute(f64, p) == 0, "%s: execute failed", what);
    for (b = 0; b < howmany; ++b) {
      if (r2c) { /* the spectrum again, for this transform */
        for (i = 0; i < total; ++i) {
          x[i].re = xs[(size_t)b * total + i];
          x[i].im = 0;
        }
        dft(rank, n, x, y, FFTC_FORWARD);
      }
      for (i = 0; i < total; ++i) {
        if (r2c && i % nl < h) {
          const size_t o = (size_t)b * half + (i / nl) * h + i % nl;
          account(&e, get(c, f64, 2 * o) - y[i].re, get(c, f64, 2 * o + 1) - y[i].im, y[i].re,
                  y[i].im);
        } else if (!r2c) {
          const long double want = (long double)total * xs[(size_t)b * total + i];
          account(&e, get(r, f64, roff(rank, n, rs, rdist, b, i)) - want, 0, want, 0);
        }
      }
    }
    CHECK(within(&e, f64, total), "%s: error %Lg of %Lg", what, e.err, e.max);
    destroy(f64, p);
  }
  free(r);
  if (!inplace) free(c);
  free(x);
  free(y);
  free(xs);
}

static void check_real(int f64) {
  static const int n1[] = {64}, n2[] = {8, 10}, n3[] = {4, 6, 8}, n32[] = {32};
  int r2c;
  for (r2c = 0; r2c <= 1; ++r2c) {
    check_real_one(f64, r2c, 0, 1, n1, 1, 0, r2c ? "r2c 1d 64" : "c2r 1d 64");
    check_real_one(f64, r2c, 0, 2, n2, 1, 0, r2c ? "r2c 2d 8x10" : "c2r 2d 8x10");
    check_real_one(f64, r2c, 0, 3, n3, 1, 0, r2c ? "r2c 3d 4x6x8" : "c2r 3d 4x6x8");
    check_real_one(f64, r2c, 0, 2, n2, 1, 1, r2c ? "r2c 2d in place" : "c2r 2d in place");
    check_real_one(f64, r2c, 2, 2, n2, 1, 0, r2c ? "plan_dft_r2c rank 2" : "plan_dft_c2r rank 2");
    check_real_one(f64, r2c, 1, 1, n32, 2, 0, r2c ? "many r2c 32 x 2" : "many c2r 32 x 2");
  }
}

/* execute_dft on new arrays; a plan made without arrays. */
static void check_more(int f64) {
  static const int n[] = {32};
  void* a = reals(f64, 64);
  void* b = reals(f64, 64);
  void* c = reals(f64, 64);
  void* d = reals(f64, 64);
  cxl x[32], y[32];
  errors e = {0, 0};
  size_t i;
  void* p = plan_c2c(f64, 0, 1, n, 1, a, NULL, 1, 0, b, NULL, 1, 0, FFTC_FORWARD, FFTC_ESTIMATE);
  void* q = plan_c2c(f64, 0, 1, n, 1, NULL, NULL, 1, 0, NULL, NULL, 1, 0, FFTC_FORWARD,
                     FFTC_ESTIMATE);
  CHECK(p != NULL && q != NULL, "new arrays: no plan");
  for (i = 0; i < 64; ++i) set(c, f64, i, uniform());
  for (i = 0; i < 32; ++i) {
    x[i].re = get(c, f64, 2 * i);
    x[i].im = get(c, f64, 2 * i + 1);
  }
  dft(1, n, x, y, FFTC_FORWARD);
  if (p != NULL) {
    CHECK((f64 ? fftc_execute_dft(p, c, d) : fftcf_execute_dft(p, c, d)) == 0, "execute_dft");
    for (i = 0; i < 32; ++i)
      account(&e, get(d, f64, 2 * i) - y[i].re, get(d, f64, 2 * i + 1) - y[i].im, y[i].re, y[i].im);
    CHECK(within(&e, f64, 32), "execute_dft: error %Lg of %Lg", e.err, e.max);
    CHECK(get(b, f64, 0) == 0 && get(b, f64, 63) == 0, "execute_dft wrote the plan's array");
    CHECK((f64 ? fftc_execute_dft_r2c(p, c, d) : fftcf_execute_dft_r2c(p, c, d)) == -1 &&
              strstr(fftc_last_error(), "execute_dft_r2c: the plan is not real to complex"),
          "execute_dft_r2c on a complex plan");
    destroy(f64, p);
  }
  if (q != NULL) {
    CHECK(execute(f64, q) == -1 && strstr(fftc_last_error(), "made without arrays"),
          "execute of a plan without arrays");
    memset(d, 0, 64 * (f64 ? sizeof(double) : sizeof(float)));
    CHECK((f64 ? fftc_execute_dft(q, c, d) : fftcf_execute_dft(q, c, d)) == 0,
          "execute_dft, plan without arrays");
    CHECK(fftc_last_error()[0] == '\0', "a success leaves an error message");
    e.err = e.max = 0;
    for (i = 0; i < 32; ++i)
      account(&e, get(d, f64, 2 * i) - y[i].re, get(d, f64, 2 * i + 1) - y[i].im, y[i].re, y[i].im);
    CHECK(within(&e, f64, 32), "execute_dft, plan without arrays: error %Lg", e.err);
    destroy(f64, q);
  }
  free(a);
  free(b);
  free(c);
  free(d);
}

/* OpenCL buffers on a context and queue of the test's own. */
static void check_cl(void) {
  enum { N = 64 };
  static const int n[] = {N};
  float host[2 * N], got[2 * N];
  cxl x[N], y[N];
  cl_platform_id platform;
  cl_device_id device;
  cl_int status;
  cl_context context;
  cl_command_queue queue;
  cl_mem in, out, small;
  errors e = {0, 0};
  size_t i;
  fftcf_plan p;
  if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
    CHECK(0, "no OpenCL device");
    return;
  }
  context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
  queue = clCreateCommandQueue(context, device, 0, &status);
  in = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, &status);
  out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof host, NULL, &status);
  small = clCreateBuffer(context, CL_MEM_READ_WRITE, 16, NULL, &status);
  for (i = 0; i < 2 * N; ++i) host[i] = (float)uniform();
  for (i = 0; i < N; ++i) {
    x[i].re = host[2 * i];
    x[i].im = host[2 * i + 1];
  }
  dft(1, n, x, y, FFTC_BACKWARD);
  clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
  p = fftcf_plan_dft_1d(N, NULL, NULL, FFTC_BACKWARD, FFTC_ESTIMATE);
  CHECK(p != NULL, "cl: no plan");
  if (p != NULL) {
    int pass;
    for (pass = 0; pass < 2; ++pass) { /* out of place, then in place */
      cl_mem target = pass == 0 ? out : in;
      CHECK(fftcf_execute_cl(p, in, target, queue) == 0, "execute_cl pass %d", pass);
      clEnqueueReadBuffer(queue, target, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
      e.err = e.max = 0;
      for (i = 0; i < N; ++i) account(&e, got[2 * i] - y[i].re, got[2 * i + 1] - y[i].im, y[i].re, y[i].im);
      CHECK(within(&e, 0, N), "execute_cl pass %d: error %Lg of %Lg", pass, e.err, e.max);
    }
    CHECK(fftcf_execute_cl(p, small, out, queue) == -1 && strstr(fftc_last_error(), "bytes"),
          "execute_cl on a buffer too small");
    CHECK(fftcf_execute_cuda(p, NULL, NULL, NULL) == -1 &&
              strstr(fftc_last_error(), "fftcf_execute_cuda: "),
          "execute_cuda on an OpenCL plan");
    fftcf_destroy_plan(p);
  }
  clReleaseMemObject(in);
  clReleaseMemObject(out);
  clReleaseMemObject(small);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

/* FFTC_MEASURE records wisdom (the ctest sets FFTC_MEASURE_SECONDS=1); it survives export,
 * forget and import; FFTC_WISDOM_ONLY needs it. */
static int measured_ok(fftcf_plan p, int n) {
  fftcf_complex a[128], b[128];
  cxl x[128], y[128];
  errors e = {0, 0};
  int i;
  for (i = 0; i < n; ++i) {
    a[i][0] = (float)uniform();
    a[i][1] = (float)uniform();
    x[i].re = a[i][0];
    x[i].im = a[i][1];
  }
  dft(1, &n, x, y, FFTC_FORWARD);
  if (fftcf_execute_dft(p, a, b) != 0) return 0;
  for (i = 0; i < n; ++i) account(&e, b[i][0] - y[i].re, b[i][1] - y[i].im, y[i].re, y[i].im);
  return within(&e, 0, (size_t)n);
}

static void check_wisdom(const char* file) {
  fftcf_plan p;
  fftcf_forget_wisdom();
  remove(file);
  CHECK(fftcf_plan_dft_1d(128, NULL, NULL, FFTC_FORWARD, FFTC_WISDOM_ONLY) == NULL &&
            strstr(fftc_last_error(), "FFTC_WISDOM_ONLY: no wisdom for 'fft c2c f32 n=128"),
        "WISDOM_ONLY without wisdom");
  p = fftcf_plan_dft_1d(128, NULL, NULL, FFTC_FORWARD, FFTC_MEASURE);
  CHECK(p != NULL && measured_ok(p, 128), "MEASURE");
  fftcf_destroy_plan(p);
  p = fftcf_plan_dft_1d(128, NULL, NULL, FFTC_FORWARD, FFTC_WISDOM_ONLY);
  CHECK(p != NULL && measured_ok(p, 128), "WISDOM_ONLY after MEASURE");
  fftcf_destroy_plan(p);
  CHECK(fftcf_export_wisdom_to_filename(file) == 1, "export to %s", file);
  fftcf_forget_wisdom();
  CHECK(fftcf_plan_dft_1d(128, NULL, NULL, FFTC_FORWARD, FFTC_WISDOM_ONLY) == NULL,
        "WISDOM_ONLY after forget");
  CHECK(fftc_import_wisdom_from_filename(file) == 1, "import from %s", file);
  p = fftcf_plan_dft_1d(128, NULL, NULL, FFTC_FORWARD, FFTC_WISDOM_ONLY | FFTC_ESTIMATE);
  CHECK(p != NULL && measured_ok(p, 128), "WISDOM_ONLY after import");
  fftcf_destroy_plan(p);
  CHECK(fftcf_import_wisdom_from_filename("/nonexistent/wisdom.json") == 0 &&
            strstr(fftc_last_error(), "no such file"),
        "import of a missing file");
  CHECK(fftcf_export_wisdom_to_filename("/proc/fftc/wisdom.json") == 0 &&
            strstr(fftc_last_error(), "fftcf_export_wisdom_to_filename: wisdom: "),
        "export to an unwritable place");
}

static void check_errors(void) {
  static const int n16[] = {16}, bad[] = {8, 0};
  fftcf_complex a[16];
  CHECK(fftcf_plan_dft_1d(0, a, a, FFTC_FORWARD, FFTC_ESTIMATE) == NULL &&
            strcmp(fftc_last_error(), "fftcf_plan_dft: n[0] = 0: must be at least 1") == 0,
        "n = 0");
  CHECK(fftc_plan_dft_2d(8, 0, NULL, NULL, FFTC_FORWARD, FFTC_ESTIMATE) == NULL &&
            strstr(fftc_last_error(), "fftc_plan_dft: n[1] = 0"),
        "n1 = 0");
  CHECK(fftcf_plan_dft_r2c(2, bad, NULL, NULL, FFTC_ESTIMATE) == NULL &&
            strstr(fftc_last_error(), "n[1] = 0"),
        "r2c n1 = 0");
  CHECK(fftcf_plan_many_dft(1, n16, -1, a, NULL, 1, 16, a, NULL, 1, 16, FFTC_FORWARD,
                            FFTC_ESTIMATE) == NULL &&
            strcmp(fftc_last_error(), "fftcf_plan_many_dft: howmany -1: must be at least 1") == 0,
        "negative howmany");
  CHECK(fftcf_plan_many_dft(1, n16, 2, a, NULL, 0, 16, a, NULL, 1, 16, FFTC_FORWARD,
                            FFTC_ESTIMATE) == NULL &&
            strstr(fftc_last_error(), "istride 0: must be at least 1"),
        "istride 0");
  CHECK(fftcf_plan_dft(5, n16, a, a, FFTC_FORWARD, FFTC_ESTIMATE) == NULL &&
            strstr(fftc_last_error(), "rank 5"),
        "rank 5");
  CHECK(fftcf_plan_dft_1d(16, a, a, 0, FFTC_ESTIMATE) == NULL &&
            strstr(fftc_last_error(), "sign 0"),
        "sign 0");
  CHECK(fftcf_plan_dft_1d(16, a, a, FFTC_FORWARD, 1U << 3) == NULL &&
            strstr(fftc_last_error(), "unknown bits 0x8"),
        "unknown flag");
  CHECK(fftcf_execute(NULL) == -1 &&
            strcmp(fftc_last_error(), "fftcf_execute: the plan is NULL") == 0,
        "execute on NULL");
  CHECK(fftc_execute_dft(NULL, NULL, NULL) == -1 && strstr(fftc_last_error(), "the plan is NULL"),
        "execute_dft on NULL");
  fftcf_destroy_plan(NULL); /* as free(NULL) */
  CHECK(fftc_set_device("opencl:9:9") == -1 &&
            strstr(fftc_last_error(), "fftc_set_device: OpenCL platform index 9 is out of range"),
        "set_device opencl:9:9");
  CHECK(fftc_set_device("vulkan:0") == -1 && strstr(fftc_last_error(), "fftc_set_device: "),
        "set_device vulkan:0");
  CHECK(fftc_set_device("opencl") == 0 && fftc_last_error()[0] == '\0', "set_device opencl");
  {
    fftcf_plan p = fftcf_plan_dft_1d(16, a, a, FFTC_FORWARD, FFTC_ESTIMATE);
    CHECK(p != NULL, "a plan after the failed selectors");
    fftcf_destroy_plan(p);
  }
}

int main(int argc, char** argv) {
  static const int n1[] = {64}, n60[] = {60}, n2[] = {8, 12}, n3[] = {4, 6, 8}, n16[] = {16};
  static const int e16[] = {20}, n2e[] = {10, 14}, n86[] = {8, 6};
  int f64;
  const char* wisdom = argc > 1 ? argv[1] : "capi_test_wisdom.json";
  for (f64 = 0; f64 <= 1; ++f64) {
    check_c2c(f64, 0, 1, n1, 1, NULL, 1, 0, NULL, 1, 0, FFTC_FORWARD, 0, "1d forward 64");
    check_c2c(f64, 0, 1, n60, 1, NULL, 1, 0, NULL, 1, 0, FFTC_BACKWARD, 1, "1d backward 60 in place");
    check_c2c(f64, 0, 2, n2, 1, NULL, 1, 0, NULL, 1, 0, FFTC_FORWARD, 0, "2d 8x12 forward");
    check_c2c(f64, 0, 3, n3, 1, NULL, 1, 0, NULL, 1, 0, FFTC_BACKWARD, 0, "3d 4x6x8 backward");
    check_c2c(f64, 2, 2, n2, 1, NULL, 1, 0, NULL, 1, 0, FFTC_BACKWARD, 0, "plan_dft rank 2");
    check_c2c(f64, 1, 1, n16, 3, NULL, 1, 16, NULL, 1, 16, FFTC_FORWARD, 0, "many dense 16 x 3");
    /* interleaved input (stride 3, dist 1), output embedded in rows of 20 (holes) */
    check_c2c(f64, 1, 1, n16, 3, NULL, 3, 1, e16, 1, 20, FFTC_FORWARD, 0, "many strided 16 x 3");
    /* 8x6 in a 10x14 array, stride 2, and out into a 9x7 one */
    {
      static const int o97[] = {9, 7};
      check_c2c(f64, 1, 2, n86, 2, n2e, 2, 300, o97, 1, 70, FFTC_BACKWARD, 0,
                "many embedded 8x6 x 2");
    }
    check_real(f64);
    check_more(f64);
  }
  check_cl();
  check_wisdom(wisdom);
  check_errors();
  if (failures == 0) printf("capi_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
