// The append-only tuning log: one JSON line per evaluated configuration, keyed by device,
// driver, problem and parameter order, so that an interrupted tuning run can resume.
#pragma once

#include "tuner/cost_function.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fftc::tuner {

// What a log belongs to. Lines recorded under another key are refused, not mixed in.
struct LogKey {
  std::string device;                   // e.g. "NVIDIA H100 80GB HBM3"
  std::string driver;                   // e.g. "CUDA 13.0 / driver 580.65"
  std::string problem;                  // e.g. "fft c2c f32 n=4096 batch=16384 forward"
  std::vector<std::string> parameters;  // the space's parameter names, in order
};

struct LogEntry {
  boost::json::object config;  // parameter -> value, in the key's parameter order
  Result result;
  double seconds = 0;    // time the evaluation took (compile + check + measure)
  std::size_t line = 0;  // 1-based line in the file; 0 for lines appended by this object
};

class TuningLog {
 public:
  // Opens the log at `path`, creating it (and its folder) if missing, and reads its entries.
  // Throws TunerError ("FILE:LINE: ...") for a line recorded under another key or a corrupt
  // line; a truncated last line (an interrupted write) is cut off with a warning.
  TuningLog(std::filesystem::path path, LogKey key);

  const LogKey& key() const { return key_; }
  const std::filesystem::path& path() const { return path_; }
  const std::vector<LogEntry>& entries() const { return entries_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Appends one line and flushes it.
  void append(const Configuration& c, const Result& r, double seconds);

 private:
  void read();
  LogEntry parseLine(const std::string& text, std::size_t line) const;

  std::filesystem::path path_;
  LogKey key_;
  std::vector<LogEntry> entries_;
  std::vector<std::string> warnings_;
  std::ofstream out_;
};

}  // namespace fftc::tuner
