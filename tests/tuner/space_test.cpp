// The chain of trees against brute-force enumeration on random constraint sets, plus the
// range helpers and the errors a bad space definition gives.
#include "tuner/search_space.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

using namespace fftc::tuner;

namespace {

enum class Kind { Int, String, List };

std::string key(const Configuration& c) {
  return boost::json::serialize(c.toJson());
}

// A reproducible random space: 2-5 parameters, each a random range (interval, powers of two,
// int/string/list sets, or a generator reading an earlier parameter) with 0-2 random
// constraints (divides, multipleOf, lessThan, lessEqual, predicates over random earlier
// parameters). Dependencies are random, so the grouping is too.
struct RandomSpace {
  std::vector<Parameter> params;
  std::vector<Kind> kinds;

  explicit RandomSpace(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int n = uni(2, 5);
    for (int i = 0; i < n; ++i) {
      std::string name = "p" + std::to_string(i);
      std::vector<std::string> earlierInts, earlier;
      for (int j = 0; j < i; ++j) {
        earlier.push_back("p" + std::to_string(j));
        if (kinds[static_cast<std::size_t>(j)] == Kind::Int) earlierInts.push_back(earlier.back());
      }
      auto pick = [&](const std::vector<std::string>& v) {
        return v[static_cast<std::size_t>(uni(0, static_cast<int>(v.size()) - 1))];
      };
      Kind kind = Kind::Int;
      std::optional<Range> range;
      switch (uni(0, earlier.empty() ? 5 : 7)) {
        case 0: {
          int lo = uni(-3, 5);
          range = interval(lo, lo + uni(0, 10), uni(1, 3));
          break;
        }
        case 1:
          range = powersOfTwo(uni(1, 4), 1 << uni(0, 6));
          break;
        case 2: {
          std::set<std::int64_t> s;
          for (int k = uni(1, 6); k > 0; --k) s.insert(uni(0, 20));
          range = intSet({s.begin(), s.end()});
          break;
        }
        case 3: {
          std::vector<std::string> s;
          for (auto x : {"a", "bb", "c", "dd"})
            if (uni(0, 2) != 0) s.emplace_back(x);
          if (s.empty()) s.emplace_back("a");
          range = stringSet(s);
          kind = Kind::String;
          break;
        }
        case 4:
        case 5: {
          range = listSet({{2, 2}, {4}, {1, 3, 1}, {}, {6}});
          kind = Kind::List;
          break;
        }
        default: {  // a generator over an earlier parameter
          std::string dep = pick(earlier);
          range = generator(
              {dep},
              [dep](const Configuration& c) {
                const Value& v = c[dep];
                if (const auto* x = std::get_if<std::int64_t>(&v))
                  return asValues(divisorsOf(std::abs(*x) % 12 + 1));
                if (const auto* s = std::get_if<std::string>(&v))
                  return asValues(
                      std::vector<std::int64_t>{static_cast<std::int64_t>(s->size()), 7});
                auto l = std::get<IntList>(v);
                std::vector<std::int64_t> out;
                for (std::int64_t k = 0; k <= static_cast<std::int64_t>(l.size()); ++k)
                  out.push_back(k);
                return asValues(out);
              },
              "gen(" + dep + ")");
        }
      }
      Parameter p(name, *range);
      for (int k = uni(0, 2); k > 0; --k) {
        auto operand = [&]() -> Operand {
          if (!earlierInts.empty() && uni(0, 1)) return pick(earlierInts);
          return uni(1, 12);
        };
        int what = kind == Kind::Int ? uni(0, 4) : 4;
        if (what == 0) p.where(divides(operand()));
        if (what == 1) p.where(multipleOf(operand()));
        if (what == 2) p.where(lessThan(operand()));
        if (what == 3) p.where(lessEqual(operand()));
        if (what == 4) {
          std::vector<std::string> deps;
          for (const auto& e : earlier)
            if (uni(0, 2) == 0) deps.push_back(e);
          int mod = uni(2, 4);
          std::vector<std::string> all = deps;
          all.push_back(name);
          p.where(predicate(
              deps,
              [all, mod](const Configuration& c) {
                std::int64_t h = 0, w = 1;
                for (const auto& d : all) {
                  const Value& v = c[d];
                  std::int64_t x = 0;
                  if (const auto* iv = std::get_if<std::int64_t>(&v))
                    x = *iv;
                  else if (const auto* s = std::get_if<std::string>(&v))
                    x = static_cast<std::int64_t>(s->size());
                  else
                    for (auto y : std::get<IntList>(v)) x += y;
                  h += w * x;
                  w += 2;
                }
                return ((h % mod) + mod) % mod != 0;
              },
              "hash"));
        }
      }
      kinds.push_back(kind);
      params.push_back(std::move(p));
    }
  }
};

// All configurations of the product (generated ranges evaluated on the prefix), split into
// those that satisfy every constraint and those that do not.
void bruteForce(const std::vector<Parameter>& ps, std::size_t i, Configuration& c,
                std::set<std::string>& valid, std::vector<Configuration>& rejected) {
  if (i == ps.size()) {
    bool ok = true;
    for (std::size_t j = 0; j < ps.size() && ok; ++j) ok = ps[j].admits(c.value(j), c);
    if (ok)
      valid.insert(key(c));
    else if (rejected.size() < 50)
      rejected.push_back(c);
    return;
  }
  for (const auto& v : ps[i].range().valuesFor(c)) {
    c.set(i, v);
    bruteForce(ps, i + 1, c, valid, rejected);
  }
  c.unset(i);
}

}  // namespace

TEST(SearchSpace, MatchesBruteForceOnRandomConstraintSets) {
  int multiGroup = 0, nonTrivial = 0;
  for (std::uint64_t seed = 1; seed <= 250; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    RandomSpace rs(seed);
    SearchSpace space(rs.params);
    Configuration c(space.names(), std::vector<std::optional<Value>>(rs.params.size()));
    std::set<std::string> expected;
    std::vector<Configuration> rejected;
    bruteForce(rs.params, 0, c, expected, rejected);

    ASSERT_EQ(space.size(), expected.size()) << space.describe();
    std::set<std::string> got;
    for (std::uint64_t k = 0; k < space.size(); ++k) {
      Configuration ck = space.at(k);
      ASSERT_TRUE(ck.isComplete());
      ASSERT_TRUE(got.insert(key(ck)).second) << "configuration " << k << " repeats";
      auto back = space.indexOf(ck);
      ASSERT_TRUE(back.has_value());
      ASSERT_EQ(*back, k);
      ASSERT_EQ(space.indexOf(ck.toJson()), k);
    }
    ASSERT_EQ(got, expected);
    for (const auto& r : rejected) ASSERT_FALSE(space.indexOf(r).has_value()) << r.toString();
    multiGroup += space.groups().size() > 1;
    nonTrivial += !rejected.empty() && !expected.empty();
  }
  // The random sets must exercise grouping and pruning, or the test proves little.
  EXPECT_GT(multiGroup, 50);
  EXPECT_GT(nonTrivial, 100);
}

TEST(SearchSpace, PrunesWithoutEnumeratingTheProduct) {
  // Six parameters of 64 values: 6.9e10 in the product. Each divides the previous one.
  std::vector<Parameter> ps;
  ps.emplace_back("a", interval(1, 64));
  for (const char* n : {"b", "c", "d", "e", "f"}) {
    std::string prev(1, static_cast<char>(n[0] - 1));
    ps.emplace_back(n, interval(1, 64), std::vector<Constraint>{divides(prev)});
  }
  SearchSpace space(ps);
  EXPECT_EQ(space.groups().size(), 1u);
  // Chains a = d0 >= d1 >= ... with each dividing the previous, counted by hand for small
  // cases; here we check against the divisor-chain recurrence.
  std::vector<std::vector<std::uint64_t>> chains(7, std::vector<std::uint64_t>(65, 0));
  for (int v = 1; v <= 64; ++v) chains[1][static_cast<std::size_t>(v)] = 1;
  for (int len = 2; len <= 6; ++len)
    for (int v = 1; v <= 64; ++v)
      for (auto d : divisorsOf(v))
        chains[static_cast<std::size_t>(len)][static_cast<std::size_t>(v)] +=
            chains[static_cast<std::size_t>(len - 1)][static_cast<std::size_t>(d)];
  std::uint64_t expected = 0;
  for (int v = 1; v <= 64; ++v) expected += chains[6][static_cast<std::size_t>(v)];
  EXPECT_EQ(space.size(), expected);
  EXPECT_LT(space.constraintChecks(), 100u * expected);
  EXPECT_DOUBLE_EQ(*space.cartesianSize(), std::pow(64.0, 6));
}

TEST(SearchSpace, IndependentGroupsMultiply) {
  SearchSpace space({Parameter("x", interval(1, 10)),
                     Parameter("y", powersOfTwo(1, 64)).where(divides(64)).where(lessThan(9)),
                     Parameter("v", stringSet({"stockham", "cooley-tukey"})),
                     Parameter("z", interval(1, 10), {multipleOf("x")})});
  ASSERT_EQ(space.groups().size(), 3u);  // {x, z}, {y}, {v}
  // x,z: sum over x of floor(10/x) = 10+5+3+2+2+1+1+1+1+1 = 27; y: 1,2,4,8; v: 2.
  EXPECT_EQ(space.size(), 27u * 4u * 2u);
  EXPECT_EQ(space.at(0).toString(), "x=1 y=1 v=\"stockham\" z=1");
  // Groups ordered by their first parameter, the last group fastest.
  EXPECT_EQ(space.at(1).toString(), "x=1 y=1 v=\"cooley-tukey\" z=1");
  EXPECT_EQ(space.at(2).toString(), "x=1 y=2 v=\"stockham\" z=1");
  EXPECT_EQ(space.at(8).toString(), "x=1 y=1 v=\"stockham\" z=2");
}

TEST(SearchSpace, RadixSequencesFromAGenerator) {
  // The FFT use: N from a set, radix sequences with product N, a work-group size that the
  // first radix leaves enough work for.
  SearchSpace space(
      {Parameter("N", intSet({16, 64})),
       Parameter("R", generator(
                          {"N"},
                          [](const Configuration& c) {
                            return asValues(orderedFactorizations(c.getInt("N"), {2, 4, 8}, 3));
                          },
                          "radices")),
       Parameter("WG", powersOfTwo(1, 64),
                 {predicate(
                     {"N", "R"},
                     [](const Configuration& c) {
                       return c.getInt("WG") * c.getList("R")[0] <= c.getInt("N");
                     },
                     "WG * R[0] <= N")})});
  EXPECT_EQ(orderedFactorizations(16, {2, 4}, 3),
            (std::vector<IntList>{{4, 4}, {4, 2, 2}, {2, 4, 2}, {2, 2, 4}}));
  // Hand count for N=16, length <= 3 over {2,4,8}: [8,2],[2,8],[4,4],[4,2,2],[2,4,2],[2,2,4];
  // WG <= 16/R0 gives R0=8 -> 2 sizes, R0=4 -> 3, R0=2 -> 4: 2+4+3+3+4+4 = 20.
  // N=64 counted by a plain loop.
  std::uint64_t n64 = 0;
  for (const auto& r : orderedFactorizations(64, {2, 4, 8}, 3))
    for (std::int64_t wg = 1; wg <= 64; wg *= 2) n64 += wg * r[0] <= 64;
  EXPECT_EQ(space.size(), 20u + n64);
  for (std::uint64_t k = 0; k < space.size(); ++k) {
    auto c = space.at(k);
    std::int64_t product = 1;
    for (auto r : c.getList("R")) product *= r;
    EXPECT_EQ(product, c.getInt("N"));
  }
}

TEST(SearchSpace, RangeHelpers) {
  EXPECT_EQ(divisorsOf(12), (std::vector<std::int64_t>{1, 2, 3, 4, 6, 12}));
  EXPECT_EQ(divisorsOf(1), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(interval(3, 10, 3).fixedValues(), asValues(std::vector<std::int64_t>{3, 6, 9}));
  EXPECT_EQ(powersOfTwo(3, 40).fixedValues(), asValues(std::vector<std::int64_t>{4, 8, 16, 32}));
  EXPECT_THROW(intSet({1, 2, 1}), TunerError);
  EXPECT_THROW(interval(1, 5, 0), TunerError);
}

TEST(SearchSpace, BadDefinitionsAreRefused) {
  // Reading a later parameter, or one that is not declared as a dependency.
  EXPECT_THROW(SearchSpace({Parameter("a", interval(1, 4), {lessThan("b")}),
                            Parameter("b", interval(1, 4))}),
               TunerError);
  EXPECT_THROW(SearchSpace({Parameter("a", interval(1, 4)), Parameter("a", interval(1, 4))}),
               TunerError);
  try {
    SearchSpace({Parameter("a", interval(1, 4)),
                 Parameter("b", interval(1, 4), {predicate({}, [](const Configuration& c) {
                             return c.getInt("a") > 1;
                           })})});
    FAIL() << "an undeclared dependency was read";
  } catch (const TunerError& e) {
    EXPECT_NE(std::string(e.what()).find("'a' is not set here"), std::string::npos) << e.what();
  }
  EXPECT_THROW(SearchSpace({}), TunerError);
}

TEST(SearchSpace, EmptyWhenNothingSatisfiesTheConstraints) {
  SearchSpace space(
      {Parameter("a", interval(1, 4)), Parameter("b", interval(5, 8), {lessThan("a")})});
  EXPECT_TRUE(space.empty());
  EXPECT_EQ(space.size(), 0u);
}

TEST(SearchSpace, NeighboursStayInTheSpaceAndMoveOneGroup) {
  SearchSpace space({Parameter("x", interval(0, 15)),
                     Parameter("y", interval(0, 15), {lessEqual("x")}),
                     Parameter("v", stringSet({"a", "b", "c"}))});
  std::mt19937_64 rng(3);
  std::set<std::uint64_t> seen;
  for (std::uint64_t k = 0; k < space.size(); ++k)
    for (int t = 0; t < 5; ++t) {
      auto n = space.neighbour(k, rng);
      ASSERT_LT(n, space.size());
      ASSERT_NE(n, k);
      auto a = space.coordinates(k), b = space.coordinates(n);
      ASSERT_TRUE(a[0] == b[0] || a[1] == b[1]) << "both groups moved";
      seen.insert(n);
    }
  EXPECT_GT(seen.size(), space.size() * 9 / 10);  // nearly every one is somebody's neighbour
}
