/* The C API on CUDA (label gpu: needs an NVIDIA GPU and its driver): plans made after
 * fftc_set_device("cuda:0") run on device pointers of the test's own (cuMemAlloc) on a stream
 * of its own (fftcf_execute_cuda, out of place and in place) and on host arrays, compared
 * with a DFT in long double; an OpenCL execution of a CUDA plan fails with a message. The
 * driver is loaded with dlopen, as fftc loads it, so the program builds without libcuda. */
#include <cuda.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <fftc/fftc.h>

#include "check.h"

/* The driver functions used here, by their versioned symbols. */
static CUresult (*init_)(unsigned);
static CUresult (*deviceGet)(CUdevice*, int);
static CUresult (*retain)(CUcontext*, CUdevice);
static CUresult (*setCurrent)(CUcontext);
static CUresult (*memAlloc)(CUdeviceptr*, size_t);
static CUresult (*memFree)(CUdeviceptr);
static CUresult (*htod)(CUdeviceptr, const void*, size_t);
static CUresult (*dtoh)(void*, CUdeviceptr, size_t);
static CUresult (*streamCreate)(CUstream*, unsigned);
static CUresult (*streamSync)(CUstream);

static int load(void) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (lib == NULL) return 0;
#define SYM(var, name) *(void**)(&var) = dlsym(lib, name)
  SYM(init_, "cuInit");
  SYM(deviceGet, "cuDeviceGet");
  SYM(retain, "cuDevicePrimaryCtxRetain");
  SYM(setCurrent, "cuCtxSetCurrent");
  SYM(memAlloc, "cuMemAlloc_v2");
  SYM(memFree, "cuMemFree_v2");
  SYM(htod, "cuMemcpyHtoD_v2");
  SYM(dtoh, "cuMemcpyDtoH_v2");
  SYM(streamCreate, "cuStreamCreate");
  SYM(streamSync, "cuStreamSynchronize");
#undef SYM
  return init_ && deviceGet && retain && setCurrent && memAlloc && memFree && htod && dtoh &&
         streamCreate && streamSync;
}

/* max |y - dft(x)| / max |dft(x)| of a 1D complex transform of n doubles pairs. */
static long double error1d(int n, const double* x, const double* y, int sign) {
  const long double pi = 3.141592653589793238462643383279502884L;
  long double err = 0, max = 0;
  int k, j;
  for (k = 0; k < n; ++k) {
    long double re = 0, im = 0, d, r;
    for (j = 0; j < n; ++j) {
      const long double a = 2 * pi * (long double)(((long long)j * k) % n) / n;
      re += x[2 * j] * cosl(a) - sign * x[2 * j + 1] * sinl(a);
      im += sign * x[2 * j] * sinl(a) + x[2 * j + 1] * cosl(a);
    }
    d = hypotl(y[2 * k] - re, y[2 * k + 1] - im);
    r = hypotl(re, im);
    if (d > err) err = d;
    if (r > max) max = r;
  }
  return max > 0 ? err / max : 1;
}

int main(void) {
  enum { N = 1024 };
  static double x[2 * N], y[2 * N];
  static float xf[2 * N], yf[2 * N];
  CUdevice device;
  CUcontext context;
  CUstream stream;
  CUdeviceptr din, dout;
  int i;
  if (!load() || init_(0) != CUDA_SUCCESS || deviceGet(&device, 0) != CUDA_SUCCESS ||
      retain(&context, device) != CUDA_SUCCESS || setCurrent(context) != CUDA_SUCCESS) {
    printf("FAIL: no CUDA driver or device\n");
    return 1;
  }
  CHECK(fftc_set_device("cuda:0") == 0, "set_device cuda:0");
  streamCreate(&stream, CU_STREAM_NON_BLOCKING);
  memAlloc(&din, sizeof x);
  memAlloc(&dout, sizeof x);
  for (i = 0; i < 2 * N; ++i) x[i] = sin(0.37 * i) + 0.25 * cos(1.3 * i * i);

  { /* f64 on device pointers, out of place then in place */
    fftc_plan p = fftc_plan_dft_1d(N, NULL, NULL, FFTC_FORWARD, FFTC_ESTIMATE);
    CHECK(p != NULL, "f64 plan");
    if (p != NULL) {
      htod(din, x, sizeof x);
      CHECK(fftc_execute_cuda(p, (void*)(uintptr_t)din, (void*)(uintptr_t)dout, stream) == 0,
            "execute_cuda");
      streamSync(stream);
      dtoh(y, dout, sizeof y);
      CHECK(error1d(N, x, y, -1) < 1e-14L, "f64 out of place: %Lg", error1d(N, x, y, -1));
      CHECK(fftc_execute_cuda(p, (void*)(uintptr_t)din, (void*)(uintptr_t)din, stream) == 0,
            "execute_cuda in place");
      streamSync(stream);
      dtoh(y, din, sizeof y);
      CHECK(error1d(N, x, y, -1) < 1e-14L, "f64 in place: %Lg", error1d(N, x, y, -1));
      CHECK(fftc_execute_cl(p, NULL, NULL, NULL) == -1 &&
                strstr(fftc_last_error(), "fftc_execute_cl: "),
            "execute_cl on a CUDA plan");
      fftc_destroy_plan(p);
    }
  }
  { /* f32 backward, on the default stream, and on host arrays */
    fftcf_plan p = fftcf_plan_dft_1d(N, (fftcf_complex*)xf, (fftcf_complex*)yf, FFTC_BACKWARD,
                                      FFTC_ESTIMATE);
    CHECK(p != NULL, "f32 plan");
    if (p != NULL) {
      for (i = 0; i < 2 * N; ++i) xf[i] = (float)x[i];
      for (i = 0; i < 2 * N; ++i) x[i] = xf[i];
      htod(din, xf, sizeof xf);
      CHECK(fftcf_execute_cuda(p, (void*)(uintptr_t)din, (void*)(uintptr_t)dout, NULL) == 0,
            "execute_cuda, default stream");
      streamSync(NULL);
      dtoh(yf, dout, sizeof yf);
      for (i = 0; i < 2 * N; ++i) y[i] = yf[i];
      CHECK(error1d(N, x, y, 1) < 1e-5L, "f32 device pointers: %Lg", error1d(N, x, y, 1));
      memset(yf, 0, sizeof yf);
      CHECK(fftcf_execute(p) == 0, "execute on host arrays");
      for (i = 0; i < 2 * N; ++i) y[i] = yf[i];
      CHECK(error1d(N, x, y, 1) < 1e-5L, "f32 host arrays: %Lg", error1d(N, x, y, 1));
      fftcf_destroy_plan(p);
    }
  }
  memFree(din);
  memFree(dout);
  if (failures == 0) printf("capi_cuda_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
