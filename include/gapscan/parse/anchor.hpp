#pragma once
// Anchors: where on a line a timestamp may start. A generic line's format is the pair
// (timestamp family, anchor) that fits most of its first lines (docs/formats.md).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

enum class AnchorKind : std::uint8_t {
  line_start,     ///< byte 0
  after_bracket,  ///< after a '[' at byte 0
  after_paren,    ///< after a '(' at byte 0 (sssd: "(2026-12-05 12:00:00): [sssd] …")
  after_label,    ///< after "word:" glued to the stamp at byte 0 (OpenAM: "amAuthentication:10/05/2026 …")
  glued_tag,      ///< after a short tag glued to the stamp at the start of a field (I1129, <W>)
  field,          ///< the start of blank-separated field N
  bracket_field,  ///< after the '[' that opens field N (CLF: host ident user [)
  rfc5424,        ///< after "<PRI>1 " (syslog RFC 5424)
  json_key,       ///< the value of a JSON key (one level of nesting: "t.$date")
  key_value,      ///< the value after key= (quoted or not)
  audit,          ///< after "audit(" (Linux audit records)
};

struct Anchor {
  AnchorKind kind = AnchorKind::line_start;
  std::uint8_t field = 0;  ///< for field, bracket_field and glued_tag
  std::string key;         ///< for json_key and key_value

  bool operator==(const Anchor& other) const = default;
  bool keyed() const { return kind == AnchorKind::json_key || kind == AnchorKind::key_value; }
};

struct AnchorHit {
  Anchor anchor;
  std::size_t pos = 0;
};

/// Every anchor the line offers (fields up to 8), in no particular order.
void enumerate_anchors(std::string_view line, std::vector<AnchorHit>& out);

/// The positions where `anchor` points in `line`, in line order (a key may occur twice).
void locate(const Anchor& anchor, std::string_view line, std::vector<std::size_t>& out);

/// "field 3", "json time", … for messages.
std::string describe(const Anchor& anchor);

/// Rank of a key name as a time field: 0 for the most likely (time, timestamp, ts, …),
/// larger for less likely ones, the largest for names with no hint of time.
int time_key_rank(std::string_view key);

}  // namespace gapscan::parse
