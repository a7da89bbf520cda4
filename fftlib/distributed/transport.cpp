// Agreement on requests and failures across ranks, and the one-process transport (transport.h).
#include "fftlib/distributed/transport.h"

#include <cstring>
#include <fmt/format.h>
#include <new>
#include <stdexcept>

#include "backends/common/device_error.h"

namespace fftc::distributed {

void Transport::broadcast(std::string& text, int root) {
  auto bytes = static_cast<int64_t>(text.size());
  broadcast(&bytes, sizeof bytes, root);
  text.resize(static_cast<std::size_t>(bytes));
  if (bytes > 0) broadcast(text.data(), text.size(), root);
}

namespace {

std::pair<FailureKind, std::string> classify(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const backends::UserError& e) {
    return {FailureKind::User, e.what()};
  } catch (const backends::DeviceError& e) {
    return {FailureKind::Device, e.what()};
  } catch (const std::bad_alloc&) {
    return {FailureKind::OutOfMemory, "the host could not allocate what these sizes need"};
  } catch (const std::exception& e) {
    return {FailureKind::Internal, e.what()};
  } catch (...) {
    return {FailureKind::Internal, "an unknown exception"};
  }
}

}  // namespace

void agree(Transport& transport, const std::exception_ptr& failure) {
  const int p = transport.size();
  const int64_t first = transport.allreduce(failure ? transport.rank() : p, ReduceOp::Min);
  if (first == p) return;
  const int64_t failed = transport.allreduce(failure ? 1 : 0, ReduceOp::Sum);
  auto [kind, message] = failure ? classify(failure) : std::pair{FailureKind::Internal, ""};
  auto kindValue = static_cast<int64_t>(kind);
  transport.broadcast(&kindValue, sizeof kindValue, static_cast<int>(first));
  transport.broadcast(message, static_cast<int>(first));
  if (failed < p) message = fmt::format("rank {}: {}", first, message);
  switch (static_cast<FailureKind>(kindValue)) {
    case FailureKind::User: raiseAgreed(std::make_exception_ptr(backends::UserError(message)));
    case FailureKind::Device:
      raiseAgreed(std::make_exception_ptr(backends::DeviceError(message)));
    case FailureKind::OutOfMemory: raiseAgreed(std::make_exception_ptr(std::bad_alloc()));
    default: raiseAgreed(std::make_exception_ptr(std::runtime_error(message)));
  }
}

namespace {
std::exception_ptr& lastAgreed() {
  static std::exception_ptr e;
  return e;
}
}  // namespace

void raiseAgreed(const std::exception_ptr& failure) {
  lastAgreed() = failure;
  std::rethrow_exception(failure);  // the same object: current_exception() compares equal
}

bool wasAgreed(const std::exception_ptr& failure) {
  return failure && failure == lastAgreed();
}

void agreeOnRequest(Transport& transport, const std::string& description) {
  std::string first = description;
  transport.broadcast(first, 0);
  const int p = transport.size();
  const int64_t other =
      transport.allreduce(first == description ? p : transport.rank(), ReduceOp::Min);
  if (other == p) return;
  std::string theirs = description;
  transport.broadcast(theirs, static_cast<int>(other));
  raiseAgreed(std::make_exception_ptr(backends::UserError(
      fmt::format("the ranks disagree on the request: rank 0 has {}, rank {} has {}", first,
                  other, theirs))));
}

void SelfTransport::alltoallv(const void* send, const std::vector<int64_t>& sendCounts,
                              const std::vector<int64_t>& sendOffsets, void* recv,
                              const std::vector<int64_t>& recvCounts,
                              const std::vector<int64_t>& recvOffsets, std::size_t elemBytes) {
  if (sendCounts.at(0) != recvCounts.at(0))
    throw std::logic_error("SelfTransport::alltoallv: the counts differ");
  if (sendCounts[0] > 0)
    std::memmove(static_cast<std::byte*>(recv) + recvOffsets.at(0) * static_cast<int64_t>(elemBytes),
                 static_cast<const std::byte*>(send) + sendOffsets.at(0) * static_cast<int64_t>(elemBytes),
                 static_cast<std::size_t>(sendCounts[0]) * elemBytes);
}

void SelfTransport::gatherv(const void* send, int64_t count, void* recv,
                            const std::vector<int64_t>&, const std::vector<int64_t>& offsets,
                            std::size_t elemBytes, int) {
  if (count > 0)
    std::memmove(static_cast<std::byte*>(recv) + offsets.at(0) * static_cast<int64_t>(elemBytes),
                 send, static_cast<std::size_t>(count) * elemBytes);
}

}  // namespace fftc::distributed
