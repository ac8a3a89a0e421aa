#include "runtime/expression.hpp"

#include <cctype>
#include <vector>

#include "config/config_error.hpp"

namespace gnbench {

struct Expression::Node {
  enum class Kind { kNumber, kVariable, kUnary, kBinary, kCall } kind;
  int64_t number = 0;
  std::string name;  // variable, operator or function name
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using NodePtr = std::shared_ptr<const Expression::Node>;
using Kind = Expression::Node::Kind;

// Recursive descent, one function per precedence level.
class Parser {
 public:
  Parser(const std::string& text, const std::string& where, const std::string& context)
      : text_(text), where_(where), context_(context) {}

  NodePtr parse() {
    NodePtr root = parse_binary(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
    return root;
  }

 private:
  static constexpr const char* kLevels[][6] = {
      {"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}};
  static constexpr int kLevelCount = 6;

  [[noreturn]] void fail(const std::string& what) const {
    throw ConfigError(where_ + ": expression '" + text_ + "'" + context_ + ": " + what +
                      " at column " + std::to_string(pos_ + 1));
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(const std::string& token) {
    skip_space();
    if (text_.compare(pos_, token.size(), token) != 0) return false;
    // "<" must not swallow the first half of "<=".
    if (token.size() == 1 && pos_ + 1 < text_.size() && text_[pos_ + 1] == '=' &&
        (token == "<" || token == ">"))
      return false;
    pos_ += token.size();
    return true;
  }
  NodePtr parse_binary(int level) {
    if (level == kLevelCount) return parse_unary();
    NodePtr left = parse_binary(level + 1);
    for (;;) {
      const char* matched = nullptr;
      for (const char* op : kLevels[level])
        if (op && accept(op)) {
          matched = op;
          break;
        }
      if (!matched) return left;
      NodePtr right = parse_binary(level + 1);
      left = std::make_shared<Expression::Node>(
          Expression::Node{Kind::kBinary, 0, matched, {left, right}});
    }
  }
  NodePtr parse_unary() {
    if (accept("-"))
      return std::make_shared<Expression::Node>(
          Expression::Node{Kind::kUnary, 0, "-", {parse_unary()}});
    return parse_primary();
  }
  NodePtr parse_primary() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    char ch = text_[pos_];
    if (accept("(")) {
      NodePtr inner = parse_binary(0);
      if (!accept(")")) fail("expected ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      int64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        const int digit = text_[pos_] - '0';
        if (value > (INT64_MAX - digit) / 10) fail("number too large");
        value = value * 10 + digit;
        ++pos_;
      }
      return std::make_shared<Expression::Node>(Expression::Node{Kind::kNumber, value, "", {}});
    }
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name = text_.substr(start, pos_ - start);
      if (!accept("("))
        return std::make_shared<Expression::Node>(Expression::Node{Kind::kVariable, 0, name, {}});
      if (name != "ceil_div" && name != "min" && name != "max") {
        pos_ = start;
        fail("unknown function '" + name + "' (known: ceil_div, min, max)");
      }
      std::vector<NodePtr> args{parse_binary(0)};
      if (!accept(",")) fail("expected ',' in " + name + "()");
      args.push_back(parse_binary(0));
      if (!accept(")")) fail("expected ')' closing " + name + "()");
      return std::make_shared<Expression::Node>(Expression::Node{Kind::kCall, 0, name, args});
    }
    fail("unexpected '" + std::string(1, ch) + "'");
  }

  const std::string& text_;
  const std::string& where_;
  const std::string& context_;
  size_t pos_ = 0;
};

template <typename Op>
int64_t checked(Op op, int64_t a, int64_t b, const std::string& prefix) {
  int64_t r = 0;
  if (op(a, b, &r)) throw ConfigError(prefix + ": integer overflow");
  return r;
}

int64_t eval(const Expression::Node& node, const Variables& vars, const std::string& prefix) {
  switch (node.kind) {
    case Kind::kNumber: return node.number;
    case Kind::kVariable: {
      auto it = vars.find(node.name);
      if (it == vars.end()) {
        std::string known;
        for (const auto& [name, value] : vars) known += (known.empty() ? "" : ", ") + name;
        throw ConfigError(prefix + ": unknown name '" + node.name + "' (known: " + known + ")");
      }
      return it->second;
    }
    case Kind::kUnary: {
      int64_t a = eval(*node.args[0], vars, prefix);
      if (a == INT64_MIN) throw ConfigError(prefix + ": integer overflow");
      return -a;
    }
    case Kind::kCall: {
      int64_t a = eval(*node.args[0], vars, prefix), b = eval(*node.args[1], vars, prefix);
      if (node.name == "min") return std::min(a, b);
      if (node.name == "max") return std::max(a, b);
      if (b <= 0) throw ConfigError(prefix + ": ceil_div by " + std::to_string(b));
      return a / b + (a % b > 0);  // a + b - 1 could overflow
    }
    case Kind::kBinary: {
      const std::string& op = node.name;
      int64_t a = eval(*node.args[0], vars, prefix);
      // Short-circuit so "G > 0 && C / G > 4" is safe.
      if (op == "&&" && !a) return 0;
      if (op == "||" && a) return 1;
      int64_t b = eval(*node.args[1], vars, prefix);
      auto add = [](int64_t x, int64_t y, int64_t* r) { return __builtin_add_overflow(x, y, r); };
      auto sub = [](int64_t x, int64_t y, int64_t* r) { return __builtin_sub_overflow(x, y, r); };
      auto mul = [](int64_t x, int64_t y, int64_t* r) { return __builtin_mul_overflow(x, y, r); };
      if (op == "+") return checked(add, a, b, prefix);
      if (op == "-") return checked(sub, a, b, prefix);
      if (op == "*") return checked(mul, a, b, prefix);
      if (op == "/" || op == "%") {
        if (b == 0) throw ConfigError(prefix + ": division by zero");
        if (b == -1) {  // INT64_MIN / -1 traps on x86
          if (op == "%") return 0;
          return checked(sub, 0, a, prefix);
        }
        return op == "/" ? a / b : a % b;
      }
      if (op == "&&" || op == "||") return b != 0;
      if (op == "==") return a == b;
      if (op == "!=") return a != b;
      if (op == "<") return a < b;
      if (op == "<=") return a <= b;
      if (op == ">") return a > b;
      return a >= b;
    }
  }
  return 0;
}

}  // namespace

Expression::Expression(std::string text, const std::string& where)
    : text_(std::move(text)), where_(where) {
  // Parsing, evaluating and freeing recurse along the tree: a bounded length bounds the depth
  // (found by fuzzing: 3000 nested parentheses overflowed the stack).
  constexpr size_t kMaxLength = 1000;
  if (text_.size() > kMaxLength)
    throw ConfigError(where_ + ": expression '" + text_.substr(0, 40) + "...' is longer than " +
                      std::to_string(kMaxLength) + " characters");
  root_ = Parser(text_, where_, "").parse();
}
Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::Expression(const Expression&) = default;
Expression& Expression::operator=(const Expression&) = default;

int64_t Expression::evaluate(const Variables& variables) const {
  return eval(*root_, variables, where_ + ": expression '" + text_ + "'");
}

}  // namespace gnbench
