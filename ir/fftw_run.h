// FFTW made safe to call from any thread: FFTW's planner is not thread-safe, so every plan of
// the process, in long double (ir::exactDft, fftlib's oracle) or double (ir::exactDftRounded's
// f32 values), is made and destroyed under one lock.
#pragma once

#include <fftw3.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace fftc::ir {

std::mutex& fftwPlannerMutex();

// Plans (make() under the lock), executes, destroys; std::runtime_error when FFTW gives no plan.
template <typename MakePlan>
void runFftwl(MakePlan make, const char* what) {
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftwPlannerMutex());
    plan = make();
  }
  if (!plan) throw std::runtime_error(std::string(what) + ": FFTW could not plan the transform");
  fftwl_execute(plan);
  std::lock_guard<std::mutex> lock(fftwPlannerMutex());
  fftwl_destroy_plan(plan);
}

// runFftwl's double precision twin (fftw_plan).
template <typename MakePlan>
void runFftw(MakePlan make, const char* what) {
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftwPlannerMutex());
    plan = make();
  }
  if (!plan) throw std::runtime_error(std::string(what) + ": FFTW could not plan the transform");
  fftw_execute(plan);
  std::lock_guard<std::mutex> lock(fftwPlannerMutex());
  fftw_destroy_plan(plan);
}

}  // namespace fftc::ir
