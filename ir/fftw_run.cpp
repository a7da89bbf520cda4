// The process's FFTW planner lock (fftw_run.h).
#include "ir/fftw_run.h"

namespace fftc::ir {

std::mutex& fftwPlannerMutex() {
  static std::mutex m;
  return m;
}

}  // namespace fftc::ir
