/* The C API of fftc in the style of FFTW 3 (docs/c-api.md): fftcf_ for single and fftc_ for
 * double precision, plans made once and executed many times on host arrays or device buffers.
 *
 *   fftcf_complex *x = ..., *y = ...;                       (n of them each)
 *   fftcf_plan p = fftcf_plan_dft_1d(n, x, y, FFTC_FORWARD, FFTC_ESTIMATE);
 *   if (!p) { fprintf(stderr, "%s\n", fftc_last_error()); return 1; }
 *   fftcf_execute(p);                                       (y = DFT of x, unnormalized)
 *   fftcf_destroy_plan(p);
 *
 * Plain C99 and C++, no OpenCL or CUDA header needed: device handles are taken as the
 * structure pointers that cl_mem, cl_command_queue and CUstream / cudaStream_t are. Failures
 * never abort: a plan call returns NULL, an int call its documented failure value, and
 * fftc_last_error() says why in one line (per thread). */
#ifndef FFTC_FFTC_H
#define FFTC_FFTC_H

#ifdef __cplusplus
extern "C" {
#endif

/* The exponent's sign of the transform, as FFTW_FORWARD / FFTW_BACKWARD. */
#define FFTC_FORWARD (-1)
#define FFTC_BACKWARD (+1)

/* Planner flags, FFTW's values. FFTC_MEASURE (0, FFTW's default too) tunes the plan briefly
 * on the device (at most FFTC_MEASURE_SECONDS, default 10 s, docs/c-api.md) unless the wisdom
 * has an entry; FFTC_ESTIMATE plans by the heuristics (or the wisdom); FFTC_WISDOM_ONLY gives
 * NULL unless the wisdom has an entry for the problem on the device. The input is never
 * overwritten, so FFTC_DESTROY_INPUT and FFTC_PRESERVE_INPUT are accepted and change nothing. */
#define FFTC_MEASURE (0U)
#define FFTC_DESTROY_INPUT (1U << 0)
#define FFTC_PRESERVE_INPUT (1U << 4)
#define FFTC_ESTIMATE (1U << 6)
#define FFTC_WISDOM_ONLY (1U << 21)

/* fftcf_complex / fftc_complex: a complex number as two reals (re, im), like fftw_complex;
 * a C99 float _Complex or a C++ std::complex<float> has the same layout. */
typedef float fftcf_complex[2];
typedef double fftc_complex[2];

typedef struct fftcf_plan_s* fftcf_plan;
typedef struct fftc_plan_s* fftc_plan;

/* The types behind cl_mem, cl_command_queue (CL/cl.h) and CUstream / cudaStream_t (cuda.h,
 * cuda_runtime.h): those handles convert to these without a cast. */
struct _cl_mem;
struct _cl_command_queue;
struct CUstream_st;

/* The last failure of the calling thread in one line ("" when none); valid until the thread's
 * next fftc call. */
const char* fftc_last_error(void);

/* The device that plans made afterwards run on, by the selector of `fftc --device`:
 * "opencl" or "" (the default OpenCL device: the first GPU, else the first device),
 * "opencl:P:D", "opencl:NAME" (a substring of the platform or device name), or "cuda:N"
 * (builds with CUDA: plans on CUDA device N). Without a call, $FFTC_DEVICE, else the default.
 * Returns 0, or -1 (fftc_last_error) when the selector is malformed or selects no device. */
int fftc_set_device(const char* selector);

/* The API of one precision: X pastes the prefix, R is the real type, C the complex one. */
#define FFTC_DECLARE_API(X, R, C)                                                                \
  X(plan) X(plan_dft_1d)(int n, C* in, C* out, int sign, unsigned flags);                        \
  X(plan) X(plan_dft_2d)(int n0, int n1, C* in, C* out, int sign, unsigned flags);               \
  X(plan) X(plan_dft_3d)(int n0, int n1, int n2, C* in, C* out, int sign, unsigned flags);       \
  X(plan) X(plan_dft)(int rank, const int* n, C* in, C* out, int sign, unsigned flags);          \
  X(plan) X(plan_many_dft)(int rank, const int* n, int howmany, C* in, const int* inembed,       \
                           int istride, int idist, C* out, const int* onembed, int ostride,      \
                           int odist, int sign, unsigned flags);                                 \
  X(plan) X(plan_dft_r2c_1d)(int n, R* in, C* out, unsigned flags);                              \
  X(plan) X(plan_dft_r2c_2d)(int n0, int n1, R* in, C* out, unsigned flags);                     \
  X(plan) X(plan_dft_r2c_3d)(int n0, int n1, int n2, R* in, C* out, unsigned flags);             \
  X(plan) X(plan_dft_r2c)(int rank, const int* n, R* in, C* out, unsigned flags);                \
  X(plan) X(plan_many_dft_r2c)(int rank, const int* n, int howmany, R* in, const int* inembed,   \
                               int istride, int idist, C* out, const int* onembed, int ostride,  \
                               int odist, unsigned flags);                                       \
  X(plan) X(plan_dft_c2r_1d)(int n, C* in, R* out, unsigned flags);                              \
  X(plan) X(plan_dft_c2r_2d)(int n0, int n1, C* in, R* out, unsigned flags);                     \
  X(plan) X(plan_dft_c2r_3d)(int n0, int n1, int n2, C* in, R* out, unsigned flags);             \
  X(plan) X(plan_dft_c2r)(int rank, const int* n, C* in, R* out, unsigned flags);                \
  X(plan) X(plan_many_dft_c2r)(int rank, const int* n, int howmany, C* in, const int* inembed,   \
                               int istride, int idist, R* out, const int* onembed, int ostride,  \
                               int odist, unsigned flags);                                       \
  /* Host arrays: the plan's own (execute) or new ones of the same layout. 0, or -1. */          \
  int X(execute)(const X(plan) p);                                                               \
  int X(execute_dft)(const X(plan) p, C* in, C* out);                                            \
  int X(execute_dft_r2c)(const X(plan) p, R* in, C* out);                                        \
  int X(execute_dft_c2r)(const X(plan) p, C* in, R* out);                                        \
  /* OpenCL buffers: enqueued on `queue` (in order; its context and device are the plan's       \
   * device or any other: the first call on a queue builds the plan for it), not waited for.    \
   * in == out: in place. 0, or -1. */                                                           \
  int X(execute_cl)(const X(plan) p, struct _cl_mem* in, struct _cl_mem* out,                    \
                    struct _cl_command_queue* queue);                                            \
  /* CUDA device pointers (cudaMalloc, or a CUdeviceptr cast to void*) of a plan made for       \
   * "cuda:N", launched on `stream` (NULL: the default stream), not waited for. 0, or -1. */   \
  int X(execute_cuda)(const X(plan) p, void* in, void* out, struct CUstream_st* stream);         \
  void X(destroy_plan)(X(plan) p);                                                               \
  /* Wisdom (shared by both precisions): FFTW's return values, nonzero on success. */           \
  int X(import_wisdom_from_filename)(const char* filename);                                      \
  int X(export_wisdom_to_filename)(const char* filename);                                        \
  void X(forget_wisdom)(void);

#define FFTC_MANGLE_FLOAT_(name) fftcf_##name
#define FFTC_MANGLE_DOUBLE_(name) fftc_##name
FFTC_DECLARE_API(FFTC_MANGLE_FLOAT_, float, fftcf_complex)
FFTC_DECLARE_API(FFTC_MANGLE_DOUBLE_, double, fftc_complex)

#ifdef __cplusplus
}
#endif

#endif /* FFTC_FFTC_H */
