// The tuning space of a general kernel (kernel_space.h).
#include "driver/kernel_space.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "compiler/frontend/frontend.h"
#include "driver/explore_eval.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "rewrites/strategy_parser.h"

namespace fftc::driver {

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\n"), b = s.find_last_not_of(" \t\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

bool isName(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_') &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
         });
}

bool isInteger(const std::string& s) {
  size_t i = s.size() > 1 && s[0] == '-' ? 1 : 0;
  return i < s.size() &&
         std::all_of(s.begin() + static_cast<std::ptrdiff_t>(i), s.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Calls `onCall(begin, end, name, args)` for every innermost `NAME(args)` of a strategy text
// whose NAME is a rule of the catalog (its arguments hold no parentheses), left to right.
template <class F>
void forEachRuleCall(const std::string& text, F&& onCall) {
  size_t i = 0;
  while ((i = text.find('(', i)) != std::string::npos) {
    size_t b = i;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '_'))
      --b;
    const std::string name = text.substr(b, i - b);
    const size_t close = text.find_first_of("()", i + 1);
    if (close != std::string::npos && text[close] == ')' && rewrites::findRule(name)) {
      std::vector<std::string> args;
      const std::string inner = text.substr(i + 1, close - i - 1);
      size_t s = 0;
      for (size_t c; (c = inner.find(',', s)) != std::string::npos; s = c + 1)
        args.push_back(trim(inner.substr(s, c - s)));
      args.push_back(trim(inner.substr(s)));
      onCall(b, close + 1, name, args);
    }
    ++i;
  }
}

// The step with its slots replaced by their values.
std::string substitute(const std::string& step, const std::map<std::string, int64_t>& values) {
  std::string out;
  size_t done = 0;
  forEachRuleCall(step, [&](size_t b, size_t e, const std::string& name,
                            const std::vector<std::string>& args) {
    std::vector<std::string> a;
    for (const std::string& x : args) {
      auto v = values.find(x);
      a.push_back(v == values.end() ? x : std::to_string(v->second));
    }
    out += step.substr(done, b - done) + name + "(" + fmt::format("{}", fmt::join(a, ", ")) + ")";
    done = e;
  });
  return out + step.substr(done);
}

std::string textOf(const std::vector<std::string>& steps) {
  std::string s;
  for (const std::string& x : steps) s += x + "; ";
  return s + "lowerDefault";
}

}  // namespace

Skeleton skeletonOf(const std::vector<std::string>& exploreSteps, bool prepared) {
  Skeleton s;
  if (prepared && !exploreSteps.empty()) s.steps.push_back("prepare");
  for (const std::string& step : exploreSteps) {
    const size_t at = step.rfind(" @ ");
    const std::string rule = step.substr(0, at);
    const size_t open = rule.find('(');
    if (open == std::string::npos) {
      s.steps.push_back(replayStep(step));
      continue;
    }
    const std::string name = rule.substr(0, open);
    const rewrites::RuleInfo* info = rewrites::findRule(name);
    // a lowering rule's dimension is part of the skeleton, not a number to search
    if (!info || info->signature.rfind(name + "(d", 0) == 0) {
      s.steps.push_back(replayStep(step));
      continue;
    }
    std::vector<std::string> slots;
    forEachRuleCall(rule,
                    [&](size_t, size_t, const std::string&, const std::vector<std::string>& args) {
                      for (size_t i = 0; i < args.size(); ++i) {
                        s.slots.push_back("s" + std::to_string(s.slots.size() + 1));
                        s.slotRules.push_back(name);
                        slots.push_back(s.slots.back());
                      }
                    });
    s.steps.push_back(
        replayStep(fmt::format("{}({}){}", name, fmt::join(slots, ", "), step.substr(at))));
  }
  s.text = textOf(s.steps);
  return s;
}

Skeleton parseSkeleton(const std::string& text) {
  Skeleton s;
  // the steps: the text split at the `;` outside brackets
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    const std::string t = trim(cur);
    if (!t.empty()) s.steps.push_back(t);
    cur.clear();
  };
  for (char c : text) {
    depth += (c == '(' || c == '[') - (c == ')' || c == ']');
    if (c == ';' && depth == 0)
      flush();
    else
      cur += c;
  }
  flush();
  if (depth != 0)
    throw backends::UserError(
        fmt::format("--skeleton '{}': unbalanced parentheses or brackets", text));
  // a name applied to arguments that is no rule, combinator or named strategy (the parser would
  // first complain about its arguments, the slot names)
  const std::vector<std::string> combinators = rewrites::combinatorNames();
  for (size_t i = 0; (i = text.find('(', i)) != std::string::npos; ++i) {
    size_t b = i;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) || text[b - 1] == '_'))
      --b;
    const std::string name = text.substr(b, i - b);
    if (!name.empty() && !rewrites::findRule(name) && !rewrites::namedStrategy(name) &&
        std::find(combinators.begin(), combinators.end(), name) == combinators.end())
      throw backends::UserError(fmt::format("--skeleton '{}': unknown rule '{}'", text, name));
  }
  if (!s.steps.empty() && s.steps.back() == "lowerDefault") s.steps.pop_back();
  std::map<std::string, int64_t> probe;
  for (const std::string& step : s.steps)
    forEachRuleCall(
        step, [&](size_t, size_t, const std::string& name, const std::vector<std::string>& args) {
          for (const std::string& a : args) {
            if (isInteger(a) || a.empty()) continue;
            if (!isName(a))
              throw backends::UserError(fmt::format(
                  "--skeleton '{}': the argument '{}' of {} is neither an integer nor a slot name",
                  text, a, name));
            if (probe.emplace(a, 2).second) {
              s.slots.push_back(a);
              s.slotRules.push_back(name);
            }
          }
        });
  s.text = textOf(s.steps);
  try {
    (void)rewrites::parseStrategy(instantiate(s, probe));
  } catch (const rewrites::StrategyParseError& e) {
    throw backends::UserError(fmt::format("--skeleton '{}': {}", text, e.message()));
  }
  return s;
}

std::string instantiate(const Skeleton& s, const std::map<std::string, int64_t>& values) {
  std::vector<std::string> steps;
  for (const std::string& step : s.steps) steps.push_back(substitute(step, values));
  return textOf(steps);
}

std::vector<int64_t> divisorValues(const std::vector<std::string>& defines) {
  std::vector<int64_t> out;
  for (const std::string& d : defines) {
    const size_t eq = d.find('=');
    if (eq == std::string::npos) continue;
    const auto v = compiler::frontend::parseDefineValue(trim(d.substr(eq + 1)));
    if (!v || !std::holds_alternative<int64_t>(*v) || std::get<int64_t>(*v) < 2) continue;
    for (int64_t x : tuner::divisorsOf(std::get<int64_t>(*v)))
      if (x > 1) out.push_back(x);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The programs the skeletons' prefixes give, by their strategy text (nullptr: a rule did not
// apply), so that the constraints of a tree's levels rewrite each prefix once.
struct KernelSpace::Memo {
  ir::ExprPtr start;
  KernelSpaceOptions options;
  std::unordered_map<std::string, ir::ExprPtr> prefixes;
  std::unordered_map<std::string, bool> complete;
  size_t applied = 0, compiled = 0;

  void tooMany() const {
    if (options.maxChecks > 0 && applied + compiled > options.maxChecks)
      throw backends::UserError(fmt::format(
          "the space's constraints took more than {} rewrites and compilations to check "
          "(--max-checks): "
          "give the slots fewer values (--values, --range) or fewer skeletons (--depth, --rules, "
          "--skeleton)",
          options.maxChecks));
  }

  ir::ExprPtr prefix(const Skeleton& s, size_t n, const std::map<std::string, int64_t>& v) {
    if (n == 0) return start;
    std::string key;
    for (size_t i = 0; i < n; ++i) key += substitute(s.steps[i], v) + "; ";
    if (auto it = prefixes.find(key); it != prefixes.end()) return it->second;
    ir::ExprPtr p = prefix(s, n - 1, v), out;
    if (p) {
      ++applied;
      tooMany();
      try {
        auto r = rewrites::rewrite(p, rewrites::parseStrategy(substitute(s.steps[n - 1], v)));
        if (r.success) out = r.program;
      } catch (const rewrites::RewriteError&) {
        // a rule's bug: left out here, reported by the cost when the strategy is built again
      } catch (const rewrites::StrategyParseError&) {
        // a value the rule refuses (vectorize(3)): no configuration
      }
    }
    return prefixes[key] = out;
  }

  // Every step applies, and the kernel's work-groups fit the device.
  bool fits(const Skeleton& s, const std::map<std::string, int64_t>& v) {
    const ir::ExprPtr p = prefix(s, s.steps.size(), v);
    if (!p || !options.needs || (options.maxWorkGroup <= 0 && options.maxLocalBytes <= 0))
      return p != nullptr;
    const std::string key = instantiate(s, v);
    if (auto it = complete.find(key); it != complete.end()) return it->second;
    ++compiled;
    tooMany();
    const auto n = options.needs(key);
    const bool ok = !n || ((options.maxWorkGroup <= 0 || n->items <= options.maxWorkGroup) &&
                           (options.maxLocalBytes <= 0 || n->localBytes <= options.maxLocalBytes));
    return complete[key] = ok;
  }
};

KernelSpace::KernelSpace(ir::ExprPtr typedBody, std::vector<Skeleton> skeletons,
                         KernelSpaceOptions o)
    : memo_(std::make_shared<Memo>()) {
  for (Skeleton& s : skeletons)  // the same skeleton twice (explore's sequences of other values)
    if (std::none_of(skeletons_.begin(), skeletons_.end(),
                     [&](const Skeleton& x) { return x.text == s.text; }))
      skeletons_.push_back(std::move(s));
  memo_->start = std::move(typedBody);
  memo_->options = o;
  for (const Skeleton& s : skeletons_)
    for (const std::string& n : s.slots)
      if (std::find(slotNames_.begin(), slotNames_.end(), n) == slotNames_.end())
        slotNames_.push_back(n);
  for (const auto& [name, values] : o.ranges)
    if (std::find(slotNames_.begin(), slotNames_.end(), name) == slotNames_.end())
      throw backends::UserError(
          fmt::format("--range {}: no skeleton has a slot {} (slots: {})", name, name,
                      slotNames_.empty() ? std::string("none")
                                         : fmt::format("{}", fmt::join(slotNames_, ", "))));
  // per skeleton: each slot's values, the global index of each slot parameter (1-based, 0 the
  // skeleton), and per step the last parameter it needs
  struct Info {
    std::map<std::string, std::vector<tuner::Value>> values;
    std::vector<size_t> stepNeeds;
  };
  auto infos = std::make_shared<std::map<std::string, Info>>();
  std::vector<std::string> texts;
  for (const Skeleton& s : skeletons_) {
    texts.push_back(s.text);
    Info& info = (*infos)[s.text];
    for (size_t i = 0; i < s.slots.size(); ++i) {
      const std::string& n = s.slots[i];
      std::vector<int64_t> v = o.values;
      if (auto r = o.ranges.find(n); r != o.ranges.end())
        v = r->second;
      else if (s.slotRules[i] == "vectorize" || s.slotRules[i] == "vectorizeOperand")
        v = {2, 4};
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
      if (v.empty())
        throw backends::UserError(fmt::format(
            "slot {} of the skeleton '{}' has no values (give --values V1,V2,... or --range "
            "{}=V1,V2,...)",
            n, s.text, n));
      info.values[n] = tuner::asValues(v);
    }
    for (const std::string& step : s.steps) {
      size_t needs = 0;
      for (size_t j = 0; j < slotNames_.size(); ++j)
        forEachRuleCall(
            step, [&](size_t, size_t, const std::string&, const std::vector<std::string>& args) {
              if (std::find(args.begin(), args.end(), slotNames_[j]) != args.end()) needs = j + 1;
            });
      info.stepNeeds.push_back(needs);
    }
  }
  std::unordered_map<std::string, const Skeleton*> byText;
  for (const Skeleton& s : skeletons_) byText.emplace(s.text, &s);

  // The constraint of parameter j: the steps that its value completes apply (all of them, and
  // the work-group, at the last parameter).
  const size_t last = slotNames_.size();
  auto rulesApply = [this, infos, byText, last](size_t j) {
    std::vector<std::string> others;  // what the predicate reads besides parameter j
    if (j > 0) others.push_back("skeleton");
    for (size_t i = 1; i < j; ++i) others.push_back(slotNames_[i - 1]);
    auto memo = memo_;
    auto names = slotNames_;
    auto fn = [memo, infos, byText, names, last, j](const tuner::Configuration& c) {
      const std::string& text = c.getString("skeleton");
      const Skeleton& s = *byText.at(text);
      const Info& info = infos->at(text);
      auto done = [&](size_t k) {
        size_t n = 0;
        while (n < info.stepNeeds.size() && info.stepNeeds[n] <= k) ++n;
        return n;
      };
      const size_t now = done(j);
      if (j < last && (j > 0 && now == done(j - 1))) return true;  // nothing new to apply
      std::map<std::string, int64_t> v;
      for (size_t i = 0; i < j; ++i)
        if (info.values.count(names[i])) v[names[i]] = c.getInt(names[i]);
      if (j == last) return memo->fits(s, v);
      return memo->prefix(s, now, v) != nullptr;
    };
    return tuner::predicate(others, fn, "the skeleton's rules apply");
  };

  std::vector<tuner::Parameter> params;
  params.emplace_back("skeleton", tuner::stringSet(texts));
  params.back().where(rulesApply(0));
  for (size_t j = 1; j <= last; ++j) {
    const std::string name = slotNames_[j - 1];
    params.emplace_back(name, tuner::generator(
                                  {"skeleton"},
                                  [infos, name](const tuner::Configuration& c) {
                                    const Info& info = infos->at(c.getString("skeleton"));
                                    auto it = info.values.find(name);
                                    return it == info.values.end()
                                               ? std::vector<tuner::Value>{int64_t{0}}
                                               : it->second;
                                  },
                                  "the slot's values in the skeleton (0 where it has none)"));
    params.back().where(rulesApply(j));
  }
  space_ = std::make_unique<tuner::SearchSpace>(std::move(params));
}

std::string KernelSpace::strategy(const tuner::Configuration& c) const {
  const std::string& text = c.getString("skeleton");
  for (const Skeleton& s : skeletons_)
    if (s.text == text) {
      std::map<std::string, int64_t> v;
      for (const std::string& n : s.slots) v[n] = c.getInt(n);
      return instantiate(s, v);
    }
  throw tuner::TunerError("no skeleton '" + text + "'");
}

std::vector<uint64_t> KernelSpace::perSkeleton() const {
  std::map<std::string, uint64_t> n;
  for (uint64_t i = 0; i < space_->size(); ++i) ++n[space_->at(i).getString("skeleton")];
  std::vector<uint64_t> out;
  for (const Skeleton& s : skeletons_) out.push_back(n[s.text]);
  return out;
}

std::optional<uint64_t> KernelSpace::baselineIndex() const {
  boost::json::object o;
  o["skeleton"] = "lowerDefault";
  for (const std::string& n : slotNames_) o[n] = 0;
  return space_->indexOf(o);
}

size_t KernelSpace::rewritesApplied() const {
  return memo_->applied;
}

size_t KernelSpace::kernelsCompiled() const {
  return memo_->compiled;
}

}  // namespace fftc::driver
