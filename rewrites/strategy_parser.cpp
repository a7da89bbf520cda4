// A recursive-descent parser for the strategy language (grammar in strategy_parser.h).
#include "rewrites/strategy_parser.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <variant>

#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"

namespace fftc::rewrites {

namespace {

std::string formatError(const std::string& text, size_t column, const std::string& message) {
  std::string s = "strategy:1:" + std::to_string(column) + ": error: " + message + "\n  " + text +
                  "\n  " + std::string(column > 0 ? column - 1 : 0, ' ') + "^";
  return s;
}

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string joinNames(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

using Arg = std::variant<int64_t, Path, Strategy>;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Strategy parse() {
    skip();
    if (pos_ >= text_.size()) fail(pos_, "empty strategy");
    Strategy s = sequence();
    skip();
    if (pos_ < text_.size()) fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "'");
    return s;
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string& msg) const {
    throw StrategyParseError(text_, at + 1, msg);
  }
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (text_.compare(pos_, tok.size(), tok) == 0) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  void expect(std::string_view tok, const char* what) {
    if (!eat(tok)) {
      skip();
      fail(pos_, std::string("expected '") + std::string(tok) + "' " + what +
                     (pos_ < text_.size() ? ", found '" + std::string(1, text_[pos_]) + "'"
                                          : ", found the end of the text"));
    }
  }

  Strategy sequence() {
    std::vector<Strategy> parts{choice()};
    while (eat(";")) parts.push_back(choice());
    return parts.size() == 1 ? parts[0] : seq(parts);
  }
  Strategy choice() {
    Strategy s = term();
    while (eat("<+")) s = lChoice(s, term());
    return s;
  }

  Strategy term() {
    // nesting is recursion here: bound it so that no text can overflow the stack
    struct Depth {
      int& d;
      explicit Depth(int& x) : d(++x) {}
      ~Depth() { --d; }
    } guard(depth_);
    if (depth_ > kMaxDepth) fail(pos_, "strategy nested deeper than " + std::to_string(kMaxDepth));
    skip();
    if (pos_ >= text_.size()) fail(pos_, "expected a strategy, found the end of the text");
    if (eat("(")) {
      Strategy s = sequence();
      expect(")", "to close '('");
      return s;
    }
    size_t start = pos_;
    if (!(std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      fail(pos_, "expected a rule or strategy name, found '" + std::string(1, text_[pos_]) + "'");
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    std::string name(text_.substr(start, pos_ - start));
    std::vector<std::pair<size_t, Arg>> args;
    bool hasParens = false;
    if (eat("(")) {
      hasParens = true;
      skip();
      if (!eat(")")) {
        do {
          skip();
          size_t argAt = pos_;
          Arg a = arg();
          args.emplace_back(argAt, std::move(a));
        } while (eat(","));
        expect(")", ("to close the arguments of " + name).c_str());
      }
    }
    return build(name, start, args, hasParens);
  }

  Arg arg() {
    skip();
    if (pos_ < text_.size() &&
        (std::isdigit(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-'))
      return integer();
    if (eat("[")) {
      Path p;
      skip();
      if (!eat("]")) {
        do {
          size_t at = pos_;
          int64_t v = integer();
          if (v < 0 || v > std::numeric_limits<uint32_t>::max())
            fail(at, "a path index must be >= 0");
          p.push_back(static_cast<uint32_t>(v));
        } while (eat(","));
        expect("]", "to close the path");
      }
      return p;
    }
    return sequence();
  }

  int64_t integer() {
    skip();
    size_t start = pos_;
    bool neg = eat("-");
    skip();
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
      fail(pos_, "expected an integer");
    int64_t v = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      int d = text_[pos_] - '0';
      if (v > (std::numeric_limits<int64_t>::max() - d) / 10) fail(start, "integer too large");
      v = v * 10 + d;
      ++pos_;
    }
    return neg ? -v : v;
  }

  Strategy strategyArg(const std::string& name, const std::vector<std::pair<size_t, Arg>>& args,
                       size_t i) {
    if (!std::holds_alternative<Strategy>(args[i].second))
      fail(args[i].first, name + ": argument " + std::to_string(i + 1) + " must be a strategy");
    return std::get<Strategy>(args[i].second);
  }

  Strategy build(const std::string& name, size_t at,
                 const std::vector<std::pair<size_t, Arg>>& args, bool hasParens) {
    auto arity = [&](size_t lo, size_t hi) {
      if (args.size() < lo || args.size() > hi)
        fail(at, name + " takes " +
                     (lo == hi ? std::to_string(lo) : std::to_string(lo) + " or more") +
                     " argument(s), got " + std::to_string(args.size()));
    };
    using Unary = Strategy (*)(Strategy);
    static const std::vector<std::pair<std::string, Unary>> unary = {
        {"try", tryStrategy},   {"repeat", repeat},       {"topDown", topDown},
        {"bottomUp", bottomUp}, {"normalize", normalize}, {"all", allChildren},
        {"one", oneChild},      {"some", someChild},      {"allTopDown", allTopDown},
        {"outer", outer}};
    for (const auto& [n, f] : unary) {
      if (n != name) continue;
      arity(1, 1);
      return f(strategyArg(name, args, 0));
    }
    if (name == "seq" || name == "lChoice") {
      arity(name == "seq" ? 1 : 2, std::numeric_limits<size_t>::max());
      std::vector<Strategy> ss;
      for (size_t i = 0; i < args.size(); ++i) ss.push_back(strategyArg(name, args, i));
      if (name == "seq") return seq(ss);
      Strategy s = ss.back();
      for (size_t i = ss.size() - 1; i-- > 0;) s = lChoice(ss[i], s);
      return s;
    }
    if (name == "at") {
      arity(2, 2);
      if (!std::holds_alternative<Path>(args[0].second))
        fail(args[0].first, "at: the first argument is a path such as [0, 2, 1]");
      return atPath(std::get<Path>(args[0].second), strategyArg(name, args, 1));
    }
    if (name == "id" || name == "fail") {
      if (hasParens) arity(0, 0);
      return name == "id" ? identity() : failure();
    }
    if (const RuleInfo* r = findRule(name)) {
      std::vector<int64_t> params;
      for (const auto& [p, a] : args) {
        if (!std::holds_alternative<int64_t>(a))
          fail(p, "rule " + r->signature + " takes integer parameters");
        params.push_back(std::get<int64_t>(a));
      }
      std::string err;
      auto rule = makeRule(name, params, &err);
      if (!rule) fail(at, err);
      return *rule;
    }
    if (auto s = namedStrategy(name)) {
      if (hasParens) fail(at, "the named strategy " + name + " takes no arguments");
      return *s;
    }
    fail(at, unknown(name));
  }

  static std::string unknown(const std::string& name) {
    std::vector<std::string> rules, named, all;
    for (const auto& r : ruleCatalog()) rules.push_back(r.signature);
    for (const auto& s : namedStrategies()) named.push_back(s.name);
    for (const auto& r : ruleCatalog()) all.push_back(r.name);
    all.insert(all.end(), named.begin(), named.end());
    for (const auto& c : combinatorNames()) all.push_back(c);
    std::string best;
    size_t bestD = 3;
    for (const auto& n : all) {
      size_t d = editDistance(name, n);
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    std::string msg = "unknown rule or strategy '" + name + "'";
    if (!best.empty()) msg += " (did you mean '" + best + "'?)";
    msg += "; known rules: " + joinNames(rules) + "; named strategies: " + joinNames(named) +
           "; combinators: " + joinNames(combinatorNames());
    return msg;
  }

  static constexpr int kMaxDepth = 256;
  std::string text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

StrategyParseError::StrategyParseError(std::string text, size_t column, std::string message)
    : std::runtime_error(formatError(text, column, message)),
      column_(column),
      message_(std::move(message)) {}

std::vector<std::string> combinatorNames() {
  return {"seq",  "lChoice",    "try",   "repeat", "topDown", "bottomUp", "normalize", "all", "one",
          "some", "allTopDown", "outer", "at",     "id",      "fail",     ";",         "<+"};
}

Strategy parseStrategy(std::string_view text) {
  Parser p(text);
  return p.parse();
}

}  // namespace fftc::rewrites
