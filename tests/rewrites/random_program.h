// A generator of random well-typed high-level programs (and random inputs for them), biased
// towards the shapes the rewrite rules match, for the property tests of tests/rewrites/.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/value.h"
#include "rewrites/rule.h"

namespace fftc::rewrites::testing {

struct RandomProgram {
  ir::ExprPtr body;                  // untyped; free Params are `inputs`
  std::vector<ir::ParamPtr> inputs;  // typed kernel inputs
};

class ProgramGenerator {
 public:
  explicit ProgramGenerator(uint64_t seed, int depth = 3) : rng_(seed), depth_(depth) {}
  RandomProgram generate();

 private:
  using T = ir::Type;
  ir::ExprPtr gen(const T& t, int depth);
  ir::ExprPtr genArray(const T& t, int depth);
  ir::ExprPtr genScalar(const T& t, int depth);
  ir::ExprPtr genTuple(const T& t, int depth);
  ir::ExprPtr leaf(const T& t);
  ir::ExprPtr literal(const T& t);
  ir::FunPtr lam(const T& paramType, const T& resultType, int depth);
  ir::ExprPtr mapZipShape(const T& t, int depth);

  T scalarType();
  T elemType(int depth);
  int64_t size();
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }

  std::mt19937_64 rng_;
  int depth_;
  std::vector<ir::ParamPtr> scope_;
  std::vector<ir::ParamPtr> inputs_;
};

// Random values of a type: ints in [-9, 9], reals in [-2, 2] (rounded to the precision).
ir::Value randomValue(const ir::Type& t, std::mt19937_64& rng);

// Exact for ints, |a - b| <= tol * (1 + max(|a|, |b|)) for reals and complex parts. On a
// difference, *why says where.
bool valuesClose(const ir::Value& a, const ir::Value& b, double tol, std::string* why = nullptr);

// Applies `rule` at every position of `programs` random well-typed programs (generator seeds
// seed, seed + 131, ...): a rule that does not apply must return the very same program, one
// that applies a different one (ASSERTs). Returns how many applications changed the program,
// so that a caller can require that the rule did apply.
int applyEverywhere(const Rule& rule, uint64_t seed, size_t programs = 150);

}  // namespace fftc::rewrites::testing
