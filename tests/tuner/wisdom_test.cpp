// Wisdom: round trip, refusal for another device, driver or build, atomic replacement.
#include "common.h"

#include "tuner/wisdom.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace fftc::tuner;
using namespace fftc::tuner::testing;

namespace {
const WisdomKey kKey{"NVIDIA H100", "CUDA 13.0", "fftc 0.1.0+abc123", "fft c2c f32 n=4096"};

WisdomEntry entry(double cost) {
  WisdomEntry e;
  e.config = boost::json::object{{"R", boost::json::array{16, 16, 16}}, {"WG", 256}};
  e.cost = cost;
  e.extra = boost::json::object{{"gbps", 3000.5}};
  return e;
}
}  // namespace

TEST(Wisdom, RoundTrip) {
  auto path = tempPath("wisdom/w.json");          // the folder is created
  EXPECT_FALSE(Wisdom::load(path).lookup(kKey));  // missing file: no wisdom
  EXPECT_TRUE(Wisdom::update(path, kKey, entry(0.25)));
  WisdomKey f64 = kKey;
  f64.problem = "fft c2c f64 n=4096";
  EXPECT_TRUE(Wisdom::update(path, f64, entry(0.5)));
  auto w = Wisdom::load(path);
  EXPECT_EQ(w.size(), 2u);
  auto hit = w.lookup(kKey);
  ASSERT_TRUE(hit) << hit.reason;
  EXPECT_EQ(hit.entry->cost, 0.25);
  EXPECT_EQ(boost::json::serialize(hit.entry->config), R"({"R":[16,16,16],"WG":256})");
  EXPECT_EQ(hit.entry->extra.at("gbps").as_double(), 3000.5);
  EXPECT_EQ(hit.entry->recorded.size(), 20u);  // 2026-11-21T10:00:00Z
  // No temporary file is left next to it.
  int files = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(path.parent_path()))
    ++files;
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(path.parent_path());
}

TEST(Wisdom, OnlyBetterReplaces) {
  Wisdom w;
  EXPECT_TRUE(w.record(kKey, entry(0.25)));
  EXPECT_FALSE(w.record(kKey, entry(0.5)));
  EXPECT_EQ(w.lookup(kKey).entry->cost, 0.25);
  EXPECT_TRUE(w.record(kKey, entry(0.125)));
  EXPECT_TRUE(w.record(kKey, entry(0.75), /*onlyIfBetter=*/false));
  EXPECT_EQ(w.lookup(kKey).entry->cost, 0.75);
  EXPECT_EQ(w.size(), 1u);
}

TEST(Wisdom, OtherDeviceDriverOrBuildIsRefusedWithAReason) {
  Wisdom w;
  w.record(kKey, entry(0.25));
  WisdomKey k = kKey;
  k.device = "NVIDIA H200";
  auto r = w.lookup(k);
  EXPECT_FALSE(r);
  EXPECT_EQ(r.reason,
            "wisdom for 'fft c2c f32 n=4096' was recorded on device 'NVIDIA H100' "
            "(this is 'NVIDIA H200'); not used (tune again here)");
  k = kKey;
  k.build = "fftc 0.2.0+def456";
  r = w.lookup(k);
  EXPECT_FALSE(r);
  EXPECT_NE(r.reason.find("by build 'fftc 0.1.0+abc123' (this is 'fftc 0.2.0+def456')"),
            std::string::npos)
      << r.reason;
  k = kKey;
  k.driver = "CUDA 12.4";
  EXPECT_NE(w.lookup(k).reason.find("with driver 'CUDA 13.0'"), std::string::npos);
  k = kKey;
  k.problem = "fft c2c f32 n=8192";
  EXPECT_EQ(w.lookup(k).reason, "no wisdom for 'fft c2c f32 n=8192'");
}

TEST(Wisdom, MalformedFilesAreErrors) {
  auto path = tempPath("bad_wisdom.json");
  std::ofstream(path) << "{\"entries\": 3}";
  EXPECT_THROW(Wisdom::load(path), TunerError);
  std::ofstream(path) << "{\"fftc_wisdom\": 1, \"entries\": [";
  EXPECT_THROW(Wisdom::load(path), TunerError);
  std::ofstream(path) << R"({"fftc_wisdom": 1, "entries": [{"device": "x"}]})";
  EXPECT_THROW(Wisdom::load(path), TunerError);
  std::filesystem::remove(path);
}

TEST(Wisdom, ConfigurationReadsBackIntoTheSpace) {
  auto space = constrainedSpace();
  Wisdom w;
  WisdomEntry e;
  e.config = space.at(123).toJson();
  e.cost = 1;
  w.record(kKey, e);
  auto back = Wisdom::fromJson(w.toJson(), "memory").lookup(kKey);
  ASSERT_TRUE(back);
  EXPECT_EQ(space.indexOf(back.entry->config), 123u);
}
