// MediaWiki's Monolog line layout as Wikimedia configures it (wmf-config/logging.php):
//   <Y-m-d H:i:s[.u]> [<reqId>] <host> <wiki> <mwversion> <channel> <LEVEL>: <message> <context>
// The request id is the bracketed field; the time has no offset (read as UTC).

#include "formats.hpp"
#include "scan.hpp"

#include <gapscan/parse/timestamp.hpp>

namespace gapscan::parse::formats {
namespace {

class MediawikiLineParser final : public LineParser {
 public:
  bool context_free() const override { return true; }
  ParseStatus parse(std::string_view line, Record& record) override {
    const auto time = parse_iso8601(line);
    if (!time || time->date_time_t || time->has_offset) return ParseStatus::not_this_format;
    std::size_t pos = time->length;
    if (line.size() < pos + 3 || line[pos] != ' ' || line[pos + 1] != '[') {
      return ParseStatus::not_this_format;
    }
    const std::size_t id_start = pos + 2;
    const std::size_t id_end = line.find(']', id_start);
    if (id_end == std::string_view::npos || id_end + 1 >= line.size() || line[id_end + 1] != ' ') {
      return ParseStatus::not_this_format;
    }
    pos = id_end + 2;
    const std::string_view host = next_token(line, pos);
    const std::string_view wiki = next_token(line, pos);
    const std::string_view version = next_token(line, pos);
    const std::string_view channel = next_token(line, pos);
    std::string_view level = next_token(line, pos);
    if (host.empty() || wiki.empty() || version.empty() || channel.empty() || level.size() < 2 || level.back() != ':' ||
        !is_upper_word(level.substr(0, level.size() - 1))) {
      return ParseStatus::not_this_format;
    }
    level.remove_suffix(1);
    record.time = time->time;
    record.time_digits = time->digits;
    record.zoned = false;
    record.group = line.substr(id_start, id_end - id_start);
    record.channel = channel;
    record.level = level;
    record.message = line.substr(pos);
    return ParseStatus::parsed;
  }
};

}  // namespace

FormatInfo mediawiki_line() {
  return {"mediawiki-line",
          "MediaWiki Monolog line, Wikimedia layout: time [reqId] host wiki version channel LEVEL: message",
          "2026-11-29 21:03:04.123456 [9c1f0d3e8a2b47c5a6d7e8f9] appserver1 mywiki 1.39.10 memcached "
          "DEBUG: MemcachedPeclBagOStuff debug: get(mywiki:page-props:4711)",
          [] { return std::unique_ptr<LineParser>(std::make_unique<MediawikiLineParser>()); }};
}

}  // namespace gapscan::parse::formats
