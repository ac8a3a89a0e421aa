// Integer expressions in kernel manifests: dispatch sizes, scratch sizes, traffic models and
// applicability conditions, written over the problem's sizes (N, C, HW, G, ...).
// Grammar: || && == != < <= > >= + - * / % unary -, parentheses, integer literals, names,
// and the functions ceil_div(a, b), min(a, b), max(a, b). Comparisons yield 0 or 1.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace gnbench {

using Variables = std::map<std::string, int64_t>;

class Expression {
 public:
  // Parses `text`; throws ConfigError "<where>: expression '<text>': <what> at column <k>".
  Expression(std::string text, const std::string& where);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;
  Expression(const Expression&);
  Expression& operator=(const Expression&);

  // Throws ConfigError on an unknown name, division by zero or int64 overflow.
  int64_t evaluate(const Variables& variables) const;
  const std::string& text() const { return text_; }
  // The variable names it uses, sorted.
  std::set<std::string> names() const;
  // Why it evaluates to 0 for `variables`, in terms a user can check: the values of the names
  // it uses, then the first false term of its top-level && chain, negated
  // ("CPG=4 HW=37 SUBGROUP=8: HW % 4 != 0"). Throws like evaluate().
  std::string explain_false(const Variables& variables) const;
  // The manifest, variant and field, as given to the constructor.
  const std::string& where() const { return where_; }

  struct Node;

 private:
  std::string text_;
  std::string where_;
  std::shared_ptr<const Node> root_;
};

}  // namespace gnbench
