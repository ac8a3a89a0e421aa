#include "kernels/runtime/expression.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "base/errors.hpp"

namespace gnbench {

struct Expression::Node {
  enum class Kind { kNumber, kVariable, kUnary, kBinary, kCall } kind;
  int64_t number = 0;
  std::string name;  // variable, operator or function name
  std::vector<std::shared_ptr<const Node>> args;
  size_t begin = 0, end = 0;  // its text in the expression, for explain_false()
  bool grouped = false;       // written in parentheses
  int height = 1;             // of its subtree: evaluating recurses this deep
};

namespace {

using NodePtr = std::shared_ptr<const Expression::Node>;
using Kind = Expression::Node::Kind;

// Parsing, evaluating and freeing recurse along the tree, so both the nesting the parser
// descends (parentheses, calls, unary minus) and the tree's height are bounded (found by
// fuzzing: 3000 nested parentheses overflowed the stack); the length only bounds the work.
constexpr size_t kMaxExprLength = 16384;
constexpr int kMaxExprNesting = 64;
constexpr int kMaxExprHeight = 512;

// An expression as messages quote it: whole, or its start where it is long (expanded family
// templates run to thousands of characters), so that what went wrong stays in view.
std::string quoted_expression(const std::string& text) {
  constexpr size_t kWhole = 200, kStart = 120;
  if (text.size() <= kWhole) return "'" + text + "'";
  return "'" + text.substr(0, kStart) + "...' (" + std::to_string(text.size()) + " characters)";
}

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
    throw ConfigError(where_ + ": expression " + quoted_expression(text_) + context_ + ": " + what +
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
      left = spanned({Kind::kBinary, 0, matched, {left, right}}, left->begin, right->end);
    }
  }
  NodePtr spanned(Expression::Node node, size_t begin, size_t end) const {
    node.begin = begin;
    node.end = end;
    for (const auto& arg : node.args) node.height = std::max(node.height, arg->height + 1);
    if (node.height > kMaxExprHeight)
      fail("nested deeper than " + std::to_string(kMaxExprHeight) + " operations");
    return std::make_shared<Expression::Node>(std::move(node));
  }
  // Counts one level of the parser's descent while it lives.
  class Nested {
   public:
    explicit Nested(Parser& p) : p_(p) {
      if (++p_.nesting_ > kMaxExprNesting)
        p_.fail("nested deeper than " + std::to_string(kMaxExprNesting) + " levels");
    }
    ~Nested() { --p_.nesting_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& p_;
  };
  NodePtr parse_unary() {
    skip_space();
    const size_t begin = pos_;
    if (accept("-")) {
      const Nested nested(*this);
      NodePtr operand = parse_unary();
      return spanned({Kind::kUnary, 0, "-", {operand}}, begin, operand->end);
    }
    return parse_primary();
  }
  NodePtr parse_primary() {
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    char ch = text_[pos_];
    const size_t begin = pos_;
    if (accept("(")) {
      const Nested nested(*this);
      NodePtr inner = parse_binary(0);
      if (!accept(")")) fail("expected ')'");
      Expression::Node group = *inner;
      group.grouped = true;
      return spanned(group, begin, pos_);  // the parentheses belong to its text
    }
    if (std::isdigit(static_cast<unsigned char>(ch))) {
      int64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        const int digit = text_[pos_] - '0';
        if (value > (INT64_MAX - digit) / 10) fail("number too large");
        value = value * 10 + digit;
        ++pos_;
      }
      return spanned({Kind::kNumber, value, "", {}}, begin, pos_);
    }
    if (std::isalpha(static_cast<unsigned char>(ch)) || ch == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name = text_.substr(start, pos_ - start);
      const size_t end = pos_;  // accept() below skips the spaces after the name
      if (!accept("(")) return spanned({Kind::kVariable, 0, name, {}}, begin, end);
      if (name != "ceil_div" && name != "min" && name != "max") {
        pos_ = start;
        fail("unknown function '" + name + "' (known: ceil_div, min, max)");
      }
      const Nested nested(*this);
      std::vector<NodePtr> args{parse_binary(0)};
      if (!accept(",")) fail("expected ',' in " + name + "()");
      args.push_back(parse_binary(0));
      if (!accept(")")) fail("expected ')' closing " + name + "()");
      return spanned({Kind::kCall, 0, name, args}, begin, pos_);
    }
    fail("unexpected '" + std::string(1, ch) + "'");
  }

  const std::string& text_;
  const std::string& where_;
  const std::string& context_;
  int nesting_ = 0;
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

void collect_names(const Expression::Node& node, std::set<std::string>* names) {
  if (node.kind == Kind::kVariable) names->insert(node.name);
  for (const auto& a : node.args) collect_names(*a, names);
}

// The terms of a top-level && chain, left to right ("A && B && C" -> A, B, C).
void conjuncts(const NodePtr& node, std::vector<NodePtr>* out) {
  if (node->kind == Kind::kBinary && node->name == "&&") {
    conjuncts(node->args[0], out);
    conjuncts(node->args[1], out);
  } else {
    out->push_back(node);
  }
}

// What holds when `node` is false, as an expression: a comparison with its operator negated,
// else "<node> == 0" (parenthesized where || or && would bind looser than ==).
std::string negated(const Expression::Node& node, const std::string& text) {
  static const std::map<std::string, std::string> kOpposite{
      {"==", "!="}, {"!=", "=="}, {"<", ">="}, {">=", "<"}, {">", "<="}, {"<=", ">"}};
  auto span = [&text](const Expression::Node& n) { return text.substr(n.begin, n.end - n.begin); };
  const bool binary = node.kind == Kind::kBinary;
  auto it = kOpposite.find(node.name);
  if (binary && it != kOpposite.end())
    return span(*node.args[0]) + " " + it->second + " " + span(*node.args[1]);
  const bool loose = binary && !node.grouped && (node.name == "||" || node.name == "&&");
  return (loose ? "(" + span(node) + ")" : span(node)) + " == 0";
}

}  // namespace

Expression::Expression(std::string text, const std::string& where)
    : text_(std::move(text)), where_(where) {
  if (text_.size() > kMaxExprLength)
    throw ConfigError(where_ + ": expression " + quoted_expression(text_) + " is longer than " +
                      std::to_string(kMaxExprLength) + " characters");
  root_ = Parser(text_, where_, "").parse();
}
Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;
Expression::Expression(const Expression&) = default;
Expression& Expression::operator=(const Expression&) = default;

int64_t Expression::evaluate(const Variables& variables) const {
  return eval(*root_, variables, where_ + ": expression " + quoted_expression(text_));
}

std::set<std::string> Expression::names() const {
  std::set<std::string> out;
  collect_names(*root_, &out);
  return out;
}

std::string Expression::explain_false(const Variables& variables) const {
  const std::string prefix = where_ + ": expression " + quoted_expression(text_);
  std::string values;
  for (const auto& name : names()) {
    auto it = variables.find(name);
    if (it != variables.end())
      values += (values.empty() ? "" : " ") + name + "=" + std::to_string(it->second);
  }
  std::vector<NodePtr> terms;
  conjuncts(root_, &terms);
  for (const auto& term : terms)
    if (!eval(*term, variables, prefix))
      return values + (values.empty() ? "" : ": ") + negated(*term, text_);
  return values + (values.empty() ? "" : ": ") + text_ + " holds";
}

}  // namespace gnbench
