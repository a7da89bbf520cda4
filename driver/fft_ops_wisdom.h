// Wisdom for the fft operations of a kernel (issue 24): `fftc tune FILE.fdl` on a kernel with
// fft/ifft keeps the fastest plans of its row maps (fftlib/tune/fft_ops_space.h) for the kernel's
// text, its -D sizes, precision, target and local-memory budget on a device; `exec` (and
// `compile --device`) apply them unless the plans are given (--fft-ops, --chain-radix). The same
// file as the other wisdom, through the same functions (kernel_wisdom.h: findWisdom, recordWisdom).
#pragma once

#include <boost/json.hpp>
#include <functional>
#include <optional>
#include <string>

#include "driver/kernel_wisdom.h"
#include "fftlib/plan/fft_ops.h"

namespace fftc::driver {

// "fft-ops " + the kernel problem's name + the local-memory budget the plans were chosen under
// (fftlib::localMemoryBudget of `limits`: the planner's veto depends on it): never a general
// kernel's entry (a strategy).
std::string fftOpsProblemName(const KernelProblem& problem, const fftlib::FftRequest& limits);

// Records `config` (the tuner's configuration of the space's parameters) taking `ms`; the file,
// or "" when nothing was written (no wisdom file, or an entry at least as fast is there).
std::string recordFftOpsWisdom(const std::string& option, const KernelProblem& problem,
                               const fftlib::FftRequest& limits,
                               const fftlib::tune::DeviceIdentity& id,
                               const boost::json::object& config, double ms,
                               boost::json::value extra = nullptr);

// "" when `planned` has the row maps of `heuristic` (the kernel expanded with the default
// options): as many, of the same sizes and batches in the same order; else why not. A plan that
// puts an earlier row map in the one-kernel form where the planner does not shifts the indices
// of the later ones (FftOpsOptions::forms), so that their settings would land on other maps.
std::string formsDiffer(const fftlib::ExpandedFftOps& planned,
                        const fftlib::ExpandedFftOps& heuristic);

// exec's and compile's wisdom: the kernel expanded by the plans `fftc tune` recorded for the
// problem at `limits` on the device `identity()` names (called only when the file has an entry
// for the problem), or nullopt: no entry, one of another device, or plans that the planner now
// refuses or whose row maps are not the heuristic's (formsDiffer). A note on stderr says which
// (and when they are applied); without them the caller plans as the planner does.
std::optional<fftlib::ExpandedFftOps> applyFftOpsWisdom(
    const std::string& option, const KernelProblem& problem, const compiler::frontend::Kernel& k,
    const fftlib::FftRequest& limits, int64_t chainRadix,
    const std::function<fftlib::tune::DeviceIdentity()>& identity);

// exec's and compile's options of the expansion: --fft-ops CONFIG (the JSON a wisdom entry holds,
// fftlib::tune::fftOpsOptionsFromJson) when given, and --chain-radix.
fftlib::FftOpsOptions fftOpsChoices(int64_t chainRadix, const std::string& config);

}  // namespace fftc::driver
