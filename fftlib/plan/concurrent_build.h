// Building a plan's device programs concurrently (issue 21): one task per stage, run on at most
// std::thread::hardware_concurrency() threads, the results in stage order.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace fftc::fftlib {

// How many threads buildConcurrently uses for `tasks` tasks: one a task, at most one a core,
// or at most FFTC_BUILD_THREADS when that is set to a positive number (1: the plans build
// their whole module as one program instead, which one thread does faster).
inline std::size_t buildThreads(std::size_t tasks) {
  std::size_t cores = std::max<std::size_t>(1, std::thread::hardware_concurrency());
  if (const char* v = std::getenv("FFTC_BUILD_THREADS"); v != nullptr && std::atoi(v) > 0)
    cores = static_cast<std::size_t>(std::atoi(v));
  return std::min(tasks, cores);
}

// build(i) for i < count, on buildThreads(count) threads (the calling thread is one of them;
// fewer where starting one throws std::system_error); returns the results by index. When tasks
// throw, the exception of the lowest index is rethrown once all have finished (the same error a
// serial build would have reported first).
template <class Build>
auto buildConcurrently(std::size_t count, Build build) {
  using T = decltype(build(std::size_t{0}));
  std::vector<std::optional<T>> results(count);
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        results[i].emplace(build(i));
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  const std::size_t n = buildThreads(count);
  // where the system gives no more threads (std::system_error), those started and the calling
  // one take the rest of the tasks: each takes the next index until none is left
  for (std::size_t t = 1; t < n; ++t) {
    try {
      threads.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  std::vector<T> out;
  out.reserve(count);
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

}  // namespace fftc::fftlib
