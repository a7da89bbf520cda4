// Wisdom for the fft operations of a kernel (issue 24): `fftc tune FILE.fdl` on a kernel with
// fft/ifft keeps the fastest plans of its row maps (fftlib/tune/fft_ops_space.h) for the kernel's
// text, its -D sizes, precision and target on a device; `exec` (and `compile --device`) apply
// them unless the plans are given (--fft-ops, --chain-radix). The same file as the other wisdom.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>

#include "driver/kernel_wisdom.h"
#include "fftlib/plan/fft_ops.h"

namespace fftc::driver {

// "fft-ops " + the kernel problem's name: never a general kernel's entry (a strategy).
std::string fftOpsProblemName(const KernelProblem& problem);

// Records `config` (the tuner's configuration of the space's parameters) taking `ms`; the file,
// or "" when nothing was written (no wisdom file, or an entry at least as fast is there).
std::string recordFftOpsWisdom(const std::string& option, const KernelProblem& problem,
                               const fftlib::tune::DeviceIdentity& id,
                               const boost::json::object& config, double ms,
                               boost::json::value extra = nullptr);

// Whether the wisdom file has an entry for the problem's fft operations (no device needed).
bool fftOpsWisdomMayApply(const std::string& option, const KernelProblem& problem);

// The recorded configuration for the device `id`, or nullopt (`note` says why when the file has
// an entry for the problem, or what was found).
std::optional<boost::json::object> fftOpsWisdomConfig(const std::string& option,
                                                      const KernelProblem& problem,
                                                      const fftlib::tune::DeviceIdentity& id,
                                                      std::string& note);

// exec's and compile's options of the expansion: --fft-ops CONFIG (the JSON a wisdom entry holds,
// fftlib::tune::fftOpsOptionsFromJson) when given, and --chain-radix.
fftlib::FftOpsOptions fftOpsChoices(int64_t chainRadix, const std::string& config);

}  // namespace fftc::driver
