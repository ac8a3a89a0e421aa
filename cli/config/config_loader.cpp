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

namespace {

// What a config produced so far: its problems and, for duplicate-name messages, where each
// came from ("problems[3]", "axes[0]", "random").
struct Produced {
  std::vector<Problem> problems;
  std::vector<std::string> origins;
};

Settings parse_defaults(const json& doc, const JsonPlace& file) {
  Settings defaults;
  if (!doc.contains("defaults")) return defaults;
  const json& d = doc.at("defaults");
  require_object(d, file, "defaults");
  check_keys(d, kDefaultsKeys, file, "defaults");
  parse_settings(d, JsonPlace{file.source, "", "defaults."}, defaults, false);
  return defaults;
}

void parse_problem_list(const json& list, const Settings& defaults, const JsonPlace& file,
                        Produced& out) {
  if (!list.is_array())
    file.fail_field("problems", &list, "must be a list, got " + json_type_name(list));
  if (list.size() > kMaxProblems)
    file.fail("'problems' has " + std::to_string(list.size()) + " entries, over the limit of " +
              std::to_string(kMaxProblems));
  for (size_t i = 0; i < list.size(); ++i) {
    out.problems.push_back(parse_problem(list[i], i, defaults, file));
    out.origins.push_back("problems[" + std::to_string(i) + "]");
  }
}

void parse_axes_list(const json& list, const Settings& defaults, const JsonPlace& file,
                     Produced& out) {
  // A single axes object is accepted like a one-element list, as for the axis values.
  if (list.is_object()) {
    expand_axes(list, 0, defaults, file, out.problems, out.origins);
  } else if (list.is_array()) {
    for (size_t i = 0; i < list.size(); ++i)
      expand_axes(list[i], i, defaults, file, out.problems, out.origins);
  } else {
    file.fail_field("axes", &list, "must be a list of axes objects, got " + json_type_name(list));
  }
}

// Generated from ranges: cli/config/random_problems.hpp.
void parse_random_block(const json& block, const JsonPlace& file, Produced& out) {
  for (Problem& p : generate_random_problems(parse_random_spec(block, file.source))) {
    if (block.contains("expect"))
      p.expect =
          parse_expect(block.at("expect"), JsonPlace{file.source, "random", ""}, p.tolerances);
    out.problems.push_back(std::move(p));
    out.origins.push_back("random");
  }
}

void check_unique_names(const Produced& in, const std::string& source) {
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < in.problems.size(); ++i) {
    auto [it, inserted] = seen.emplace(in.problems[i].name, i);
    if (inserted) continue;
    json v = in.problems[i].name;
    const std::string& first = in.origins[it->second];
    std::string from = first == in.origins[i]
                           ? "generated twice by " + first + " (repeated axis value)"
                           : "from " + first + " and " + in.origins[i];
    JsonPlace{source, "problem '" + in.problems[i].name + "'", ""}.fail_field(
        "name", &v, "duplicate problem name, " + from + " (names become directory names)");
  }
}

}  // namespace

std::vector<Problem> parse_config(const json& doc, const std::string& source) {
  JsonPlace file{source, "", ""};
  if (!doc.is_object()) file.fail("top level must be a JSON object, got " + json_type_name(doc));
  check_keys(doc, kTopKeys, file, "");
  if (doc.contains("description")) get_string(doc.at("description"), file, "description");
  const Settings defaults = parse_defaults(doc, file);
  Produced out;
  if (doc.contains("problems")) parse_problem_list(doc.at("problems"), defaults, file, out);
  if (doc.contains("axes")) parse_axes_list(doc.at("axes"), defaults, file, out);
  if (doc.contains("random")) parse_random_block(doc.at("random"), file, out);
  if (out.problems.empty())
    file.fail("no problems: 'problems' is missing or empty and 'axes' expands to nothing");
  check_unique_names(out, source);
  return std::move(out.problems);
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
