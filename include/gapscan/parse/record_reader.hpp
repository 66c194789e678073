#pragma once
// Reads the records of one input: detects its format from the first lines, parses each
// line with that format (falling back to the others line by line, so mixed files work),
// and accounts for every physical line.

#include <gapscan/core/location.hpp>
#include <gapscan/core/regex.hpp>
#include <gapscan/parse/envelope.hpp>
#include <gapscan/parse/format.hpp>
#include <gapscan/parse/record.hpp>

#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

enum class LineClass { record, continuation, untimed, blank, comment, unparsed };

struct UnparsedExample {
  LineLocation location;
  std::string text;    ///< the line, cut to 200 bytes
  std::string reason;  ///< why no format took it
};

/// How every physical line of the run was classified. lines == records + continuation + untimed +
/// comment + blank + unparsed always holds.
struct LineAccount {
  std::uint64_t lines = 0;
  std::uint64_t records = 0;
  std::uint64_t continuation = 0;
  std::uint64_t untimed = 0;  ///< lines of a known format that carry no time (no gap can be measured)
  std::uint64_t blank = 0;
  std::uint64_t comment = 0;  ///< lines starting with '#' that no format reads (headers, notes)
  std::uint64_t unparsed = 0;
  std::uint64_t truncated = 0;                     ///< overlong lines cut by the reader
  std::map<std::string, std::uint64_t> by_format;  ///< records per format name
  std::vector<UnparsedExample> examples;           ///< the first few unparsed lines

  static constexpr std::size_t k_max_examples = 5;
  void merge(const LineAccount& other);
};

/// How records are grouped into streams (--group-by).
struct GroupBy {
  enum class Mode {
    automatic,  ///< the format's own key: request id, trace id, then pid or syslog tag
    none,       ///< no key: one stream per input
    field,      ///< a key=value name, a JSON key path (extra.reqId), or channel / level
    regex,      ///< the first capture group of a regular expression on the line
  };
  Mode mode = Mode::automatic;
  std::string field;
  std::shared_ptr<const Regex> regex;
};

struct ReaderOptions {
  GroupBy group_by;
  TimeSettings time;  ///< default year and zone for stamps that do not say
  /// User-defined formats (format files), tried before the built-in ones.
  std::shared_ptr<const std::vector<FormatInfo>> user_formats;
};

/// Copies `line` to `out` without its terminal escape sequences (CSI such as the colour
/// "ESC[32m", OSC up to BEL or "ESC\\", two-byte ones). False, and `out` untouched, when the
/// line has no ESC byte.
bool strip_terminal_escapes(std::string_view line, std::string& out);

class RecordReader {
 public:
  explicit RecordReader(ReaderOptions options);

  /// Chooses the format that parses most of `sample` (the input's first lines): the specific
  /// format with the most hits (ties to the earlier one), unless a generic format parses more
  /// than twice as many. Without a call, every format is tried per line.
  void detect(const std::vector<std::string>& sample);

  /// Name of the detected format, or "none".
  std::string detected_format() const;

  /// Classifies one physical line. When a record is complete, `record` is filled and
  /// record_ready() is true. That is the line's own record, except for a line split over
  /// several envelopes (Docker 16 KiB parts, CRI 'P', PHP-FPM's log_limit wrapping): its first
  /// part is classed record but comes out when the last part is read (at record_location()),
  /// the other parts are continuation.
  LineClass read(std::string_view text, const LineLocation& location, Record& record);

  /// Whether the last read() or finish() filled `record`.
  bool record_ready() const { return m_ready; }
  /// Where the record that is ready starts.
  const LineLocation& record_location() const { return m_record_location; }
  /// The text the ready record was read from: the line, or the line inside its envelope
  /// (Docker, CRI, PHP-FPM), parts joined. Valid until the next read() or finish().
  std::string_view record_text() const { return m_record_text; }

  /// At the end of the input: reads one line still waiting for its last part, as it is.
  /// False when none waits; call until false, taking a record whenever record_ready().
  bool finish(Record& record);

  /// Reading one input's lines on several threads: a copy of this reader that detected the same
  /// sample prepares lines (prepare(), any thread, any order), and this reader takes them in
  /// order (take()), reading itself (read()) each line that was not prepared. The result is
  /// the one read() gives line by line, by construction: a line is prepared only when what
  /// read() does with it cannot depend on the lines before it.
  enum class Prepared : std::uint8_t {
    other,   ///< to be read with read(): a line no context-free parse takes, or one that may
             ///< belong to a record started before it (a JSON object's lines, a continuation)
    blank,   ///< an empty or white-space line
    record,  ///< a record of the detected format; `record` filled
  };
  /// Whether prepare() can take lines at all: a format was detected, it reads each line on
  /// its own (LineParser::context_free), and no envelope (Docker, CRI, PHP-FPM) wraps the lines.
  bool can_prepare() const;
  /// What read() would do with `line` whatever came before it, where that is known. The
  /// record's views point into `line`, or into this reader's scratch (a JSON format's
  /// unescaped strings) until the next call.
  Prepared prepare(std::string_view line, Record& record);
  /// Takes a line prepare() classed blank or record, as read() would; false (nothing done)
  /// when this reader is inside a record that spans lines: read() the line then. `record` is
  /// the prepared one; it is completed (the input's zone applied) and made ready.
  bool take(Prepared kind, std::string_view line, const LineLocation& location, Record& record);

  /// The classification of every line read so far.
  LineAccount account() const;
  void note_truncated() { ++m_account.truncated; }

 private:
  struct Candidate {
    const FormatInfo* info;
    std::unique_ptr<LineParser> parser;
    std::uint64_t records;
  };
  /// A line waiting for the rest of its parts.
  struct Pending {
    LineLocation location;  // of the first part
    std::string text;       // the parts so far
    std::string group;      // the envelope's key, owned
    Unwrapped envelope;     // of the first part (views re-pointed before use)
  };
  static constexpr std::size_t k_max_pending = 256;      // streams with a line in parts
  static constexpr std::size_t k_max_joined = 16 << 20;  // bytes of one joined line

  /// A JSON object spread over several lines (pretty-printed, or wrapped by a writer with a
  /// line limit): the lines are gathered until its braces balance, then read as one line.
  struct OpenJson {
    bool active = false;
    int depth = 0;
    bool in_string = false, escaped = false;
    std::size_t lines = 0;
    std::size_t last_length = 0;  // of the last line gathered
    LineLocation location;
    std::string text;
    bool feed(std::string_view line);  // true when the braces balance
  };
  static constexpr std::size_t k_max_json_lines = 10000;
  static constexpr std::size_t k_min_wrap = 512;  // the shortest line a writer wraps at (PHP-FPM's least log_limit)

  /// Whether read_text() starts gathering a JSON object at this line (its braces do not
  /// balance on it); `open` receives the count when it does.
  static bool opens_object(std::string_view text, OpenJson& open);
  /// read() after the terminal escapes are taken out.
  LineClass read_plain(std::string_view line, const LineLocation& location, Record& record);
  LineClass read_text(std::string_view text, const Unwrapped* envelope, const LineLocation& location, Record& record);
  LineClass classify(std::string_view text, const Unwrapped* envelope, const LineLocation& location, Record& record);
  LineClass accept(std::string_view text, const LineLocation& location, Record& record);
  LineClass accept_grouped(std::string_view text, const LineLocation& location, Record& record);
  void read_joined(Record& record);
  static bool looks_like_continuation(std::string_view text);
  void apply_group_by(std::string_view text, Record& record) const;

  ReaderOptions m_options;
  std::vector<Candidate> m_candidates;  // detected format first
  bool m_detected = false;
  Envelope m_envelope;
  std::map<std::string, Pending, std::less<>> m_pending;  // by envelope key and stream
  Pending m_joined;                                       // the joined line being read
  OpenJson m_json;
  std::string m_json_text;     // the last JSON object gathered from several lines
  std::string m_plain;         // the last line with its terminal escape sequences taken out
  bool m_report_open = false;  // the last record was an Erlang report's header: its lines follow
  const Unwrapped m_no_envelope{};
  std::string_view m_record_text;
  LineLocation m_record_location;
  bool m_ready = false;
  std::uint64_t m_envelope_records = 0;  // records timed by their envelope
  TimeNs m_last_utc = INT64_MIN;         // instant of the last record, for zone changes
  bool m_seen_record = false;
  LineAccount m_account;
};

}  // namespace gapscan::parse
