// The FFT cost and tuning loop (fftlib/tune/): invalid configurations stay invalid however fast,
// the log resumes without measuring again, the heuristic plan is measured first; on PoCL the
// real cost function, and `fftc tune` writing wisdom that `fftc run --wisdom` uses.
#include <gtest/gtest.h>

#include <array>
#include <boost/json.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sys/wait.h>
#include <tuple>

#include "backends/common/device_error.h"
#include "fftlib/tune/fft_tune.h"
#include "fftlib/tune/fft_wisdom.h"

namespace {

using namespace fftc::fftlib;
using namespace fftc::fftlib::tune;
namespace fs = std::filesystem;

fs::path tempDir(const std::string& name) {
  auto d = fs::temp_directory_path() / ("fftc_ffttune_test_" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

FftRequest request(int64_t n, int64_t batch) {
  FftRequest r;
  r.size = n;
  r.batch = batch;
  r.format = false;
  return r;
}

// A device that computes the exact DFT (FFTW) in a time that favours fewer passes, except that
// Cooley-Tukey plans give a wrong answer "very fast", twiddle plans fail on the device and
// hierarchical ones are rejected by the "planner".
class FakeExecutor : public FftExecutor {
 public:
  DeviceIdentity identity() const override { return {"Fake GPU", "fake driver 1"}; }
  DeviceLimits limits() const override { return {}; }
  Measurement measure(const FftRequest& r, const MeasureInput& in, std::size_t,
                      std::size_t repeats) override {
    const std::span<const double> input = in.scalars;
    ++calls;
    const bool again = !measured.insert(r.key()).second;
    if (r.variant == Variant::StockhamTwiddle) throw fftc::backends::DeviceError("launch failed");
    if (r.variant == Variant::Hierarchical) throw fftc::backends::UserError("no such shape");
    Measurement m;
    std::vector<ComplexL> x;  // the scalars as complex values (dense 1D requests here)
    for (size_t i = 0; i + 1 < input.size(); i += 2) x.emplace_back(input[i], input[i + 1]);
    for (const auto& v : referenceDft1d(x, r.size, r.batch, r.direction)) {
      m.output.push_back(static_cast<double>(v.real()));
      m.output.push_back(static_cast<double>(v.imag()));
    }
    double ms = 1.0 + static_cast<double>(r.radices.size()) + 0.01 * static_cast<double>(r.workgroupSize);
    m.outputScalars = m.output.size();
    if (r.variant == Variant::CooleyTukey) {
      m.output[6] += 1e-3;  // element 3's real part
      ms = 1e-6;
    }
    if (r.variant == Variant::Stockham && r.radices.size() == 1) {
      if (again && stockhamFailsAgain) throw fftc::backends::DeviceError("out of resources");
      if (!(again && stockhamLuckyOnce)) ms *= stockhamFactor;
    }
    m.timesMs.assign(repeats, ms);
    return m;
  }
  int calls = 0;
  std::set<std::string> measured;
  double stockhamFactor = 1.0;  // the one-pass Stockham plan's time, relative
  bool stockhamLuckyOnce = false;   // stockhamFactor on its first measurement only
  bool stockhamFailsAgain = false;  // it fails on any later measurement
};

TEST(FftCost, WrongFailingOrRejectedConfigurationsAreInvalid) {
  FakeExecutor device;
  FftRequest r = request(16, 2);
  FftCost cost(r, device, {.warmup = 0, .repeats = 3, .seed = 1});
  r.variant = Variant::Stockham;
  r.radices = {4, 4};
  auto ok = cost(r);
  ASSERT_TRUE(ok.isValid()) << ok.reason();
  EXPECT_DOUBLE_EQ(ok.cost(), 3.0);  // the fake's time: 1 + 2 passes
  r.variant = Variant::CooleyTukey;
  auto wrong = cost(r);
  EXPECT_FALSE(wrong.isValid());
  EXPECT_EQ(wrong.reason().rfind("wrong answer", 0), 0u) << wrong.reason();
  r.variant = Variant::StockhamTwiddle;
  EXPECT_EQ(cost(r).reason(), "device error: launch failed");
  r.variant = Variant::Hierarchical;
  EXPECT_EQ(cost(r).reason(), "rejected: no such shape");
}

TEST(FftTuner, InvalidNeverWinsAndTheHeuristicComesFirst) {
  FakeExecutor device;
  FftTuneOptions o;
  o.technique = "exhaustive";
  o.cost = {0, 2, 1};
  FftTuner tuner(request(16, 2), device, o);
  const auto report = tuner.run();
  const auto& res = report.result;
  EXPECT_EQ(res.evaluations.size(), tuner.space().space().size());
  EXPECT_EQ(res.evaluations.front().index, *tuner.space().heuristicIndex());
  ASSERT_TRUE(report.best);
  EXPECT_NE(report.best->variant, Variant::CooleyTukey);  // the "fast" wrong ones
  EXPECT_EQ(report.best->radices, (std::vector<int64_t>{16}));
  EXPECT_EQ(report.best->workgroupSize, 0);  // 1 + 1 pass beats every shape (+0.01 x wg)
  ASSERT_TRUE(report.heuristicCost);
  EXPECT_DOUBLE_EQ(*report.heuristicCost, 2.0);
  // the heuristic plan is the fastest (first found on ties): recorded, nothing to confirm
  EXPECT_TRUE(report.bestIsHeuristic);
  EXPECT_FALSE(report.keptHeuristic);
  EXPECT_FALSE(report.confirmedHeuristicMs);
  EXPECT_EQ(device.calls, static_cast<int>(res.measured));
  uint64_t invalid = 0;
  for (const auto& e : res.evaluations) {
    const auto v = e.config.getString("variant");
    const bool bad = v == "cooley-tukey" || v == "twiddle" || v == "hierarchical";
    EXPECT_EQ(e.result.isValid(), !bad) << e.config.toString();
    invalid += bad;
  }
  EXPECT_EQ(res.invalid, invalid);
  ASSERT_TRUE(report.wisdom);
  EXPECT_EQ(report.wisdom->extra.at("heuristic_ms").as_double(), 2.0);
  EXPECT_EQ(report.key.problem, "fft c2c f32 n=16 batch=2 forward opencl");
}

// A gain below FftTuneOptions::minGain is timing noise: the heuristic plan is recorded.
TEST(FftTuner, SmallGainsKeepTheHeuristicPlan) {
  for (const auto& [factor, minGain, kept] :
       {std::tuple{0.99, 0.02, true}, std::tuple{0.99, 0.0, false}, std::tuple{0.9, 0.02, false}}) {
    SCOPED_TRACE(::testing::Message() << factor << " " << minGain);
    FakeExecutor device;
    device.stockhamFactor = factor;
    FftTuneOptions o;
    o.technique = "exhaustive";
    o.cost = {0, 2, 1};
    o.minGain = minGain;
    FftTuner tuner(request(16, 2), device, o);
    const auto report = tuner.run();
    ASSERT_TRUE(report.best && report.wisdom && report.heuristicCost);
    EXPECT_EQ(report.keptHeuristic, kept);
    // the heuristic plan is the local one; the fake's fastest is Stockham in one pass
    EXPECT_EQ(report.best->variant, kept ? Variant::Local : Variant::Stockham);
    EXPECT_DOUBLE_EQ(report.wisdom->cost, kept ? *report.heuristicCost : 2.0 * factor);
  }
}

// A device whose plans take more local memory (CUDA: the opt-in shared memory per block): the
// tuner plans the problem with that budget, as the device's plans are made, so its heuristic
// configuration is the device's heuristic plan (8192 f32 in one kernel, not two levels) and
// every measured request carries the budget.
TEST(FftTuner, PlansWithTheDevicesLocalMemory) {
  struct WideDevice : FakeExecutor {
    DeviceLimits limits() const override {
      DeviceLimits l;
      l.localMemBytes = l.plan.localMemoryBytes = 232448;
      return l;
    }
  };
  WideDevice device;
  FftTuneOptions o;
  o.technique = "random";
  o.abort = fftc::tuner::evaluations(4);
  o.cost = {0, 1, 1};
  FftTuner wide(request(8192, 1), device, o);
  const auto heuristic = wide.space().heuristicIndex();
  ASSERT_TRUE(heuristic);
  EXPECT_EQ(wide.space().request(wide.space().space().at(*heuristic)).variant, Variant::Local);
  (void)wide.run();
  ASSERT_FALSE(device.measured.empty());
  for (const auto& key : device.measured) EXPECT_NE(key.find(" local=232448"), std::string::npos) << key;
  // a plain device: the planner's 48 KiB, two levels
  FakeExecutor plain;
  FftTuner two(request(8192, 1), plain, o);
  ASSERT_TRUE(two.space().heuristicIndex());
  EXPECT_EQ(two.space().request(two.space().space().at(*two.space().heuristicIndex())).variant,
            Variant::Hierarchical);
}

// The candidates are timed again with the heuristic plan: a gain measured once, or a plan that
// fails when built again, is not recorded; a gain that holds is, with its confirmed time.
TEST(FftTuner, OnlyConfirmedGainsAreRecorded) {
  struct Case {
    bool luckyOnce, failsAgain;
    std::size_t rounds;
    bool kept;
  };
  for (const auto& c : {Case{false, false, 3, false}, Case{true, false, 3, true},
                        Case{true, false, 0, false}, Case{false, true, 3, true},
                        Case{false, false, 1, false}}) {
    SCOPED_TRACE(::testing::Message() << c.luckyOnce << c.failsAgain << c.rounds);
    FakeExecutor device;
    device.stockhamFactor = 0.5;
    device.stockhamLuckyOnce = c.luckyOnce;
    device.stockhamFailsAgain = c.failsAgain;
    FftTuneOptions o;
    o.technique = "exhaustive";
    o.cost = {0, 2, 1};
    o.confirmRounds = c.rounds;
    std::size_t announced = 0;
    o.onConfirm = [&](std::size_t round, std::size_t rounds, std::size_t candidates) {
      EXPECT_EQ(round, announced++);
      EXPECT_EQ(rounds, c.rounds);
      EXPECT_EQ(candidates, 1u);
    };
    FftTuner tuner(request(16, 2), device, o);
    const auto report = tuner.run();
    const auto searched = static_cast<int>(report.result.measured);
    ASSERT_TRUE(report.best && report.wisdom && report.heuristicCost);
    EXPECT_EQ(report.keptHeuristic, c.kept);
    EXPECT_EQ(report.bestIsHeuristic, c.kept);
    EXPECT_EQ(report.best->variant, c.kept ? Variant::Local : Variant::Stockham);
    if (c.rounds == 0) {
      EXPECT_EQ(device.calls, searched);
      EXPECT_FALSE(report.confirmedHeuristicMs);
      EXPECT_DOUBLE_EQ(report.wisdom->cost, 1.0);  // the search's time
      continue;
    }
    // One candidate (the only one 2% faster): it and the heuristic, each round, until it fails.
    EXPECT_EQ(device.calls, searched + static_cast<int>(c.failsAgain ? c.rounds + 1 : 2 * c.rounds));
    EXPECT_EQ(announced, c.rounds);
    ASSERT_TRUE(report.confirmedHeuristicMs && report.confirmedBestMs);
    EXPECT_DOUBLE_EQ(*report.confirmedHeuristicMs, 2.0);
    EXPECT_DOUBLE_EQ(*report.confirmedBestMs, c.kept ? 2.0 : 1.0);
    EXPECT_DOUBLE_EQ(report.wisdom->cost, *report.confirmedBestMs);
    EXPECT_DOUBLE_EQ(report.wisdom->extra.at("confirmed_heuristic_ms").as_double(), 2.0);
  }
}

TEST(FftTuner, AnInterruptedRunResumesFromItsLog) {
  const auto log = tempDir("resume") / "tune.jsonl";
  FftTuneOptions o;
  o.technique = "random";
  o.seed = 7;
  o.cost = {0, 1, 1};
  o.log = log;
  FakeExecutor first;
  o.abort = fftc::tuner::evaluations(5);
  const auto a = FftTuner(request(16, 2), first, o).run();
  EXPECT_EQ(a.result.measured, 5u);
  EXPECT_EQ(first.calls, 5);

  FakeExecutor second;  // the same seed proposes the same five first: replayed, not measured
  o.abort = fftc::tuner::evaluations(12);
  const auto b = FftTuner(request(16, 2), second, o).run();
  EXPECT_EQ(b.result.replayed, 5u);
  EXPECT_EQ(b.result.measured, 7u);
  EXPECT_EQ(second.calls, 7);
  for (const auto& k : second.measured) EXPECT_EQ(first.measured.count(k), 0u) << k;

  // The uninterrupted run ends in the same place.
  FakeExecutor whole;
  o.log = tempDir("whole") / "tune.jsonl";
  const auto c = FftTuner(request(16, 2), whole, o).run();
  ASSERT_EQ(c.result.evaluations.size(), b.result.evaluations.size());
  for (size_t i = 0; i < c.result.evaluations.size(); ++i)
    EXPECT_EQ(c.result.evaluations[i].index, b.result.evaluations[i].index);

  // Another device may not append to this log.
  struct Other : FakeExecutor {
    DeviceIdentity identity() const override { return {"Other GPU", "fake driver 1"}; }
  } other;
  o.log = log;
  EXPECT_THROW(FftTuner(request(16, 2), other, o), fftc::tuner::TunerError);
}

TEST(FftWisdom, UsedOnTheDeviceThatTunedItRefusedElsewhere) {
  const auto file = tempDir("wisdom") / "w.json";
  FftRequest r = request(16, 2);
  const DeviceIdentity here{"Fake GPU", "fake driver 1"};
  fftc::tuner::WisdomEntry e;
  e.config = boost::json::object{{"variant", "local"},      {"radices", {4, 4}},
                                 {"workgroupSize", 4},      {"fftsPerGroup", 2},
                                 {"rewrite", "lowerFft"}};
  e.cost = 0.5;
  ASSERT_TRUE(fftc::tuner::Wisdom::update(file, wisdomKey(r, here), e));

  auto used = applyWisdom(r, file, [&] { return here; });
  ASSERT_TRUE(used.used) << used.note;
  EXPECT_EQ(used.request.variant, Variant::Local);
  EXPECT_EQ(used.request.radices, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ(used.request.workgroupSize, 4);
  EXPECT_EQ(used.request.fftsPerGroup, 2);

  auto elsewhere = applyWisdom(r, file, [] { return DeviceIdentity{"Other GPU", "fake driver 1"}; });
  EXPECT_FALSE(elsewhere.used);
  EXPECT_TRUE(elsewhere.forThisProblem);
  EXPECT_NE(elsewhere.note.find("recorded on device 'Fake GPU'"), std::string::npos) << elsewhere.note;
  EXPECT_EQ(elsewhere.note.find('\n'), std::string::npos);
  EXPECT_EQ(elsewhere.request.key(), r.key());

  FftRequest other = r;
  other.batch = 3;  // another problem: the device is never asked
  auto none = applyWisdom(other, file, []() -> DeviceIdentity { throw std::logic_error("asked"); });
  EXPECT_FALSE(none.used);
  EXPECT_FALSE(none.forThisProblem);

  FftRequest fixed = r;
  fixed.variant = Variant::Stockham;  // the user chose: wisdom stays out of it
  EXPECT_FALSE(applyWisdom(fixed, file, [&] { return here; }).used);

  std::ofstream(file) << "{not json";
  EXPECT_THROW(applyWisdom(r, file, [&] { return here; }), fftc::backends::UserError);
}

// ---- on the OpenCL device (PoCL here)

TEST(FftCostOpenCl, MeasuresAndChecksOnTheDevice) {
  auto context = fftc::backends::opencl::Context::fromSelector("");
  OpenClExecutor device(context);
  FftRequest r = request(16, 2);
  FftCost cost(r, device, {.warmup = 1, .repeats = 2, .seed = 1});
  auto ok = cost(r);
  ASSERT_TRUE(ok.isValid()) << ok.reason();
  EXPECT_GT(ok.cost(), 0);
  EXPECT_LE(ok.extra().at("linf_error").as_double(), cost.tolerance());
  FftRequest bad = r;
  bad.radices = {2, 2};  // product 4, not 16: the planner rejects it
  auto rejected = cost(bad);
  EXPECT_FALSE(rejected.isValid());
  EXPECT_EQ(rejected.reason().rfind("rejected: ", 0), 0u) << rejected.reason();
}

// The executor keeps the input on the device from one configuration to the next (KeptBuffers):
// every variant, some with several kernels, checked in turn on one cost's input, which a plan
// that wrote into its input would spoil for the next; a second cost (another seed) on the
// same executor gets its own input; the evaluation's times are reported.
TEST(FftCostOpenCl, ConfigurationsInTurnRunOnTheirCostsInput) {
  auto context = fftc::backends::opencl::Context::fromSelector("");
  OpenClExecutor device(context);
  FftRequest r = request(64, 3);
  FftCost cost(r, device, {.warmup = 0, .repeats = 1, .seed = 1});
  for (Variant v : {Variant::Hierarchical, Variant::Stockham, Variant::Bluestein,
                    Variant::CooleyTukey, Variant::StockhamTwiddle, Variant::Local,
                    Variant::Hierarchical}) {
    FftRequest c = r;
    c.variant = v;
    auto res = cost(c);
    ASSERT_TRUE(res.isValid()) << variantName(v) << ": " << res.reason();
    for (const char* k : {"plan_s", "run_s", "time_s", "check_s"})
      EXPECT_GE(res.extra().at(k).as_double(), 0.0) << k;
    EXPECT_GT(res.extra().at("plan_s").as_double(), 0.0);
  }
  FftCost other(r, device, {.warmup = 0, .repeats = 1, .seed = 7});
  EXPECT_TRUE(other(r).isValid());
  EXPECT_TRUE(cost(r).isValid());  // and back: the first cost's input again
  FftRequest f64 = r;
  f64.precision = Precision::F64;  // the same sizes in the other precision: uploaded again
  FftCost wide(f64, device, {.warmup = 0, .repeats = 1, .seed = 1});
  EXPECT_TRUE(wide(f64).isValid());
}

// N-D, real and advanced-layout problems: the cost checks them against FFTW through
// fft_check.h; a plan writing outside the output layout is invalid however fast.
TEST(FftCostOpenCl, NdRealAndLayoutProblems) {
  auto context = fftc::backends::opencl::Context::fromSelector("");
  OpenClExecutor device(context);
  FftRequest nd = request(8 * 6, 2);
  nd.dims = {8, 6};
  FftRequest real = request(12, 3);
  real.real = true;
  FftRequest strided = request(16, 4);
  strided.inLayout = {{}, 4, 1};
  strided.outLayout = {{}, 2, 40};
  for (const auto& r : {nd, real, strided}) {
    FftCost cost(r, device, {.warmup = 1, .repeats = 2, .seed = 1});
    auto ok = cost(r);
    EXPECT_TRUE(ok.isValid()) << r.key() << ": " << ok.reason();
  }
}

// A device whose plans are right but also write outside the output layout.
class HoleWriter : public FakeExecutor {
 public:
  Measurement measure(const FftRequest& r, const MeasureInput& input, std::size_t warmup,
                      std::size_t repeats) override {
    FftRequest dense = r;
    dense.outLayout = {};
    Measurement m = FakeExecutor::measure(dense, input, warmup, repeats);
    // the buffer's extent, (batch - 1) * dist + N complex values
    std::vector<double> strided(2 * static_cast<size_t>((r.batch - 1) * r.outLayout.dist + r.size),
                                0.0);
    for (int64_t b = 0; b < r.batch; ++b)  // stride 1: transform b at b * dist; the rest 0
      for (int64_t i = 0; i < 2 * r.size; ++i)
        strided[static_cast<size_t>(2 * b * r.outLayout.dist + i)] =
            m.output[static_cast<size_t>(2 * b * r.size + i)];
    m.output = std::move(strided);
    m.outputScalars = m.output.size();
    return m;
  }
};

TEST(FftCost, WritingOutsideTheOutputLayoutIsInvalid) {
  HoleWriter device;
  FftRequest r = request(16, 2);
  r.outLayout = {{}, 1, 20};  // 4 holes after each transform
  r.variant = Variant::Stockham;
  r.radices = {4, 4};
  FftCost cost(r, device, {.warmup = 0, .repeats = 2, .seed = 1});
  auto res = cost(r);
  EXPECT_FALSE(res.isValid());
  EXPECT_NE(res.reason().find("outside the output layout"), std::string::npos) << res.reason();
}

// A plan whose output buffer has another size than the problem's is invalid, even when the
// scalars read back (the checked ones) are right.
class WrongOutputSize : public FakeExecutor {
 public:
  Measurement measure(const FftRequest& r, const MeasureInput& input, std::size_t warmup,
                      std::size_t repeats) override {
    Measurement m = FakeExecutor::measure(r, input, warmup, repeats);
    m.outputScalars += 2;
    return m;
  }
};

TEST(FftCost, AnOutputBufferOfAnotherSizeIsInvalid) {
  WrongOutputSize device;
  FftRequest r = request(16, 2);
  r.variant = Variant::Stockham;
  r.radices = {4, 4};
  FftCost cost(r, device, {.warmup = 0, .repeats = 2, .seed = 1});
  EXPECT_EQ(cost(r).reason(), "wrong answer: 66 output scalars, expected 64");
}

TEST(FftSpace, NdSpacesHoldThePlannersChoiceAndEveryGrouping) {
  FftRequest r = request(16 * 16 * 8, 2);
  r.dims = {16, 16, 8};
  FftSpace space(r);
  // [] (the planner's: ndLocal or its grouping) and the four groupings of three dimensions
  ASSERT_EQ(space.space().size(), 5u);
  std::set<std::vector<int64_t>> groups;
  for (std::uint64_t k = 0; k < space.space().size(); ++k) {
    const FftRequest c = space.request(space.space().at(k));
    EXPECT_EQ(c.variant, Variant::Auto);
    EXPECT_TRUE(c.radices.empty());
    EXPECT_TRUE(plannerAccepts(c));
    groups.insert(c.passGroups);
  }
  EXPECT_EQ(groups, (std::set<std::vector<int64_t>>{
                        {}, {0, 1, 2, 3}, {0, 1, 3}, {0, 2, 3}, {0, 3}}));
  EXPECT_EQ(space.request(space.space().at(*space.heuristicIndex())).passGroups,
            std::vector<int64_t>{});
  FftRequest real = request(12, 3);
  real.real = true;
  // real: the planner's plan (r2cLocal here) or nd.fdl's global passes ([0, 1])
  FftSpace realSpace(real);
  ASSERT_EQ(realSpace.space().size(), 2u);
  EXPECT_EQ(choosePlan(realSpace.request(realSpace.space().at(0))).kernel.substr(0, 3), "r2c");
  std::set<std::string> kernels;
  for (std::uint64_t k = 0; k < 2; ++k)
    kernels.insert(choosePlan(realSpace.request(realSpace.space().at(k))).kernel);
  EXPECT_EQ(kernels, (std::set<std::string>{"r2c", "r2cLocal"}));
}

struct Spawned {
  int status = -1;
  std::string out, err;
};

Spawned fftc(const std::string& args, const fs::path& dir) {
  const auto errFile = dir / "stderr.txt";
  std::string cmd = std::string(FFTC_EXE) + " " + args + " 2>" + errFile.string();
  Spawned r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  const int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  std::ifstream e(errFile);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

size_t lines(const fs::path& p) {
  std::ifstream in(p);
  size_t n = 0;
  for (std::string l; std::getline(in, l);) n += !l.empty();
  return n;
}

TEST(TuneCli, TuneWritesWisdomThatRunUses) {
  const auto dir = tempDir("cli");
  const auto wisdom = (dir / "wisdom.json").string(), log = (dir / "tune.jsonl").string();
  const std::string problem = "--size 16 --batch 4";
  auto t = fftc("tune " + problem + " --technique random --evaluations 4 --repeat 2 --warmup 1 --json"
                " --wisdom " + wisdom + " --log " + log, dir);
  ASSERT_EQ(t.status, 0) << t.out << t.err;
  const auto j = boost::json::parse(t.out).as_object();
  EXPECT_EQ(j.at("evaluations").as_int64(), 4);
  EXPECT_EQ(lines(log), 4u);
  EXPECT_TRUE(j.at("recorded").as_bool());
  // Where the search's time went: every phase took some, together no more than the search.
  double phases = 0;
  for (const char* p : {"plan", "run", "time", "check"}) {
    const double s = j.at("phase_seconds").at(p).as_double();
    EXPECT_GT(s, 0.0) << p;
    phases += s;
  }
  EXPECT_LE(phases, j.at("seconds").as_double());
  EXPECT_NE(t.err.find("time of the measured evaluations: planning and compiling"), std::string::npos) << t.err;
  // A plan other than the heuristic one is recorded only with its confirmation's medians.
  const bool confirmed = j.at("confirmed_ms").is_double();
  EXPECT_EQ(j.at("confirmed_heuristic_ms").is_double(), confirmed);
  if (!j.at("best_is_heuristic").as_bool()) {
    ASSERT_TRUE(confirmed);
    EXPECT_LE(j.at("confirmed_ms").as_double(), 0.98 * j.at("confirmed_heuristic_ms").as_double());
    EXPECT_EQ(j.at("best_ms"), j.at("confirmed_ms"));
  }
  const auto& best = j.at("best").as_object();

  auto run = fftc("run " + problem + " --check --json --wisdom " + wisdom, dir);
  ASSERT_EQ(run.status, 0) << run.out << run.err;
  const auto r = boost::json::parse(run.out).as_object();
  EXPECT_TRUE(r.at("wisdom").as_bool());
  EXPECT_EQ(r.at("variant"), best.at("variant"));
  EXPECT_EQ(r.at("radices"), best.at("radices"));
  EXPECT_EQ(r.at("workgroup_size"), best.at("workgroupSize"));
  EXPECT_EQ(r.at("ffts_per_group"), best.at("fftsPerGroup"));

  // Resuming with a larger budget replays the four logged configurations, measures two more.
  auto t2 = fftc("tune " + problem + " --technique random --evaluations 6 --repeat 2 --warmup 1 --json"
                 " --wisdom " + wisdom + " --log " + log, dir);
  ASSERT_EQ(t2.status, 0) << t2.out << t2.err;
  const auto j2 = boost::json::parse(t2.out).as_object();
  EXPECT_EQ(j2.at("replayed").as_int64(), 4);
  EXPECT_EQ(j2.at("measured").as_int64(), 2);
  EXPECT_EQ(lines(log), 6u);
  // The phases are the two measured ones' (the log's last two lines), not the replayed ones'.
  std::vector<boost::json::object> logged;
  std::ifstream in(log);
  for (std::string l; std::getline(in, l);) logged.push_back(boost::json::parse(l).as_object());
  for (const char* p : {"plan", "run", "time", "check"}) {
    double measured = 0;
    for (size_t k = 4; k < logged.size(); ++k)
      measured += logged[k].at("extra").at(std::string(p) + "_s").to_number<double>();
    EXPECT_NEAR(j2.at("phase_seconds").at(p).as_double(), measured, 1e-9) << p;
  }

  // Wisdom recorded on another device is refused with a one-line reason; the heuristics decide.
  auto w = boost::json::parse(std::string(std::istreambuf_iterator<char>(std::ifstream(wisdom).rdbuf()), {}));
  for (auto& e : w.as_object()["entries"].as_array()) e.as_object()["device"] = "Some Other GPU";
  const auto moved = (dir / "elsewhere.json").string();
  std::ofstream(moved) << boost::json::serialize(w);
  auto refused = fftc("run " + problem + " --check --json --wisdom " + moved, dir);
  ASSERT_EQ(refused.status, 0) << refused.err;
  EXPECT_FALSE(boost::json::parse(refused.out).as_object().at("wisdom").as_bool());
  EXPECT_NE(refused.err.find("recorded on device 'Some Other GPU'"), std::string::npos) << refused.err;
  EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
}

TEST(TuneCli, NdRealAndLayoutProblemsAreTunedAndTheirWisdomUsed) {
  const auto dir = tempDir("nd");
  const auto wisdom = (dir / "wisdom.json").string();
  for (const std::string problem :
       {"--size 8x6x4 --batch 2", "--size 12 --batch 3 --real --direction inverse",
        "--size 16 --batch 4 --istride 4 --idist 1 --ostride 2 --odist 40"}) {
    SCOPED_TRACE(problem);
    auto t = fftc("tune " + problem + " --evaluations 3 --repeat 2 --warmup 1 --json --no-log"
                  " --wisdom " + wisdom, dir);
    ASSERT_EQ(t.status, 0) << t.out << t.err;
    EXPECT_TRUE(boost::json::parse(t.out).as_object().at("recorded").as_bool());
    auto run = fftc("run " + problem + " --check --json --wisdom " + wisdom, dir);
    ASSERT_EQ(run.status, 0) << run.out << run.err;
    EXPECT_TRUE(boost::json::parse(run.out).as_object().at("wisdom").as_bool()) << run.err;
  }
}

TEST(TuneCli, BadLayoutsAndLevelsExitOneWithOneLine) {
  const auto dir = tempDir("badlayout");
  for (const std::string args : {"--size 16 --batch 3 --odist 8", "--size 8x6 --inembed 8",
                                  "--size 4096 --levels 5", "--size 8x8 --levels 2",
                                  "--size 4096 --level-sizes 64,32", "--size 4096 --level-sizes 64,x",
                                  "--size 4096 --radices 8,16,32 --level-sizes 64,64"}) {
    SCOPED_TRACE(args);
    auto t = fftc("tune " + args + " --evaluations 1 --no-log --wisdom " +
                      (dir / "w.json").string(), dir);
    EXPECT_EQ(t.status, 1) << t.out << t.err;
    EXPECT_EQ(std::count(t.err.begin(), t.err.end(), '\n'), 1) << t.err;
  }
}

// --space-fraction stops the search when that fraction of the space has been evaluated.
TEST(TuneCli, SpaceFractionStopsTheSearch) {
  const auto dir = tempDir("fraction");
  auto t = fftc("tune --size 16 --batch 4 --space-fraction 0.1 --technique random --repeat 1 "
                "--warmup 0 --no-log --json --wisdom " + (dir / "w.json").string(), dir);
  ASSERT_EQ(t.status, 0) << t.out << t.err;
  const auto j = boost::json::parse(t.out).as_object();
  const auto size = j.at("space_size").to_number<uint64_t>();
  EXPECT_EQ(static_cast<uint64_t>(j.at("evaluations").as_int64()), (size + 9) / 10);  // ceil(0.1 x size)
  EXPECT_NE(j.at("stop_reason").as_string().find("10% of the space"), boost::json::string::npos)
      << j.at("stop_reason");
  for (const char* bad : {"0", "1.5", "-0.2"}) {
    auto b = fftc(std::string("tune --size 16 --space-fraction ") + bad + " --no-log --wisdom " +
                      (dir / "bad.json").string(), dir);
    EXPECT_EQ(b.status, 1) << bad;
    EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
    EXPECT_FALSE(fs::exists(dir / "bad.json"));  // refused before any measurement
  }
}

TEST(TuneCli, BadOptionsExitOne) {
  const auto dir = tempDir("bad");
  EXPECT_EQ(fftc("tune --size 16 --technique nope --no-log --wisdom " + (dir / "w").string(), dir).status, 1);
  EXPECT_EQ(fftc("tune --size 16 --budget 0 --no-log", dir).status, 1);
  auto dry = fftc("tune --size 16 --batch 4 --dry-run --no-log", dir);
  EXPECT_EQ(dry.status, 0) << dry.err;
  EXPECT_NE(dry.out.find("55 configurations"), std::string::npos) << dry.out;
}

}  // namespace
