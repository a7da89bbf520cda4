// Wisdom for general kernels (issue 26): `fftc explore --record` (and `fftc tune FILE.fdl`)
// keep the fastest rewrite strategy of a kernel on a device; `exec` and `compile --device`
// apply it when no --rewrite is given. The same file as the FFT planner's wisdom (tuner/wisdom.h).
#pragma once

#include <boost/json.hpp>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/pipeline/pipeline.h"
#include "fftlib/tune/fft_cost.h"
#include "tuner/wisdom.h"

namespace fftc::driver {

// What an entry is for: the kernel, its file's text (hashed), the -D bindings, the precision
// and the target, e.g. "kernel gemm file=gemm.fdl#1a2b... f32 cuda -D K=128,M=128,N=128".
struct KernelProblem {
  std::string file, kernel, precision, target;
  std::vector<std::string> defines;  // as given to -D
  std::string name() const;
};

// What every kind of entry shares, by the problem's full name (KernelProblem::name() for a
// strategy, fftOpsProblemName for the plans of fft operations, fft_ops_wisdom.h); `option` is
// --wisdom (else the default path of CLI.md).
// Records `e` for `problem` on the device `id` when it is cheaper than what is there; the file,
// or "" when there is no wisdom file to write (no HOME) or the entry was not better.
std::string recordWisdom(const std::string& option, const std::string& problem,
                         const fftlib::tune::DeviceIdentity& id, tuner::WisdomEntry e);
// Whether the wisdom file has an entry for `problem` on any device (no device needed).
bool wisdomMayApply(const std::string& option, const std::string& problem);
// The entry for `problem` on the device `identity()`, called (a device opened) only when the file
// has an entry for the problem: `file` is "" when it has none (or there is no file), else
// `found` holds the entry or why there is none (another device, driver or build).
struct FoundWisdom {
  std::string file;
  tuner::WisdomLookup found;
};
FoundWisdom findWisdom(const std::string& option, const std::string& problem,
                       const std::function<fftlib::tune::DeviceIdentity()>& identity);

// Records `strategy` (taking `ms` on the device `id`; `config`, the tuner's configuration
// that gave it, is kept beside it) in the wisdom file (`option`, else the
// default path of CLI.md) when it is faster than what is there; returns the file, or "" when
// there is no wisdom file to write (no HOME) or the entry was not better.
std::string recordKernelWisdom(const std::string& option, const KernelProblem& problem,
                               const fftlib::tune::DeviceIdentity& id, const std::string& strategy,
                               double ms, const boost::json::object& config = {});

// Whether the wisdom file has an entry for the problem on any device (no device needed).
bool kernelWisdomMayApply(const std::string& option, const KernelProblem& problem);

// The recorded strategy for the problem on the device `id`, or nullopt (no file, no entry, or
// one of another device, driver or build: `note` says why when the file has an entry for it).
std::optional<std::string> kernelWisdomStrategy(const std::string& option,
                                                const KernelProblem& problem,
                                                const fftlib::tune::DeviceIdentity& id,
                                                std::string& note);

// The identity of the device `selector` names on `target` (opened for it; compile --device).
fftlib::tune::DeviceIdentity deviceIdentity(compiler::pipeline::Target target,
                                            const std::string& selector);

}  // namespace fftc::driver
