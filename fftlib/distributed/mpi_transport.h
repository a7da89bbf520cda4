// The MPI transport of distributed FFTs: MPI_Alltoallv for the global transposes and MPI
// collectives for agreement, on a communicator the caller owns. Header-only, so that libfftc
// itself needs no MPI: a program that uses it links MPI (CMake: MPI::MPI_C).
#pragma once

#include <limits>
// MPI's C API only: Open MPI's and MPICH's deprecated C++ bindings would need libmpi_cxx.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "fftlib/distributed/transport.h"

namespace fftc::distributed {

class MpiTransport final : public Transport {
 public:
  // `comm` must stay valid while the transport is used; MPI must be initialized.
  explicit MpiTransport(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiTransport() override {
    for (auto& [bytes, type] : types_) MPI_Type_free(&type);
  }
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  [[nodiscard]] MPI_Comm communicator() const { return comm_; }
  [[nodiscard]] std::string name() const override { return "MPI_Alltoallv"; }

  void alltoallv(const void* send, const std::vector<int64_t>& sendCounts,
                 const std::vector<int64_t>& sendOffsets, void* recv,
                 const std::vector<int64_t>& recvCounts, const std::vector<int64_t>& recvOffsets,
                 std::size_t elemBytes) override {
    const auto sc = ints(sendCounts), so = ints(sendOffsets), rc = ints(recvCounts),
               ro = ints(recvOffsets);
    const MPI_Datatype t = element(elemBytes);
    check(MPI_Alltoallv(send, sc.data(), so.data(), t, recv, rc.data(), ro.data(), t, comm_),
          "MPI_Alltoallv");
  }

  void gatherv(const void* send, int64_t count, void* recv, const std::vector<int64_t>& counts,
               const std::vector<int64_t>& offsets, std::size_t elemBytes, int root) override {
    const MPI_Datatype t = element(elemBytes);
    std::vector<int> c, o;
    if (rank_ == root) c = ints(counts), o = ints(offsets);
    check(MPI_Gatherv(send, ints({count})[0], t, recv, c.data(), o.data(), t, root, comm_),
          "MPI_Gatherv");
  }

  int64_t allreduce(int64_t value, ReduceOp op) override {
    int64_t out = 0;
    const MPI_Op o = op == ReduceOp::Min ? MPI_MIN : op == ReduceOp::Max ? MPI_MAX : MPI_SUM;
    check(MPI_Allreduce(&value, &out, 1, MPI_INT64_T, o, comm_), "MPI_Allreduce");
    return out;
  }

  void broadcast(void* data, std::size_t bytes, int root) override {
    check(MPI_Bcast(data, ints({static_cast<int64_t>(bytes)})[0], MPI_BYTE, root, comm_),
          "MPI_Bcast");
  }
  using Transport::broadcast;

 private:
  // MPI counts and displacements are ints: in elements of the FFT's type (a contiguous type of
  // elemBytes bytes), a rank may hold up to 2^31 - 1 elements (16 GiB of complex f64).
  static std::vector<int> ints(const std::vector<int64_t>& v) {
    std::vector<int> r;
    r.reserve(v.size());
    for (int64_t x : v) {
      if (x < 0 || x > std::numeric_limits<int>::max())
        throw backends::UserError("an MPI message of more than 2^31 - 1 elements: use more ranks");
      r.push_back(static_cast<int>(x));
    }
    return r;
  }
  MPI_Datatype element(std::size_t bytes) {
    for (auto& [b, type] : types_)
      if (b == bytes) return type;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    types_.emplace_back(bytes, type);
    return type;
  }
  // With MPI's default error handler (MPI_ERRORS_ARE_FATAL) a failure aborts the job before
  // returning; this reports the codes of a communicator set to MPI_ERRORS_RETURN.
  static void check(int code, const char* what) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw backends::DeviceError(std::string(what) + ": " + std::string(text, length));
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::vector<std::pair<std::size_t, MPI_Datatype>> types_;
};

}  // namespace fftc::distributed
