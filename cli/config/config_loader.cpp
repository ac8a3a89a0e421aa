#include "cli/config/config_loader.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <system_error>

#include "base/errors.hpp"
#include "base/json_document.hpp"
#include "base/read_file.hpp"
#include "cli/config/config_schema.hpp"
#include "cli/config/random_problems.hpp"

namespace gnbench {

using nlohmann::json;
using namespace config_schema;

void validate_shape(const Shape& shape, const std::string& source, const std::string& problem) {
  validate_shape_in(shape,
                    JsonPlace{source, problem.empty() ? "" : "problem '" + problem + "'", ""});
}

void validate_problem_name(const std::string& name, const std::string& what) {
  const std::string rule = name_rule(name);
  if (!rule.empty()) throw ConfigError(what + " '" + name + "': " + rule);
}

void validate_eps(double eps, const std::string& source, const std::string& problem) {
  validate_eps_in(eps, nullptr,
                  JsonPlace{source, problem.empty() ? "" : "problem '" + problem + "'", ""}, "eps");
}

std::vector<Problem> parse_config(const json& doc, const std::string& source) {
  JsonPlace file{source, "", ""};
  if (!doc.is_object()) file.fail("top level must be a JSON object, got " + json_type_name(doc));
  check_keys(doc, kTopKeys, file, "");
  if (doc.contains("description")) get_string(doc.at("description"), file, "description");

  Settings defaults;
  if (doc.contains("defaults")) {
    const json& d = doc.at("defaults");
    require_object(d, file, "defaults");
    JsonPlace dctx{source, "", "defaults."};
    check_keys(d, kDefaultsKeys, file, "defaults");
    parse_settings(d, dctx, defaults, false);
  }

  std::vector<Problem> problems;
  std::vector<std::string> origins;  // for duplicate-name messages
  if (doc.contains("problems")) {
    const json& list = doc.at("problems");
    if (!list.is_array())
      file.fail_field("problems", &list, "must be a list, got " + json_type_name(list));
    if (list.size() > kMaxProblems)
      file.fail("'problems' has " + std::to_string(list.size()) + " entries, over the limit of " +
                std::to_string(kMaxProblems));
    for (size_t i = 0; i < list.size(); ++i) {
      problems.push_back(parse_problem(list[i], i, defaults, file));
      origins.push_back("problems[" + std::to_string(i) + "]");
    }
  }
  if (doc.contains("axes")) {
    const json& list = doc.at("axes");
    // A single axes object is accepted like a one-element list, as for the axis values.
    if (list.is_object()) {
      expand_axes(list, 0, defaults, file, problems, origins);
    } else if (list.is_array()) {
      for (size_t i = 0; i < list.size(); ++i)
        expand_axes(list[i], i, defaults, file, problems, origins);
    } else {
      file.fail_field("axes", &list, "must be a list of axes objects, got " + json_type_name(list));
    }
  }
  if (doc.contains("random")) {  // generated from ranges: config/random_problems.hpp
    const json& block = doc.at("random");
    for (Problem& p : generate_random_problems(parse_random_spec(block, source))) {
      if (block.contains("expect"))
        p.expect = parse_expect(block.at("expect"), JsonPlace{source, "random", ""}, p.tolerances);
      problems.push_back(std::move(p));
      origins.push_back("random");
    }
  }
  if (problems.empty())
    file.fail("no problems: 'problems' is missing or empty and 'axes' expands to nothing");

  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < problems.size(); ++i) {
    auto [it, inserted] = seen.emplace(problems[i].name, i);
    if (!inserted) {
      json v = problems[i].name;
      JsonPlace ctx{source, "problem '" + problems[i].name + "'", ""};
      const std::string& first = origins[it->second];
      std::string from = first == origins[i]
                             ? "generated twice by " + first + " (repeated axis value)"
                             : "from " + first + " and " + origins[i];
      ctx.fail_field("name", &v,
                     "duplicate problem name, " + from + " (names become directory names)");
    }
  }
  return problems;
}

std::vector<Problem> parse_config_text(const std::string& text, const std::string& source) {
  return parse_config(parse_json_document(text, source), source);
}

std::vector<Problem> load_config_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)  // e.g. a parent directory not searchable
    throw ConfigError(path + ": cannot open config file: " + ec.message());
  if (!fs::exists(st)) throw ConfigError(path + ": cannot open config file: no such file");
  if (fs::is_directory(st))
    throw ConfigError(path + ": cannot read config file: it is a directory");
  // Neither blocks on a FIFO without a writer nor reads /dev/zero forever.
  return parse_config_text(read_input_file(path, "config file"), path);
}

}  // namespace gnbench
