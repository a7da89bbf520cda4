// The C functions of fftc/fftc.h: arguments checked and turned into an FftRequest, every
// exception caught here and kept as the thread's last error, so that none crosses into C.
#include "fftc/fftc.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <new>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "fftlib/capi/capi_plan.h"

struct fftcf_plan_s {
  fftc::fftlib::capi::CPlan plan;
};
struct fftc_plan_s {
  fftc::fftlib::capi::CPlan plan;
};

namespace fftc::fftlib::capi {
namespace {

using backends::UserError;

// Runs `body`; on an exception records "FUNCTION: message" and returns `failure`.
template <typename F, typename R>
R boundary(const char* function, R failure, F&& body) noexcept {
  try {
    R result = body();
    clearLastError();
    return result;
  } catch (const std::bad_alloc&) {
    setLastError(fmt::format("{}: out of host memory", function));
  } catch (const std::exception& e) {  // UserError, DeviceError, CompileError, ClError, ...
    try {
      setLastError(fmt::format("{}: {}", function, e.what()));
    } catch (...) {
      setLastError("");
    }
  } catch (...) {
    setLastError(std::string(function) + ": unknown error");
  }
  return failure;
}

Direction directionOf(int sign) {
  if (sign == FFTC_FORWARD) return Direction::Forward;
  if (sign == FFTC_BACKWARD) return Direction::Inverse;
  throw UserError(fmt::format("sign {}: FFTC_FORWARD (-1) or FFTC_BACKWARD (+1)", sign));
}

std::vector<int64_t> dimsOf(int rank, const int* n) {
  if (rank < 1 || rank > 4)
    throw UserError(fmt::format("rank {}: fftc plans transforms of 1 to 4 dimensions", rank));
  if (n == nullptr) throw UserError("n is NULL");
  std::vector<int64_t> dims(n, n + rank);
  for (int k = 0; k < rank; ++k)
    if (dims[k] < 1) throw UserError(fmt::format("n[{}] = {}: must be at least 1", k, dims[k]));
  return dims;
}

// FFTW's embed/stride/dist as a DataLayout of the side whose dimensions are `side`; the dense
// layout (all defaults) when it describes that, so that dense plan_many calls plan the
// same kernels as plan_dft.
DataLayout layoutOf(const char* what, const int* embed, int stride, int dist,
                    const std::vector<int64_t>& side, int howmany) {
  DataLayout l;
  if (embed != nullptr) l.embed.assign(embed, embed + side.size());
  if (l.embed == side) l.embed.clear();
  if (stride < 1) throw UserError(fmt::format("{}stride {}: must be at least 1", what, stride));
  if (dist < 0) throw UserError(fmt::format("{}dist {}: must be at least 0", what, dist));
  l.stride = stride;
  l.dist = dist;
  if (l.embed.empty() && l.stride == 1 && (howmany == 1 || l.dist == product(side))) l.dist = 0;
  return l;
}

FftRequest baseRequest(int rank, const int* n, int howmany, Precision precision) {
  FftRequest r;
  const auto dims = dimsOf(rank, n);
  if (howmany < 1) throw UserError(fmt::format("howmany {}: must be at least 1", howmany));
  r.size = product(dims);
  if (dims.size() > 1) r.dims = dims;
  r.batch = howmany;
  r.precision = precision;
  return r;
}

// The many-transform request of either kind; `real`: R2C (forward) or C2R (inverse).
FftRequest manyRequest(int rank, const int* n, int howmany, const int* inembed, int istride,
                       int idist, const int* onembed, int ostride, int odist, Direction d,
                       bool real, Precision precision) {
  FftRequest r = baseRequest(rank, n, howmany, precision);
  r.real = real;
  r.direction = d;
  r.inLayout = layoutOf("i", inembed, istride, idist, sideDims(r, true), howmany);
  r.outLayout = layoutOf("o", onembed, ostride, odist, sideDims(r, false), howmany);
  return r;
}

// FFTW's in-place real layout: a multi-dimensional real array's rows padded to
// 2 (n_last/2 + 1) reals, the size of a row of the half spectrum.
DataLayout paddedReal(const std::vector<int64_t>& dims) {
  DataLayout l;
  l.embed = dims;
  l.embed.back() = 2 * (dims.back() / 2 + 1);
  return l;
}

FftRequest realRequest(int rank, const int* n, const void* in, const void* out, bool r2c,
                       Precision precision) {
  FftRequest r = baseRequest(rank, n, 1, precision);
  r.real = true;
  r.direction = r2c ? Direction::Forward : Direction::Inverse;
  if (in == out && in != nullptr && rank > 1) (r2c ? r.inLayout : r.outLayout) = paddedReal(r.dims);
  return r;
}

template <typename Handle>
Handle makePlan(const FftRequest& request, void* in, void* out, unsigned flags) {
  using S = std::remove_pointer_t<Handle>;
  return new S{CPlan(request, in, out, flags)};
}

template <typename Handle>
CPlan& planOf(Handle p) {
  if (p == nullptr) throw UserError("the plan is NULL");
  return p->plan;
}

void checkKind(const CPlan& p, CPlan::Kind want, const char* what) {
  if (p.kind() != want) throw UserError(fmt::format("the plan is not {}", what));
}

}  // namespace
}  // namespace fftc::fftlib::capi

namespace capi = fftc::fftlib::capi;
using capi::boundary;
using fftc::fftlib::Precision;

const char* fftc_last_error(void) { return capi::lastError(); }

int fftc_set_device(const char* selector) {
  return boundary("fftc_set_device", -1, [&] {
    capi::setDevice(selector == nullptr ? std::string() : std::string(selector));
    return 0;
  });
}

// One precision's functions: P the prefix as text, X the name mangler, R and C the types,
// PREC the precision.
#define FFTC_DEFINE_API(P, X, R, C, PREC)                                                       \
  X(plan) X(plan_dft_1d)(int n, C* in, C* out, int sign, unsigned flags) {                      \
    return X(plan_dft)(1, &n, in, out, sign, flags);                                            \
  }                                                                                             \
  X(plan) X(plan_dft_2d)(int n0, int n1, C* in, C* out, int sign, unsigned flags) {             \
    const int n[] = {n0, n1};                                                                   \
    return X(plan_dft)(2, n, in, out, sign, flags);                                             \
  }                                                                                             \
  X(plan) X(plan_dft_3d)(int n0, int n1, int n2, C* in, C* out, int sign, unsigned flags) {     \
    const int n[] = {n0, n1, n2};                                                               \
    return X(plan_dft)(3, n, in, out, sign, flags);                                             \
  }                                                                                             \
  X(plan) X(plan_dft)(int rank, const int* n, C* in, C* out, int sign, unsigned flags) {        \
    return boundary(P "plan_dft", X(plan){}, [&] {                                              \
      auto r = capi::manyRequest(rank, n, 1, nullptr, 1, 0, nullptr, 1, 0,                     \
                                 capi::directionOf(sign), false, PREC);                         \
      return capi::makePlan<X(plan)>(r, in, out, flags);                                        \
    });                                                                                         \
  }                                                                                             \
  X(plan) X(plan_many_dft)(int rank, const int* n, int howmany, C* in, const int* inembed,      \
                           int istride, int idist, C* out, const int* onembed, int ostride,     \
                           int odist, int sign, unsigned flags) {                               \
    return boundary(P "plan_many_dft", X(plan){}, [&] {                                         \
      auto r = capi::manyRequest(rank, n, howmany, inembed, istride, idist, onembed, ostride,   \
                                 odist, capi::directionOf(sign), false, PREC);                  \
      return capi::makePlan<X(plan)>(r, in, out, flags);                                        \
    });                                                                                         \
  }                                                                                             \
  X(plan) X(plan_dft_r2c_1d)(int n, R* in, C* out, unsigned flags) {                            \
    return X(plan_dft_r2c)(1, &n, in, out, flags);                                              \
  }                                                                                             \
  X(plan) X(plan_dft_r2c_2d)(int n0, int n1, R* in, C* out, unsigned flags) {                   \
    const int n[] = {n0, n1};                                                                   \
    return X(plan_dft_r2c)(2, n, in, out, flags);                                               \
  }                                                                                             \
  X(plan) X(plan_dft_r2c_3d)(int n0, int n1, int n2, R* in, C* out, unsigned flags) {           \
    const int n[] = {n0, n1, n2};                                                               \
    return X(plan_dft_r2c)(3, n, in, out, flags);                                               \
  }                                                                                             \
  X(plan) X(plan_dft_r2c)(int rank, const int* n, R* in, C* out, unsigned flags) {              \
    return boundary(P "plan_dft_r2c", X(plan){}, [&] {                                          \
      auto r = capi::realRequest(rank, n, in, out, true, PREC);                                 \
      return capi::makePlan<X(plan)>(r, in, out, flags);                                        \
    });                                                                                         \
  }                                                                                             \
  X(plan) X(plan_many_dft_r2c)(int rank, const int* n, int howmany, R* in, const int* inembed,  \
                               int istride, int idist, C* out, const int* onembed, int ostride, \
                               int odist, unsigned flags) {                                     \
    return boundary(P "plan_many_dft_r2c", X(plan){}, [&] {                                     \
      auto r = capi::manyRequest(rank, n, howmany, inembed, istride, idist, onembed, ostride,   \
                                 odist, fftc::fftlib::Direction::Forward, true, PREC);                  \
      return capi::makePlan<X(plan)>(r, in, out, flags);                                        \
    });                                                                                         \
  }                                                                                             \
  X(plan) X(plan_dft_c2r_1d)(int n, C* in, R* out, unsigned flags) {                            \
    return X(plan_dft_c2r)(1, &n, in, out, flags);                                              \
  }                                                                                             \
  X(plan) X(plan_dft_c2r_2d)(int n0, int n1, C* in, R* out, unsigned flags) {                   \
    const int n[] = {n0, n1};                                                                   \
    return X(plan_dft_c2r)(2, n, in, out, flags);                                               \
  }                                                                                             \
  X(plan) X(plan_dft_c2r_3d)(int n0, int n1, int n2, C* in, R* out, unsigned flags) {           \
    const int n[] = {n0, n1, n2};                                                               \
    return X(plan_dft_c2r)(3, n, in, out, flags);                                               \
  }                                                                                             \
  X(plan) X(plan_dft_c2r)(int rank, const int* n, C* in, R* out, unsigned flags) {              \
    return boundary(P "plan_dft_c2r", X(plan){}, [&] {                                          \
      auto r = capi::realRequest(rank, n, in, out, false, PREC);                                \
      return capi::makePlan<X(plan)>(r, in, out, flags);                                        \
    });                                                                                         \
  }                                                                                             \
  X(plan) X(plan_many_dft_c2r)(int rank, const int* n, int howmany, C* in, const int* inembed,  \
                               int istride, int idist, R* out, const int* onembed, int ostride, \
                               int odist, unsigned flags) {                                     \
    return boundary(P "plan_many_dft_c2r", X(plan){}, [&] {                                     \
      auto r = capi::manyRequest(rank, n, howmany, inembed, istride, idist, onembed, ostride,   \
                                 odist, fftc::fftlib::Direction::Inverse, true, PREC);                  \
      return capi::makePlan<X(plan)>(r, in, out, flags);                                        \
    });                                                                                         \
  }                                                                                             \
  int X(execute)(const X(plan) p) {                                                             \
    return boundary(P "execute", -1, [&] {                                                      \
      capi::planOf(p).execute();                                                                \
      return 0;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  int X(execute_dft)(const X(plan) p, C* in, C* out) {                                          \
    return boundary(P "execute_dft", -1, [&] {                                                  \
      capi::CPlan& plan = capi::planOf(p);                                                      \
      capi::checkKind(plan, capi::CPlan::Kind::C2C, "complex to complex");                      \
      plan.executeHost(in, out);                                                                \
      return 0;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  int X(execute_dft_r2c)(const X(plan) p, R* in, C* out) {                                      \
    return boundary(P "execute_dft_r2c", -1, [&] {                                              \
      capi::CPlan& plan = capi::planOf(p);                                                      \
      capi::checkKind(plan, capi::CPlan::Kind::R2C, "real to complex (r2c)");                   \
      plan.executeHost(in, out);                                                                \
      return 0;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  int X(execute_dft_c2r)(const X(plan) p, C* in, R* out) {                                      \
    return boundary(P "execute_dft_c2r", -1, [&] {                                              \
      capi::CPlan& plan = capi::planOf(p);                                                      \
      capi::checkKind(plan, capi::CPlan::Kind::C2R, "complex to real (c2r)");                   \
      plan.executeHost(in, out);                                                                \
      return 0;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  int X(execute_cl)(const X(plan) p, struct _cl_mem* in, struct _cl_mem* out,                   \
                    struct _cl_command_queue* queue) {                                          \
    return boundary(P "execute_cl", -1, [&] {                                                   \
      capi::planOf(p).executeCl(in, out, queue);                                                \
      return 0;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  int X(execute_cuda)(const X(plan) p, void* in, void* out, struct CUstream_st* stream) {       \
    return boundary(P "execute_cuda", -1, [&] {                                                 \
      capi::planOf(p).executeCuda(in, out, stream);                                             \
      return 0;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  void X(destroy_plan)(X(plan) p) { delete p; }                                                 \
  int X(import_wisdom_from_filename)(const char* filename) {                                    \
    return boundary(P "import_wisdom_from_filename", 0, [&] {                                   \
      if (filename == nullptr) throw capi::UserError("the file name is NULL");                  \
      capi::importWisdom(filename);                                                             \
      return 1;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  int X(export_wisdom_to_filename)(const char* filename) {                                      \
    return boundary(P "export_wisdom_to_filename", 0, [&] {                                     \
      if (filename == nullptr) throw capi::UserError("the file name is NULL");                  \
      capi::exportWisdom(filename);                                                             \
      return 1;                                                                                 \
    });                                                                                         \
  }                                                                                             \
  void X(forget_wisdom)(void) {                                                                 \
    (void)boundary(P "forget_wisdom", 0, [&] {                                                  \
      capi::forgetWisdom();                                                                     \
      return 0;                                                                                 \
    });                                                                                         \
  }

extern "C" {
FFTC_DEFINE_API("fftcf_", FFTC_MANGLE_FLOAT_, float, fftcf_complex, Precision::F32)
FFTC_DEFINE_API("fftc_", FFTC_MANGLE_DOUBLE_, double, fftc_complex, Precision::F64)
}
