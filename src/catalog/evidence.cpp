// Testing one evidence item on one line: a regex over the whole text, or a field's value.

#include <gapscan/catalog/cause.hpp>
#include <gapscan/parse/fields.hpp>

#include <string>

namespace gapscan::catalog {
namespace {

/// The leading number of a value ("1572864", "0.5", "12ms" -> 12), or false.
bool leading_number(std::string_view value, double& out) {
  std::size_t i = 0;
  bool digit = false, dot = false;
  for (; i < value.size(); ++i) {
    const char c = value[i];
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digit || i > 24) return false;
  out = std::stod(std::string(value.substr(0, i)));
  return true;
}

bool field_holds(const FieldTest& test, const Regex& regex, std::string_view value, std::int64_t unit) {
  if (test.has_regex && !regex.search(value)) return false;
  if (test.above || test.below) {
    double number = 0;
    if (!leading_number(value, number)) return false;
    if ((test.above && number < *test.above) || (test.below && number >= *test.below)) return false;
  }
  if (!test.above_ms && !test.below_ms) return true;
  DurationNs ns = 0;
  if (!parse::duration_value(value, unit, ns)) return false;
  const double ms = static_cast<double>(ns) / 1e6;
  if (test.above_ms && ms < *test.above_ms) return false;
  return !test.below_ms || ms < *test.below_ms;
}

}  // namespace

bool EvidencePattern::matches(std::string_view line, std::string_view fields) const {
  if (!field) return regex.search(line) || (!fields.empty() && regex.search(fields));
  for (std::size_t i = 0; i < field->names.size(); ++i) {
    std::string_view value = fields.empty() ? std::string_view() : parse::key_value(fields, field->names[i]);
    if (value.empty()) value = parse::field_value(line, field->names[i]);
    if (!value.empty() && field_holds(*field, regex, value, field->units.empty() ? 0 : field->units[i])) return true;
  }
  return false;
}

}  // namespace gapscan::catalog
