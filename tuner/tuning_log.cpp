#include "tuner/tuning_log.h"

#include <fmt/format.h>

#include <sstream>

namespace fftc::tuner {

namespace json = boost::json;

TuningLog::TuningLog(std::filesystem::path path, LogKey key)
    : path_(std::move(path)), key_(std::move(key)) {
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
  read();
  out_.open(path_, std::ios::app | std::ios::binary);
  if (!out_)
    throw TunerError(fmt::format("{}: cannot open the tuning log for appending", path_.string()));
}

static std::string field(const json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  return v && v->is_string() ? std::string(v->get_string()) : std::string("(missing)");
}

LogEntry TuningLog::parseLine(const std::string& text, std::size_t line) const {
  const auto where = fmt::format("{}:{}", path_.string(), line);
  json::value v;
  try {
    v = json::parse(text);
  } catch (const std::exception& e) {
    throw TunerError(fmt::format("{}: not a JSON line ({})", where, e.what()));
  }
  if (!v.is_object()) throw TunerError(where + ": a log line must be a JSON object");
  const auto& o = v.get_object();
  auto check = [&](std::string_view name, const std::string& mine) {
    auto theirs = field(o, name);
    if (theirs != mine)
      throw TunerError(fmt::format(
          "{}: this log line was recorded for {} '{}', but this run is for {} '{}'; use "
          "another tuning log for it",
          where, name, theirs, name, mine));
  };
  check("device", key_.device);
  check("driver", key_.driver);
  check("problem", key_.problem);
  const auto* config = o.if_contains("config");
  if (!config || !config->is_object()) throw TunerError(where + ": no \"config\" object");
  std::vector<std::string> names;
  for (const auto& kv : config->get_object()) names.emplace_back(kv.key());
  if (names != key_.parameters)
    throw TunerError(
        fmt::format("{}: parameters ({}) differ from this run's ({}); use another "
                    "tuning log for it",
                    where, fmt::join(names, ", "), fmt::join(key_.parameters, ", ")));
  LogEntry e;
  e.config = config->get_object();
  try {
    e.result = Result::readFrom(o);
  } catch (const TunerError& err) {
    throw TunerError(fmt::format("{}: {}", where, err.what()));
  }
  if (const auto* s = o.if_contains("seconds"); s && s->is_number())
    e.seconds = s->to_number<double>();
  e.line = line;
  return e;
}

void TuningLog::read() {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return;  // a new log
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::size_t pos = 0, line = 0;
  while (pos < text.size()) {
    ++line;
    std::size_t nl = text.find('\n', pos);
    const bool complete = nl != std::string::npos;
    std::string s = text.substr(pos, complete ? nl - pos : std::string::npos);
    if (s.find_first_not_of(" \t\r") == std::string::npos) {
      pos = complete ? nl + 1 : text.size();
      continue;
    }
    if (complete) {
      entries_.push_back(parseLine(s, line));
      pos = nl + 1;
      continue;
    }
    // The last line has no newline: a write was interrupted. Keep it if it is whole,
    // otherwise cut it off so that the next append starts a fresh line.
    in.close();
    try {
      entries_.push_back(parseLine(s, line));
      std::ofstream(path_, std::ios::app | std::ios::binary) << '\n';
    } catch (const TunerError& e) {
      warnings_.push_back(
          fmt::format("{}:{}: ignoring a truncated last line (an interrupted write?): {}",
                      path_.string(), line, e.what()));
      std::filesystem::resize_file(path_, pos);
    }
    break;
  }
}

void TuningLog::append(const Configuration& c, const Result& r, double seconds) {
  json::object o;
  o["device"] = key_.device;
  o["driver"] = key_.driver;
  o["problem"] = key_.problem;
  o["config"] = c.toJson();
  r.writeTo(o);
  o["seconds"] = seconds;
  std::vector<std::string> names(c.names());
  if (names != key_.parameters)
    throw TunerError(fmt::format("{}: appending a configuration of ({}) to a log of ({})",
                                 path_.string(), fmt::join(names, ", "),
                                 fmt::join(key_.parameters, ", ")));
  out_ << json::serialize(o) << '\n';
  out_.flush();
  if (!out_) throw TunerError(fmt::format("{}: writing the tuning log failed", path_.string()));
  LogEntry e{c.toJson(), r, seconds, 0};
  entries_.push_back(std::move(e));
}

}  // namespace fftc::tuner
