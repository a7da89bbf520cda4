// FFTW-like wisdom: the best configuration found for a problem on a device, keyed by device,
// driver and build; wisdom recorded elsewhere is refused with a reason, never silently used.
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fftc::tuner {

struct WisdomKey {
  std::string device;   // e.g. "NVIDIA H100 80GB HBM3"
  std::string driver;   // e.g. "CUDA 13.0 / driver 580.65"
  std::string build;    // the fftc build that tuned it (version + git hash)
  std::string problem;  // e.g. "fft c2c f32 n=4096 batch=16384 forward"
  friend bool operator==(const WisdomKey&, const WisdomKey&) = default;
};

struct WisdomEntry {
  boost::json::object config;  // parameter -> value (SearchSpace::indexOf reads it back)
  double cost = 0;
  boost::json::value extra;  // what the cost function reported with the cost
  std::string recorded;      // UTC time, ISO 8601 (set by record() when empty)
};

struct WisdomLookup {
  std::optional<WisdomEntry> entry;
  std::string reason;  // why there is no entry (e.g. recorded on another device)
  explicit operator bool() const { return entry.has_value(); }
};

class Wisdom {
 public:
  // A missing file is empty wisdom; an unreadable or malformed one throws TunerError.
  static Wisdom load(const std::filesystem::path& path);
  // Writes to a temporary file next to `path` and renames it over `path`, so that a reader
  // sees the old or the new wisdom, never half of it.
  void save(const std::filesystem::path& path) const;
  // load + record + save; returns whether the entry was stored.
  static bool update(const std::filesystem::path& path, const WisdomKey& key, WisdomEntry entry,
                     bool onlyIfBetter = true);

  WisdomLookup lookup(const WisdomKey& key) const;
  // Whether any entry (of any device, driver or build) is for `problem`.
  bool contains(std::string_view problem) const;
  // Stores the entry for key, replacing an earlier one (only if cheaper, by default).
  bool record(const WisdomKey& key, WisdomEntry entry, bool onlyIfBetter = true);
  std::size_t size() const { return entries_.size(); }

  boost::json::value toJson() const;
  static Wisdom fromJson(const boost::json::value& j, const std::string& where);

 private:
  std::vector<std::pair<WisdomKey, WisdomEntry>> entries_;
};

}  // namespace fftc::tuner
