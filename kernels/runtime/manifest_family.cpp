#include "kernels/runtime/manifest_family.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "base/errors.hpp"
#include "base/message_text.hpp"

namespace gnbench {

using nlohmann::json;

namespace {

// A mistaken (or fuzzed) family could otherwise expand without end: the product of its axes
// and the values of placeholders that use placeholders both grow exponentially.
constexpr size_t kMaxBuilds = 4096;
constexpr size_t kMaxExpandedSize = size_t{1} << 22;  // JSON nodes plus string bytes
constexpr size_t kMaxNesting = 16;                    // placeholder values using placeholders

[[noreturn]] void fail(const std::string& where, const std::string& field,
                       const std::string& what) {
  throw ConfigError(where + ": field '" + printable(field, 120) + "': " + printable(what, 400));
}

const std::string kNameRule = "names are [A-Za-z_][A-Za-z0-9_]*, not 'axes'";

bool is_name(const std::string& s) {
  if (s.empty() || s.size() > 64 || s == "axes") return false;
  if (!std::isalpha(static_cast<unsigned char>(s[0])) && s[0] != '_') return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string quoted(const std::string& s) { return json(printable(s, 160)).dump(); }

std::string kind_of(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  if (v.is_boolean()) return "true/false";
  return "a number that is not an integer";
}

// The size a value adds to the expansion each time it is substituted.
size_t size_of(const json& v) {
  size_t n = 1;
  if (v.is_string()) n += v.get_ref<const std::string&>().size();
  if (v.is_object())
    for (const auto& [key, item] : v.items()) n += key.size() + size_of(item);
  if (v.is_array())
    for (const auto& item : v) n += size_of(item);
  return n;
}

// "${name}" and nothing else: the value replaces the string whatever its JSON type.
std::optional<std::string> whole_placeholder(const std::string& s) {
  if (s.size() < 4 || s.compare(0, 2, "${") != 0 || s.find('}') != s.size() - 1) return {};
  std::string name = s.substr(2, s.size() - 3);
  if (!is_name(name)) return {};  // text() reports it
  return name;
}

// Where a placeholder's value was written: for messages and for the never-used check.
struct Source {
  std::string name;
  std::string field;  // "let.note", "axes[1][0].wg", "axes[0].wg[2]"
  bool used = false;
};

struct Binding {
  const json* value;
  size_t source;
  bool is_default;  // from `let`: an axis value may rebind it
};

// One build, or the part of one that an axis value contributes.
struct Build {
  std::map<std::string, Binding> bindings;
  std::vector<std::string> origin;  // the axis values combined, for messages
};

std::string origin_text(const Build& b) {
  std::string s;
  for (const auto& o : b.origin) s += (s.empty() ? "" : ", ") + o;
  return "(" + s + ")";
}

class Expander;

// The substitution of one build's placeholders; each placeholder is resolved once.
class Substitution {
 public:
  Substitution(Expander& family, const Build& build, std::string where)
      : family_(family), build_(build), where_(std::move(where)) {}
  void rename(std::string where) { where_ = std::move(where); }
  // nullopt: the node was a placeholder bound to null, and its member or entry goes away.
  std::optional<json> node(const json& n, const std::string& field);
  std::string text(const std::string& s, const std::string& field);

 private:
  struct Resolved {
    json value;
    size_t size;
  };
  const Resolved& resolve(const std::string& name, const std::string& field, const std::string& in);

  Expander& family_;
  const Build& build_;
  std::string where_;
  std::map<std::string, Resolved> resolved_;
  std::vector<std::string> resolving_;
};

class Expander {
 public:
  Expander(const json& family, std::string where) : family_(family), where_(std::move(where)) {}
  ExpandedFamily run();
  Source& source(size_t i) { return sources_[i]; }
  void spend(size_t size, const std::string& where, const std::string& field) {
    spent_ += size;
    if (spent_ > kMaxExpandedSize)
      fail(where, field,
           "the family expands to more than " + std::to_string(kMaxExpandedSize) +
               " JSON nodes and bytes");
  }

 private:
  std::vector<Build> product(const json& axes, const std::string& field);
  std::vector<Build> values(const json& axis, const std::string& field);
  Build merge(const Build& into, const Build& part);

  const json& family_;
  std::string where_;
  std::vector<Source> sources_;
  size_t spent_ = 0;
};

const Substitution::Resolved& Substitution::resolve(const std::string& name,
                                                    const std::string& field,
                                                    const std::string& in) {
  if (auto it = resolved_.find(name); it != resolved_.end()) return it->second;
  auto bound = build_.bindings.find(name);
  if (bound == build_.bindings.end()) {
    std::vector<std::string> names;
    for (const auto& [n, b] : build_.bindings) names.push_back(n);
    fail(where_, field,
         "unknown placeholder '${" + name + "}' (this build binds: " +
             (names.empty() ? "nothing" : join_bounded(names, 20)) + ") in " + quoted(in));
  }
  if (std::find(resolving_.begin(), resolving_.end(), name) != resolving_.end()) {
    std::string chain;
    for (const auto& n : resolving_) chain += n + " -> ";
    fail(where_, field, "placeholder '${" + name + "}' uses itself: " + chain + name);
  }
  if (resolving_.size() >= kMaxNesting)
    fail(where_, field,
         "placeholder values use placeholders more than " + std::to_string(kMaxNesting) +
             " deep at '${" + name + "}'");
  Source& source = family_.source(bound->second.source);
  source.used = true;
  resolving_.push_back(name);
  std::optional<json> value = node(*bound->second.value, source.field);
  resolving_.pop_back();
  json v = value ? std::move(*value) : json(nullptr);
  const size_t size = size_of(v);
  return resolved_.emplace(name, Resolved{std::move(v), size}).first->second;
}

std::string Substitution::text(const std::string& s, const std::string& field) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t dollar = s.find('$', i);
    out.append(s, i, dollar == std::string::npos ? std::string::npos : dollar - i);
    if (dollar == std::string::npos) break;
    if (s.compare(dollar, 2, "$$") == 0 || s.compare(dollar, 2, "${") != 0) {
      out += '$';  // "$$" is a literal '$', and so is a '$' before anything but '{'
      i = dollar + (s.compare(dollar, 2, "$$") == 0 ? 2 : 1);
      continue;
    }
    const size_t close = s.find('}', dollar + 2);
    if (close == std::string::npos)
      fail(where_, field,
           "unterminated placeholder '" + s.substr(dollar, 24) + "' in " + quoted(s));
    const std::string name = s.substr(dollar + 2, close - dollar - 2);
    if (!is_name(name))
      fail(where_, field,
           "'${" + name + "}' is not a placeholder (" + kNameRule + ") in " + quoted(s));
    const json& v = resolve(name, field, s).value;
    if (v.is_string())
      out += v.get_ref<const std::string&>();
    else if (v.is_number_integer())
      out += v.dump();
    else
      fail(where_, field,
           "placeholder '${" + name + "}' is " + kind_of(v) +
               ": only a string or an integer can be part of a longer string (a whole-string "
               "\"${" +
               name + "}\" takes any value) in " + quoted(s));
    i = close + 1;
  }
  family_.spend(out.size() + 1, where_, field);
  return out;
}

std::optional<json> Substitution::node(const json& n, const std::string& field) {
  if (n.is_string()) {
    const auto& s = n.get_ref<const std::string&>();
    if (auto name = whole_placeholder(s)) {
      const Resolved& r = resolve(*name, field, s);
      if (r.value.is_null()) return std::nullopt;
      family_.spend(r.size, where_, field);
      return r.value;
    }
    return json(text(s, field));
  }
  if (n.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : n.items()) {
      const std::string sub = field + "." + key;
      std::string k = text(key, sub);
      std::optional<json> v = node(value, sub);
      if (!v) continue;
      if (out.contains(k))
        fail(where_, sub, "two members are named '" + k + "' once placeholders are substituted");
      out[k] = std::move(*v);
    }
    return out;
  }
  if (n.is_array()) {
    json out = json::array();
    for (size_t i = 0; i < n.size(); ++i)
      if (std::optional<json> v = node(n[i], field + "[" + std::to_string(i) + "]"))
        out.push_back(std::move(*v));
    return out;
  }
  family_.spend(1, where_, field);
  return n;
}

// `part`'s bindings added to `into`: an axis may rebind a `let` default, not another axis's name.
Build Expander::merge(const Build& into, const Build& part) {
  Build out = into;
  for (const auto& [name, binding] : part.bindings) {
    auto [it, fresh] = out.bindings.emplace(name, binding);
    if (fresh) continue;
    if (!it->second.is_default)
      fail(where_, sources_[binding.source].field,
           "placeholder '" + name + "' is already bound by " + sources_[it->second.source].field +
               " (an axis may rebind only a 'let' default)");
    it->second = binding;
  }
  out.origin.insert(out.origin.end(), part.origin.begin(), part.origin.end());
  return out;
}

// An axis's values, each with the builds of its own nested axes.
std::vector<Build> Expander::values(const json& axis, const std::string& field) {
  std::vector<Build> out;
  auto bind = [&](Build& b, const std::string& name, const json& value, const std::string& at) {
    if (!is_name(name))
      fail(where_, at, "'" + name + "' is not a placeholder name (" + kNameRule + ")");
    sources_.push_back({name, at});
    b.bindings.emplace(name, Binding{&value, sources_.size() - 1, false});
  };
  if (axis.is_object() && axis.size() == 1 && axis.begin().value().is_array()) {
    // {"NAME": [v1, v2]}: one placeholder, one value per build.
    const std::string name = axis.begin().key();
    const json& list = axis.begin().value();
    if (list.empty()) fail(where_, field + "." + name, "an axis needs at least one value, got []");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string at = field + "." + name + "[" + std::to_string(i) + "]";
      Build b;
      bind(b, name, list[i], at);
      b.origin.push_back(at);
      out.push_back(std::move(b));
    }
    return out;
  }
  if (!axis.is_array())
    fail(where_, field,
         "an axis is a list of values ({NAME: value, ...}) or {\"NAME\": [values]}, got " +
             axis.dump());
  if (axis.empty()) fail(where_, field, "an axis needs at least one value, got []");
  for (size_t i = 0; i < axis.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "]";
    if (!axis[i].is_object())
      fail(where_, at, "an axis value must be an object of NAME: value, got " + axis[i].dump());
    Build b;
    b.origin.push_back(at);
    for (const auto& [name, value] : axis[i].items())
      if (name != "axes") bind(b, name, value, at + "." + name);
    if (!axis[i].contains("axes")) {
      out.push_back(std::move(b));
      continue;
    }
    for (const Build& inner : product(axis[i]["axes"], at + ".axes")) {
      out.push_back(merge(b, inner));
      if (out.size() > kMaxBuilds)
        fail(where_, at, "more than " + std::to_string(kMaxBuilds) + " builds");
    }
  }
  return out;
}

// Every combination of one value per axis, the first axis outermost.
std::vector<Build> Expander::product(const json& axes, const std::string& field) {
  if (!axes.is_array() || axes.empty())
    fail(where_, field, "must be a non-empty list of axes, got " + axes.dump());
  std::vector<Build> builds{Build{}};
  for (size_t a = 0; a < axes.size(); ++a) {
    const std::string at = field + "[" + std::to_string(a) + "]";
    const std::vector<Build> axis = values(axes[a], at);
    std::vector<Build> next;
    for (const Build& b : builds)
      for (const Build& v : axis) {
        next.push_back(merge(b, v));
        if (next.size() > kMaxBuilds)
          fail(where_, at, "more than " + std::to_string(kMaxBuilds) + " builds");
      }
    builds = std::move(next);
  }
  return builds;
}

ExpandedFamily Expander::run() {
  for (const auto& [key, value] : family_.items())
    if (key != "family" && key != "let" && key != "axes" && key != "variant")
      fail(where_, key, "unknown field (allowed: family, let, axes, variant)");
  Build defaults;
  if (family_.contains("let")) {
    const json& let = family_["let"];
    if (!let.is_object())
      fail(where_, "let", "must be an object of NAME: value, got " + let.dump());
    for (const auto& [name, value] : let.items()) {
      if (!is_name(name))
        fail(where_, "let." + name, "'" + name + "' is not a placeholder name (" + kNameRule + ")");
      sources_.push_back({name, "let." + name});
      defaults.bindings.emplace(name, Binding{&value, sources_.size() - 1, true});
    }
  }
  if (!family_.contains("axes")) fail(where_, "axes", "missing (a family needs at least one axis)");
  std::vector<Build> builds;
  for (const Build& b : product(family_["axes"], "axes")) builds.push_back(merge(defaults, b));
  if (!family_.contains("variant") || !family_["variant"].is_object())
    fail(where_, "variant", "must be an object: the variant template, in the plain format");
  const json& tpl = family_["variant"];

  ExpandedFamily out{where_, {}};
  std::map<std::string, size_t> names;  // expanded name -> build
  for (size_t i = 0; i < builds.size(); ++i) {
    Substitution sub(*this, builds[i], where_ + ": build " + origin_text(builds[i]));
    if (tpl.contains("name"))
      if (std::optional<json> name = sub.node(tpl["name"], "variant.name");
          name && name->is_string()) {
        const std::string& n = name->get_ref<const std::string&>();
        auto [first, fresh] = names.emplace(n, i);
        if (!fresh)
          fail(where_, "variant.name",
               "'" + n + "' is the name of two builds: " + origin_text(builds[first->second]) +
                   " and " + origin_text(builds[i]));
        sub.rename(where_ + ": variant '" + printable(n, 80) + "'");
      }
    out.variants.push_back(*sub.node(tpl, "variant"));  // an object is never removed
  }
  for (const Source& s : sources_)
    if (!s.used) fail(where_, s.field, "placeholder '" + s.name + "' is used by no build");
  return out;
}

}  // namespace

bool is_family(const json& entry) { return entry.is_object() && entry.contains("family"); }

ExpandedFamily expand_family(const json& family, const std::string& where) {
  const json name = is_family(family) ? family["family"] : json();
  if (!name.is_string() || name.get_ref<const std::string&>().empty())
    fail(where, "family", "must be the family's name, a non-empty string, got " + name.dump());
  return Expander(family, where + ": family '" + printable(name.get<std::string>(), 80) + "'")
      .run();
}

}  // namespace gnbench
