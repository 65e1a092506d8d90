// Recursive-descent parser for the expression language. Precedence, lowest first:
// conditional, or, and, not, comparison, + -, * / // %, unary -, postfix (call, index, attribute).
#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

#include "diagnostics.hpp"
#include "expr.hpp"

namespace opgen {
namespace {

enum class Tok { kEnd, kInt, kFloat, kString, kName, kOp };

struct Token {
  Tok kind;
  std::string text;
  size_t pos;
};

std::vector<Token> lex(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    const size_t start = i;
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      bool is_float = false;
      while (i < s.size() &&
             (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' ||
              s[i] == 'E' ||
              ((s[i] == '-' || s[i] == '+') && (s[i - 1] == 'e' || s[i - 1] == 'E')))) {
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E') is_float = true;
        ++i;
      }
      out.push_back({is_float ? Tok::kFloat : Tok::kInt, s.substr(start, i - start), start});
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
      out.push_back({Tok::kName, s.substr(start, i - start), start});
      continue;
    }
    if (c == '\'' || c == '"') {
      const size_t end = s.find(c, i + 1);
      if (end == std::string::npos) {
        throw GenError(fmt::format("unterminated string starting at column {}", start + 1));
      }
      out.push_back({Tok::kString, s.substr(i + 1, end - i - 1), start});
      i = end + 1;
      continue;
    }
    static const char* kTwo[] = {"//", "==", "!=", "<=", ">="};
    bool matched = false;
    for (const char* op : kTwo) {
      if (s.compare(i, 2, op) == 0) {
        out.push_back({Tok::kOp, op, start});
        i += 2;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (std::string("+-*/%<>()[],.:").find(c) != std::string::npos) {
      out.push_back({Tok::kOp, std::string(1, c), start});
      ++i;
      continue;
    }
    throw GenError(fmt::format("unexpected character '{}' at column {}", c, start + 1));
  }
  out.push_back({Tok::kEnd, "", s.size()});
  return out;
}

ExprPtr make(ExprKind kind, std::string text = {}, std::vector<ExprPtr> args = {}) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->text = std::move(text);
  e->args = std::move(args);
  return e;
}

class Parser {
 public:
  explicit Parser(const std::string& source) : tokens_(lex(source)) {}

  ExprPtr parse() {
    ExprPtr e = conditional();
    if (peek().kind != Tok::kEnd) fail("end of expression");
    return e;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  bool is_op(const char* op) const { return peek().kind == Tok::kOp && peek().text == op; }
  bool is_word(const char* w) const { return peek().kind == Tok::kName && peek().text == w; }
  Token take() { return tokens_[pos_++]; }
  [[noreturn]] void fail(const std::string& expected) const {
    const Token& t = peek();
    throw GenError(fmt::format("expected {} at column {}, got '{}'", expected, t.pos + 1,
                               t.kind == Tok::kEnd ? "end of expression" : t.text));
  }
  void expect_op(const char* op) {
    if (!is_op(op)) fail(fmt::format("'{}'", op));
    ++pos_;
  }

  ExprPtr conditional() {
    ExprPtr value = or_expr();
    if (!is_word("if")) return value;
    ++pos_;
    ExprPtr cond = or_expr();
    if (!is_word("else")) fail("'else'");
    ++pos_;
    ExprPtr other = conditional();
    return make(ExprKind::kTernary, {}, {value, cond, other});
  }
  ExprPtr or_expr() {
    ExprPtr left = and_expr();
    while (is_word("or")) {
      ++pos_;
      left = make(ExprKind::kBinary, "or", {left, and_expr()});
    }
    return left;
  }
  ExprPtr and_expr() {
    ExprPtr left = not_expr();
    while (is_word("and")) {
      ++pos_;
      left = make(ExprKind::kBinary, "and", {left, not_expr()});
    }
    return left;
  }
  ExprPtr not_expr() {
    if (is_word("not")) {
      ++pos_;
      return make(ExprKind::kUnary, "not", {not_expr()});
    }
    return comparison();
  }
  std::string comparison_op() {
    if (peek().kind == Tok::kOp) {
      for (const char* op : {"==", "!=", "<=", ">=", "<", ">"}) {
        if (peek().text == op) {
          ++pos_;
          return op;
        }
      }
      return {};
    }
    if (is_word("in")) {
      ++pos_;
      return "in";
    }
    if (is_word("not") && tokens_[pos_ + 1].kind == Tok::kName && tokens_[pos_ + 1].text == "in") {
      pos_ += 2;
      return "not in";
    }
    if (is_word("is")) {
      ++pos_;
      if (is_word("not")) {
        ++pos_;
        return "is not";
      }
      return "is";
    }
    return {};
  }
  ExprPtr comparison() {
    ExprPtr first = arith();
    std::string op = comparison_op();
    if (op.empty()) return first;
    auto cmp = std::make_shared<Expr>();
    cmp->kind = ExprKind::kCompare;
    cmp->args.push_back(first);
    while (!op.empty()) {
      cmp->ops.push_back(op);
      cmp->args.push_back(arith());
      op = comparison_op();
    }
    return cmp;
  }
  ExprPtr arith() {
    ExprPtr left = term();
    while (is_op("+") || is_op("-")) {
      const std::string op = take().text;
      left = make(ExprKind::kBinary, op, {left, term()});
    }
    return left;
  }
  ExprPtr term() {
    ExprPtr left = unary();
    while (is_op("*") || is_op("/") || is_op("//") || is_op("%")) {
      const std::string op = take().text;
      left = make(ExprKind::kBinary, op, {left, unary()});
    }
    return left;
  }
  ExprPtr unary() {
    if (is_op("-")) {
      ++pos_;
      return make(ExprKind::kUnary, "-", {unary()});
    }
    if (is_op("+")) {
      ++pos_;
      return unary();
    }
    return postfix();
  }
  ExprPtr postfix() {
    ExprPtr e = atom();
    for (;;) {
      if (is_op(".")) {
        ++pos_;
        if (peek().kind != Tok::kName) fail("an attribute name after '.'");
        const std::string attr = take().text;
        if (is_op("(")) {
          ++pos_;
          auto call = make(ExprKind::kCall, attr, call_args());
          std::const_pointer_cast<Expr>(call)->object = e;
          e = call;
        } else {
          e = make(ExprKind::kAttribute, attr, {e});
        }
      } else if (is_op("[")) {
        ++pos_;
        ExprPtr lo, hi;
        if (!is_op(":")) lo = conditional();
        if (is_op(":")) {
          ++pos_;
          if (!is_op("]")) hi = conditional();
          expect_op("]");
          e = make(ExprKind::kSlice, {}, {e, lo, hi});
        } else {
          expect_op("]");
          e = make(ExprKind::kIndex, {}, {e, lo});
        }
      } else if (is_op("(") && e->kind == ExprKind::kName) {
        ++pos_;
        e = make(ExprKind::kCall, e->text, call_args());
      } else {
        return e;
      }
    }
  }
  std::vector<ExprPtr> call_args() {
    std::vector<ExprPtr> args;
    while (!is_op(")")) {
      args.push_back(conditional());
      if (is_op(",")) {
        ++pos_;
      } else if (!is_op(")")) {
        fail("',' or ')' in an argument list");
      }
    }
    ++pos_;
    return args;
  }
  ExprPtr atom() {
    const Token t = peek();
    switch (t.kind) {
      case Tok::kInt: {
        ++pos_;
        auto e = make(ExprKind::kInt, t.text);
        std::const_pointer_cast<Expr>(e)->int_value = std::strtoll(t.text.c_str(), nullptr, 10);
        return e;
      }
      case Tok::kFloat: {
        ++pos_;
        auto e = make(ExprKind::kFloat, t.text);
        std::const_pointer_cast<Expr>(e)->float_value = std::strtod(t.text.c_str(), nullptr);
        return e;
      }
      case Tok::kString:
        ++pos_;
        return make(ExprKind::kString, t.text);
      case Tok::kName:
        if (t.text == "None") {
          ++pos_;
          return make(ExprKind::kNone);
        }
        if (t.text == "True" || t.text == "False") {
          ++pos_;
          return make(ExprKind::kBool, t.text);
        }
        for (const char* kw : {"if", "else", "and", "or", "not", "in", "is", "lambda", "for"}) {
          if (t.text == kw) fail("a value");
        }
        ++pos_;
        return make(ExprKind::kName, t.text);
      case Tok::kOp:
        if (t.text == "(") {
          ++pos_;
          if (is_op(")")) {
            ++pos_;
            return make(ExprKind::kTuple);
          }
          ExprPtr first = conditional();
          if (is_op(")")) {
            ++pos_;
            return first;  // parenthesised expression
          }
          std::vector<ExprPtr> items{first};
          while (is_op(",")) {
            ++pos_;
            if (is_op(")")) break;
            items.push_back(conditional());
          }
          expect_op(")");
          return make(ExprKind::kTuple, {}, std::move(items));
        }
        fail("a value");
      case Tok::kEnd:
        fail("a value");
    }
    fail("a value");
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace

ExprPtr parse_expression(const std::string& source) {
  return Parser(source).parse();
}

void collect_names(const Expr& e, std::vector<std::string>& out) {
  if (e.kind == ExprKind::kName) {
    out.push_back(e.text);
    return;
  }
  if (e.object) collect_names(*e.object, out);
  for (const auto& a : e.args) {
    if (a) collect_names(*a, out);
  }
}

}  // namespace opgen
