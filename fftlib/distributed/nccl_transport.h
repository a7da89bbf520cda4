// The NCCL transport of distributed FFTs: the all-to-all as grouped ncclSend/ncclRecv on CUDA
// device memory, libnccl loaded with dlopen at run time (fftc builds and runs without it); the
// control collectives (agreement, the ncclUniqueId's broadcast) go through a host transport (MPI).
#pragma once

#ifdef FFTC_HAVE_CUDA

#include <memory>
#include <string>

#include "fftlib/distributed/transport.h"

namespace fftc::distributed {

// A Device transport: alltoallv's and gatherv's pointers are CUdeviceptr values of the current
// CUDA context (a distributed plan on cudaDevice passes its buffers'; docs/distributed.md).
class NcclTransport final : public Transport {
 public:
  // Collective over `control`'s ranks: rank 0 makes the ncclUniqueId, `control` broadcasts it,
  // each rank joins the communicator on the current CUDA device. DeviceError (on every rank,
  // through agree) when libnccl.so.2 is missing or the communicator cannot be made.
  explicit NcclTransport(Transport& control);
  ~NcclTransport() override;
  NcclTransport(const NcclTransport&) = delete;
  NcclTransport& operator=(const NcclTransport&) = delete;

  [[nodiscard]] int rank() const override { return control_.rank(); }
  [[nodiscard]] int size() const override { return control_.size(); }
  [[nodiscard]] MemorySpace memory() const override { return MemorySpace::Device; }
  [[nodiscard]] std::string name() const override { return "NCCL"; }

  // One ncclGroupStart/End of a send and a receive per peer with a message (bytes, as ncclInt8),
  // on the default stream, then waits for it (wait(): an asynchronous NCCL error aborts the
  // communicator and throws DeviceError here, and on every later call).
  void alltoallv(const void* send, const std::vector<int64_t>& sendCounts,
                 const std::vector<int64_t>& sendOffsets, void* recv,
                 const std::vector<int64_t>& recvCounts, const std::vector<int64_t>& recvOffsets,
                 std::size_t elemBytes) override;
  // Every rank sends to `root`, which receives from each (grouped point-to-point).
  void gatherv(const void* send, int64_t count, void* recv, const std::vector<int64_t>& counts,
               const std::vector<int64_t>& offsets, std::size_t elemBytes, int root) override;
  int64_t allreduce(int64_t value, ReduceOp op) override { return control_.allreduce(value, op); }
  void broadcast(void* data, std::size_t bytes, int root) override {
    control_.broadcast(data, bytes, root);
  }
  using Transport::broadcast;

  // Whether libnccl can be loaded here (`reason` gets why not); never throws.
  static bool available(std::string* reason = nullptr);

  struct Api;

 private:
  // Waits for the stream's exchange; DeviceError (the communicator aborted) on NCCL's
  // asynchronous error.
  void wait();
  void checkOpen() const;
  Transport& control_;
  const Api* api_ = nullptr;
  void* comm_ = nullptr;  // ncclComm_t
};

}  // namespace fftc::distributed

#endif
