#include "base/message_text.hpp"

namespace gnbench {

namespace {

// \xNN for control characters (and, with `ascii_only`, bytes >= 0x80); at most `max_bytes`.
std::string escaped(const std::string& s, size_t max_bytes, bool ascii_only, size_t* used) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  size_t i = 0;
  for (; i < s.size() && out.size() < max_bytes; ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch < 0x20 || ch == 0x7f || (ascii_only && ch >= 0x80)) {
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    } else {
      out += static_cast<char>(ch);
    }
  }
  *used = i;
  return out;
}

}  // namespace

std::string printable(const std::string& s, size_t max_chars) {
  size_t used = 0;
  std::string out = escaped(s, max_chars, true, &used);
  return used < s.size() ? out + "..." : out;
}

std::string one_line(const std::string& s, size_t max_bytes) {
  size_t used = 0;
  std::string out = escaped(s, max_bytes, false, &used);
  if (used < s.size()) out += "... (" + std::to_string(s.size() - used) + " more bytes)";
  return out;
}

namespace {
// 99990 -> "99,990"
std::string with_commas(size_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}
}  // namespace

std::string join_bounded(const std::vector<std::string>& items, size_t max_items) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < max_items; ++i)
    out += (i ? ", " : "") + printable(items[i], 80);
  if (items.size() > max_items)
    out += ", ... and " + with_commas(items.size() - max_items) + " more";
  return out;
}

}  // namespace gnbench
