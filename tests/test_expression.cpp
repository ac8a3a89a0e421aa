// Manifest expressions (kernels/runtime/expression.hpp): precedence and associativity, the
// functions, comparisons and short-circuit logic, and every error being a one-line ConfigError
// that quotes the expression.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "kernels/runtime/expression.hpp"

namespace gnbench {
namespace {

const std::string kWhere = "k.json: variant 'v': field 'dispatch[0]'";

int64_t eval(const std::string& text, const Variables& vars = {}) {
  return Expression(text, kWhere).evaluate(vars);
}

// The ConfigError message of parsing and evaluating `text` ("" and a failure when none).
std::string expression_error_of(const std::string& text, const Variables& vars = {}) {
  try {
    Expression e(text, kWhere);
    e.evaluate(vars);
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ConfigError for '" << text << "'";
  return "";
}

// The message starts with the location, quotes the expression and holds every piece.
void expect_expression_error(const std::string& text, std::initializer_list<std::string> pieces,
                             const Variables& vars = {}) {
  const std::string msg = expression_error_of(text, vars);
  SCOPED_TRACE("expression: " + text + "\nmessage: " + msg);
  // Long expressions are quoted by their start and length, so the reason stays in view.
  const std::string quote = text.size() <= 200 ? "'" + text + "'"
                                               : "'" + text.substr(0, 120) + "...' (" +
                                                     std::to_string(text.size()) + " characters)";
  EXPECT_EQ(msg.rfind(kWhere + ": expression " + quote, 0), 0u);
  EXPECT_EQ(msg.find('\n'), std::string::npos);
  for (const auto& piece : pieces) EXPECT_NE(msg.find(piece), std::string::npos) << piece;
}

const Variables kShape{{"N", 2}, {"C", 64}, {"HW", 256}, {"G", 8}, {"CPG", 8}};

TEST(Expression, Literals) {
  EXPECT_EQ(eval("0"), 0);
  EXPECT_EQ(eval("42"), 42);
  EXPECT_EQ(eval("  7  "), 7);
  EXPECT_EQ(eval("007"), 7);
  EXPECT_EQ(eval("9223372036854775807"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(eval("9223372036854775800"), 9223372036854775800);
}

TEST(Expression, Precedence) {
  EXPECT_EQ(eval("2 + 3 * 4"), 14);
  EXPECT_EQ(eval("2 * 3 + 4"), 10);
  EXPECT_EQ(eval("20 - 6 / 3"), 18);
  EXPECT_EQ(eval("1 + 7 % 4"), 4);
  EXPECT_EQ(eval("7 % 4 * 2"), 6);         // same level, left to right
  EXPECT_EQ(eval("1 + 2 < 4"), 1);         // arithmetic binds tighter than comparisons
  EXPECT_EQ(eval("1 < 2 == 1"), 1);        // relational tighter than equality
  EXPECT_EQ(eval("2 == 2 && 3 != 3"), 0);  // equality tighter than &&
  EXPECT_EQ(eval("1 || 0 && 0"), 1);       // && tighter than ||
  EXPECT_EQ(eval("0 && 0 || 1"), 1);
}

TEST(Expression, LeftAssociative) {
  EXPECT_EQ(eval("10 - 3 - 2"), 5);
  EXPECT_EQ(eval("100 / 10 / 5"), 2);
  EXPECT_EQ(eval("100 % 7 % 3"), 2);
  EXPECT_EQ(eval("3 < 2 < 1"), 1);  // (3 < 2) < 1 = 0 < 1
}

TEST(Expression, Parentheses) {
  EXPECT_EQ(eval("(2 + 3) * 4"), 20);
  EXPECT_EQ(eval("2 * (3 + 4)"), 14);
  EXPECT_EQ(eval("((((1))))"), 1);
  EXPECT_EQ(eval("10 - (3 - 2)"), 9);
  EXPECT_EQ(eval("(1 || 0) && 0"), 0);
  EXPECT_EQ(eval("( N * C ) * ( HW )", kShape), 2 * 64 * 256);
}

TEST(Expression, UnaryMinus) {
  EXPECT_EQ(eval("-5"), -5);
  EXPECT_EQ(eval("- -5"), 5);
  EXPECT_EQ(eval("--5"), 5);
  EXPECT_EQ(eval("-2 * 3"), -6);
  EXPECT_EQ(eval("2 * -3"), -6);
  EXPECT_EQ(eval("3 - -2"), 5);
  EXPECT_EQ(eval("-(2 + 3)"), -5);
  EXPECT_EQ(eval("-N", kShape), -2);
  EXPECT_EQ(eval("-9223372036854775807 - 1"), std::numeric_limits<int64_t>::min());
}

TEST(Expression, IntegerDivisionTruncatesTowardZero) {
  EXPECT_EQ(eval("7 / 2"), 3);
  EXPECT_EQ(eval("-7 / 2"), -3);
  EXPECT_EQ(eval("7 % 3"), 1);
  EXPECT_EQ(eval("-7 % 3"), -1);
}

TEST(Expression, Functions) {
  EXPECT_EQ(eval("ceil_div(7, 2)"), 4);
  EXPECT_EQ(eval("ceil_div(8, 2)"), 4);
  EXPECT_EQ(eval("ceil_div(1, 256)"), 1);
  EXPECT_EQ(eval("ceil_div(0, 256)"), 0);
  EXPECT_EQ(eval("ceil_div(-7, 2)"), -3);  // the ceiling of -3.5
  EXPECT_EQ(eval("ceil_div(N * C * HW, 256)", kShape), 128);
  EXPECT_EQ(eval("ceil_div(9223372036854775807, 2)"), 4611686018427387904);
  EXPECT_EQ(eval("min(3, 5)"), 3);
  EXPECT_EQ(eval("min(-3, 5)"), -3);
  EXPECT_EQ(eval("max(3, 5)"), 5);
  EXPECT_EQ(eval("max(N, G)", kShape), 8);
  EXPECT_EQ(eval("min(max(1, 2), max(3, 4))"), 2);
  EXPECT_EQ(eval("min (1 + 2, 2 * 2) * 2"), 6);
  EXPECT_EQ(eval("2 * ceil_div(HW, 128) + 1", kShape), 5);
}

TEST(Expression, Comparisons) {
  EXPECT_EQ(eval("1 < 2"), 1);
  EXPECT_EQ(eval("2 < 2"), 0);
  EXPECT_EQ(eval("2 <= 2"), 1);
  EXPECT_EQ(eval("3 <= 2"), 0);
  EXPECT_EQ(eval("3 > 2"), 1);
  EXPECT_EQ(eval("2 > 2"), 0);
  EXPECT_EQ(eval("2 >= 2"), 1);
  EXPECT_EQ(eval("1 >= 2"), 0);
  EXPECT_EQ(eval("2 == 2"), 1);
  EXPECT_EQ(eval("2 == 3"), 0);
  EXPECT_EQ(eval("2 != 3"), 1);
  EXPECT_EQ(eval("2 != 2"), 0);
  EXPECT_EQ(eval("1<=2"), 1);  // no spaces: "<" must not take the first half of "<="
  EXPECT_EQ(eval("2>=3"), 0);
  EXPECT_EQ(eval("HW % 4 == 0 && C / G <= 16", kShape), 1);
}

TEST(Expression, LogicYieldsZeroOrOne) {
  EXPECT_EQ(eval("5 && 7"), 1);
  EXPECT_EQ(eval("5 && 0"), 0);
  EXPECT_EQ(eval("0 || 7"), 1);
  EXPECT_EQ(eval("0 || 0"), 0);
  EXPECT_EQ(eval("-1 || 0"), 1);
  EXPECT_EQ(eval("5 || 0"), 1);
}

TEST(Expression, ShortCircuit) {
  // The right side would divide by zero or name an unknown variable: never evaluated.
  const Expression guarded("G > 0 && C / G > 4", kWhere);
  EXPECT_EQ(guarded.evaluate({{"C", 64}, {"G", 0}}), 0);
  EXPECT_EQ(guarded.evaluate({{"C", 64}, {"G", 8}}), 1);
  EXPECT_EQ(guarded.evaluate({{"C", 16}, {"G", 8}}), 0);
  EXPECT_EQ(eval("0 && 1 / 0"), 0);
  EXPECT_EQ(eval("1 || 1 / 0"), 1);
  EXPECT_EQ(eval("0 && nope"), 0);
  EXPECT_EQ(eval("1 || nope"), 1);
  // ...but the right side is evaluated when it decides.
  expect_expression_error("1 && 1 / 0", {"division by zero"});
  expect_expression_error("0 || nope", {"unknown name 'nope'"});
}

TEST(Expression, VariablesAndReuse) {
  const Expression e("N * G", kWhere);
  EXPECT_EQ(e.text(), "N * G");
  EXPECT_EQ(e.evaluate(kShape), 16);
  EXPECT_EQ(e.evaluate({{"N", 2049}, {"G", 32}}), 65568);
  EXPECT_EQ(eval("_a1 + b_2", {{"_a1", 1}, {"b_2", 2}}), 3);
  // Copies and moves keep text and tree.
  Expression copy = e;
  EXPECT_EQ(copy.evaluate(kShape), 16);
  Expression moved = std::move(copy);
  EXPECT_EQ(moved.text(), "N * G");
  EXPECT_EQ(moved.evaluate(kShape), 16);
  Expression assigned("1", kWhere);
  assigned = moved;
  EXPECT_EQ(assigned.evaluate(kShape), 16);
}

TEST(Expression, UnknownNameListsKnownNames) {
  expect_expression_error("N * Q", {"unknown name 'Q'", "known: C, CPG, G, HW, N"}, kShape);
  expect_expression_error("n", {"unknown name 'n'", "N"}, kShape);  // names are case-sensitive
  expect_expression_error("x", {"unknown name 'x'", "(known: )"});
}

TEST(Expression, DivisionByZero) {
  expect_expression_error("1 / 0", {"division by zero"});
  expect_expression_error("1 % 0", {"division by zero"});
  expect_expression_error("C / (G - 8)", {"division by zero"}, kShape);
  expect_expression_error("ceil_div(7, 0)", {"ceil_div by 0"});
  expect_expression_error("ceil_div(7, -2)", {"ceil_div by -2"});
}

TEST(Expression, Overflow) {
  expect_expression_error("9223372036854775807 + 1", {"integer overflow"});
  expect_expression_error("-9223372036854775807 - 2", {"integer overflow"});
  expect_expression_error("4294967296 * 4294967296", {"integer overflow"});
  expect_expression_error("N * N * N * N", {"integer overflow"}, {{"N", 1 << 20}});
  // The corner cases of two's complement: negating INT64_MIN, INT64_MIN / -1 (a hardware trap
  // on x86 when not checked); INT64_MIN % -1 is 0.
  expect_expression_error("-(-9223372036854775807 - 1)", {"integer overflow"});
  expect_expression_error("(-9223372036854775807 - 1) / -1", {"integer overflow"});
  EXPECT_EQ(eval("(-9223372036854775807 - 1) % -1"), 0);
  expect_expression_error("99999999999999999999", {"number too large", "at column"});
  expect_expression_error("9223372036854775808", {"number too large"});
}

TEST(Expression, SyntaxErrorsNameTheColumn) {
  expect_expression_error("", {"unexpected end", "at column 1"});
  expect_expression_error("N +", {"unexpected end", "at column 4"});
  expect_expression_error("(N + 1", {"expected ')'", "at column 7"});
  expect_expression_error("N N", {"unexpected 'N'", "at column 3"});
  expect_expression_error("N $ 2", {"unexpected '$'", "at column 3"});
  expect_expression_error("1 = 2", {"unexpected '='", "at column 3"});
  expect_expression_error("a & b", {"unexpected '&'", "at column 3"});
  expect_expression_error("2N", {"unexpected 'N'", "at column 2"});
  expect_expression_error("* 2", {"unexpected '*'", "at column 1"});
  expect_expression_error(")", {"unexpected ')'", "at column 1"});
  expect_expression_error("min(1)", {"expected ','", "min()", "at column 6"});
  expect_expression_error("max(1, 2, 3)", {"expected ')' closing max()", "at column 9"});
  expect_expression_error("foo(1, 2)",
                          {"unknown function 'foo'", "ceil_div, min, max", "at column 1"});
  expect_expression_error("3 + sqrt(4)", {"unknown function 'sqrt'", "at column 5"});
  expect_expression_error("1.5", {"unexpected '.'", "at column 2"});
}

// A skip reason a user can check: the values of the names the condition uses, then its first
// false term stated as what holds. Generated conditions "T1 && T2 && T3" over random values:
// the stated term, parsed on its own, must hold for those values, and it must be the negation
// of the first false term.
TEST(Expression, ExplainFalseStatesWhatHolds) {
  std::mt19937 rng(16);
  const std::vector<std::string> names{"CPG", "HW", "SUBGROUP", "N"};
  const std::vector<std::string> ops{"==", "!=", "<", "<=", ">", ">="};
  const std::vector<std::string> opposite{"!=", "==", ">=", ">", "<=", "<"};
  auto pick = [&rng](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  auto operand = [&]() -> std::string {
    switch (pick(5)) {
      case 0: return names[pick(names.size())];
      case 1: return std::to_string(pick(9));
      case 2: return names[pick(names.size())] + " % " + std::to_string(1 + pick(8));
      case 3: return "(" + names[pick(names.size())] + " / 4)";
      default: return "(" + names[pick(names.size())] + " || " + names[pick(names.size())] + ")";
    }
  };
  int explained = 0;
  for (int round = 0; round < 300; ++round) {
    Variables vars;
    for (const auto& n : names) vars[n] = static_cast<int64_t>(pick(40));
    // Each term with what holds when it is false: the opposite comparison, or "X == 0".
    std::vector<std::string> terms, negations;
    for (size_t i = 0, count = 1 + pick(3); i < count; ++i) {
      const std::string a = operand(), b = operand();
      const size_t op = pick(ops.size() + 1);
      terms.push_back(op == ops.size() ? a : a + " " + ops[op] + " " + b);
      negations.push_back(op == ops.size() ? a + " == 0" : a + " " + opposite[op] + " " + b);
    }
    std::string text;
    for (const auto& t : terms) text += (text.empty() ? "" : " && ") + t;
    const Expression e(text, kWhere);
    if (e.evaluate(vars)) continue;
    ++explained;
    const std::string why = e.explain_false(vars);
    SCOPED_TRACE(text + "  ->  " + why);
    // Exactly the names the condition uses, with their values, sorted (none: no prefix).
    std::string values;
    for (const auto& [name, value] : vars)
      if (text.find(name) != std::string::npos)
        values += (values.empty() ? "" : " ") + name + "=" + std::to_string(value);
    const std::string prefix = values.empty() ? "" : values + ": ";
    ASSERT_EQ(why.substr(0, prefix.size()), prefix);
    const std::string stated = why.substr(prefix.size());
    EXPECT_EQ(eval(stated, vars), 1);
    // ...and it is the negation of the first false term.
    size_t first_false = 0;
    while (eval(terms[first_false], vars)) ++first_false;
    EXPECT_EQ(stated, negations[first_false]);
  }
  EXPECT_GT(explained, 50);
  EXPECT_EQ(Expression("HW % 4 == 0", kWhere).explain_false({{"HW", 37}, {"CPG", 4}}),
            "HW=37: HW % 4 != 0");
  EXPECT_EQ(Expression("CPG && (HW || N)", kWhere).explain_false({{"HW", 0}, {"N", 0}, {"CPG", 1}}),
            "CPG=1 HW=0 N=0: (HW || N) == 0");
  EXPECT_EQ(Expression("HW || N", kWhere).explain_false({{"HW", 0}, {"N", 0}}),
            "HW=0 N=0: (HW || N) == 0");
}

// Parsing and evaluating recurse, so nesting is bounded with a ConfigError, never a crash:
// parentheses, unary minus and calls at most 64 levels deep, trees at most 512 operations
// high (a flat sum of 600 terms is one), text at most 16384 characters.
TEST(Expression, NestingIsBoundedNotTheLength) {
  auto wrap = [](int depth, const std::string& open, const std::string& inner,
                 const std::string& close) {
    std::string text;
    for (int i = 0; i < depth; ++i) text += open;
    text += inner;
    for (int i = 0; i < depth; ++i) text += close;
    return text;
  };
  for (int depth : {1, 17, 64}) {
    EXPECT_EQ(eval(wrap(depth, "(", "N", ")"), kShape), 2);
    EXPECT_EQ(eval(wrap(depth, "-", "1", "")), depth % 2 ? -1 : 1);
    EXPECT_EQ(eval(wrap(depth, "max(1, ", "C", ")"), kShape), 64);
  }
  for (int depth : {65, 2000}) {  // 2000 calls: 14000 characters, under the length bound
    for (const std::string& text : {wrap(depth, "(", "1", ")"), wrap(depth, "- ", "1", ""),
                                    wrap(depth, "min(1, ", "1", ")")}) {
      expect_expression_error(text, {"nested deeper than 64 levels"});
      EXPECT_LT(expression_error_of(text).size(),
                400u);  // quoted by its start: the reason stays in view
    }
  }
  auto sum_of_ones = [](int terms) {
    std::string text = "1";
    for (int i = 1; i < terms; ++i) text += " + 1";
    return text;
  };
  EXPECT_EQ(eval(sum_of_ones(500)), 500);
  expect_expression_error(sum_of_ones(600), {"nested deeper than 512 operations"});
  const std::string too_long = "1" + std::string(16384, ' ');
  const std::string msg = expression_error_of(too_long);
  EXPECT_NE(msg.find("longer than 16384 characters"), std::string::npos) << msg;
}

// Long expressions of moderate depth (a family's tile geometry chosen among candidates runs to
// thousands of characters) parse and evaluate like the arithmetic they spell: random balanced
// trees of min / max / ceil_div / + / * over the shape's names, checked against C++.
TEST(Expression, LongGeneratedExpressionsEvaluate) {
  std::mt19937_64 rng(20261205);
  std::function<std::pair<std::string, int64_t>(int)> make = [&](int depth) {
    if (depth == 0 || rng() % 8 == 0) {
      static const std::pair<const char*, int64_t> kLeaves[] = {
          {"N", 2}, {"C", 64}, {"HW", 256}, {"G", 8}, {"CPG", 8}};
      if (rng() % 2) {
        const int64_t literal = static_cast<int64_t>(rng() % 50 + 1);
        return std::pair<std::string, int64_t>(std::to_string(literal), literal);
      }
      const auto& leaf = kLeaves[rng() % 5];
      return std::pair<std::string, int64_t>(leaf.first, leaf.second);
    }
    auto [a, va] = make(depth - 1);
    auto [b, vb] = make(depth - 1);
    switch (rng() % 5) {
      case 0: return std::pair<std::string, int64_t>("min(" + a + ", " + b + ")", std::min(va, vb));
      case 1: return std::pair<std::string, int64_t>("max(" + a + ", " + b + ")", std::max(va, vb));
      case 2:
        return std::pair<std::string, int64_t>("ceil_div(" + a + ", " + b + ")",
                                               (va + vb - 1) / vb);
      case 3: return std::pair<std::string, int64_t>("(" + a + " + " + b + ")", va + vb);
      default: return std::pair<std::string, int64_t>("(" + a + " % " + b + " + 1)", va % vb + 1);
    }
  };
  int long_ones = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const auto [text, value] = make(9);
    if (text.size() > 16384) continue;
    long_ones += text.size() > 1000;
    SCOPED_TRACE(text);
    EXPECT_EQ(eval(text, kShape), value);
  }
  EXPECT_GT(long_ones, 20);  // the generator reaches past the old 1000-character limit
}

TEST(Expression, ErrorsAreConfigErrors) {
  EXPECT_THROW(Expression("(", kWhere), ConfigError);
  EXPECT_THROW(eval("1 / 0"), ConfigError);
  EXPECT_THROW(eval("Q"), ConfigError);
}

}  // namespace
}  // namespace gnbench
