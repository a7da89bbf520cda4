// What a distributed FFT needs from its processes' communication: the all-to-all of the global
// transposes (data) and a few collectives to agree on requests and errors (control).
// MPI (mpi_transport.h) gives both; NCCL (nccl_transport.h) the data part on device memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace fftc::distributed {

// Where alltoallv's buffers live: Host (MPI; a distributed plan stages its device buffers
// through the host for it) or Device (NCCL's grouped ncclSend/ncclRecv on CUDA memory).
enum class MemorySpace { Host, Device };

enum class ReduceOp { Min, Max, Sum };

class Transport {
 public:
  virtual ~Transport() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int size() const = 0;
  [[nodiscard]] virtual MemorySpace memory() const { return MemorySpace::Host; }
  // What carries the all-to-all, for reports: "MPI_Alltoallv", "NCCL".
  [[nodiscard]] virtual std::string name() const = 0;

  // Collective: rank q's message to rank r is sendCounts[r] elements of `elemBytes` bytes at
  // send + sendOffsets[r] elements, and arrives at recv + recvOffsets[q] on rank r
  // (MPI_Alltoallv's contract, counts in elements).
  virtual void alltoallv(const void* send, const std::vector<int64_t>& sendCounts,
                         const std::vector<int64_t>& sendOffsets, void* recv,
                         const std::vector<int64_t>& recvCounts,
                         const std::vector<int64_t>& recvOffsets, std::size_t elemBytes) = 0;
  // Collective: every rank's `count` elements to `root`, placed at recv + offsets[q] there
  // (counts and offsets read on the root only).
  virtual void gatherv(const void* send, int64_t count, void* recv,
                       const std::vector<int64_t>& counts, const std::vector<int64_t>& offsets,
                       std::size_t elemBytes, int root) = 0;

  // Control collectives, on host values.
  virtual int64_t allreduce(int64_t value, ReduceOp op) = 0;
  virtual void broadcast(void* data, std::size_t bytes, int root) = 0;
  void broadcast(std::string& text, int root);  // the root's text on every rank
};

// The kinds of failure that every rank re-raises the same way (the fftc exit statuses).
enum class FailureKind : int64_t { User = 1, Device = 2, Internal = 4, OutOfMemory = 5 };

// Collective. Every rank passes what its own part of a step threw (null when it succeeded);
// when any rank failed, every rank throws the error of the first rank that failed, of the same
// kind (backends::UserError, backends::DeviceError, std::bad_alloc as OutOfMemory, else
// std::runtime_error), its message prefixed by "rank R: " unless every rank failed. So a
// failure on one rank ends the step on all of them instead of leaving the others waiting in
// the next exchange.
void agree(Transport& transport, const std::exception_ptr& failure);

// Throws `failure`, recording it as raised on every rank alike (agree() throws this way), so
// that a handler can tell an agreed failure, after which every rank may finalize together,
// from one that only this rank raised (then MPI_Abort is the last resort): wasAgreed.
[[noreturn]] void raiseAgreed(const std::exception_ptr& failure);
[[nodiscard]] bool wasAgreed(const std::exception_ptr& failure);

// Collective. UserError on every rank unless every rank passes the same `description`
// (a request's text): "the ranks disagree on the request: rank 0 has ..., rank R has ...".
void agreeOnRequest(Transport& transport, const std::string& description);

// One process alone (P = 1): the exchange is a copy. For tests and single-GPU baselines of the
// distributed path without MPI.
class SelfTransport final : public Transport {
 public:
  [[nodiscard]] int rank() const override { return 0; }
  [[nodiscard]] int size() const override { return 1; }
  [[nodiscard]] std::string name() const override { return "a copy (one process)"; }
  void alltoallv(const void* send, const std::vector<int64_t>& sendCounts,
                 const std::vector<int64_t>& sendOffsets, void* recv,
                 const std::vector<int64_t>& recvCounts, const std::vector<int64_t>& recvOffsets,
                 std::size_t elemBytes) override;
  void gatherv(const void* send, int64_t count, void* recv, const std::vector<int64_t>& counts,
               const std::vector<int64_t>& offsets, std::size_t elemBytes, int root) override;
  int64_t allreduce(int64_t value, ReduceOp) override { return value; }
  void broadcast(void*, std::size_t, int) override {}
};

}  // namespace fftc::distributed
