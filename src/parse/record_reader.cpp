#include <gapscan/parse/fields.hpp>
#include <gapscan/parse/record_reader.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

namespace gapscan::parse {

void LineAccount::merge(const LineAccount& other) {
  lines += other.lines;
  records += other.records;
  continuation += other.continuation;
  untimed += other.untimed;
  blank += other.blank;
  comment += other.comment;
  unparsed += other.unparsed;
  truncated += other.truncated;
  for (const auto& [name, count] : other.by_format) by_format[name] += count;
  for (const auto& example : other.examples) {
    if (examples.size() < k_max_examples) examples.push_back(example);
  }
}

RecordReader::RecordReader(ReaderOptions options) : m_options(options) {
  if (m_options.user_formats) {
    for (const FormatInfo& info : *m_options.user_formats) m_candidates.push_back({&info, info.make_parser(), 0});
  }
  for (const FormatInfo& info : builtin_formats()) {
    m_candidates.push_back({&info, info.make_parser(), 0});
  }
}

LineAccount RecordReader::account() const {
  LineAccount account = m_account;
  if (m_envelope_records > 0) account.by_format[std::string(to_string(m_envelope.kind()))] += m_envelope_records;
  for (const Candidate& candidate : m_candidates) {
    if (candidate.records > 0) account.by_format[std::string(candidate.info->name)] += candidate.records;
  }
  return account;
}

bool strip_terminal_escapes(std::string_view line, std::string& out) {
  if (line.find('\x1b') == std::string_view::npos) return false;
  out.clear();
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\x1b') {
      out += line[i];
      continue;
    }
    if (i + 1 >= line.size()) break;
    const char kind = line[i + 1];
    std::size_t j = i + 2;
    if (kind == '[') {  // CSI: parameters, intermediates, one final byte (colours are "ESC[32m")
      while (j < line.size() && static_cast<unsigned char>(line[j]) >= 0x20 &&
             static_cast<unsigned char>(line[j]) < 0x40)
        ++j;
      i = std::min(j, line.size() - 1);  // the final byte
    } else if (kind == ']') {            // OSC (a hyperlink, a title): up to BEL or ESC '\'
      while (j < line.size() && line[j] != '\a' && !(line[j] == '\x1b' && j + 1 < line.size() && line[j + 1] == '\\'))
        ++j;
      i = j < line.size() && line[j] == '\x1b' ? j + 1 : j;
    } else {
      i += 1;  // a two-byte sequence ("ESC(B", "ESC=")
      if ((kind == '(' || kind == ')') && i + 1 < line.size()) ++i;
    }
  }
  return true;
}

void RecordReader::detect(const std::vector<std::string>& escaped_sample) {
  // Terminal escape sequences (colours of a logger writing to a terminal, kept by `script` or
  // `docker logs`) are taken out before a line is read: the stamp may sit between them.
  std::vector<std::string> plain_sample;
  plain_sample.reserve(escaped_sample.size());
  std::string plain;
  for (const std::string& line : escaped_sample)
    plain_sample.push_back(strip_terminal_escapes(line, plain) ? plain : line);
  const std::vector<std::string>& raw_sample = plain_sample;
  // Lines inside an envelope are detected by what they carry.
  m_envelope = Envelope(Envelope::detect(raw_sample));
  std::vector<std::string> sample;
  sample.reserve(raw_sample.size());
  Unwrapped unwrapped;
  Envelope probe(m_envelope.kind());  // its own state: the lines are unwrapped again when read
  std::map<std::string, std::string> parts;
  for (const std::string& line : raw_sample) {
    if (!probe.unwrap(line, unwrapped)) {
      sample.push_back(line);
      continue;
    }
    std::string key = std::string(unwrapped.group) + (unwrapped.stream == 0 ? "\x01out" : "\x01err");
    const auto it = parts.find(key);
    if (unwrapped.partial) {
      parts[key] += unwrapped.inner;
    } else if (it != parts.end()) {
      sample.push_back(it->second + std::string(unwrapped.inner));
      parts.erase(it);
    } else {
      sample.emplace_back(unwrapped.inner);
    }
  }
  std::vector<std::size_t> hits(m_candidates.size(), 0);
  Record scratch;
  for (Candidate& candidate : m_candidates) candidate.parser->learn(sample, m_options.time);
  std::vector<ParseStatus> statuses(m_candidates.size());
  for (const std::string& line : sample) {
    bool parsed = false;
    for (std::size_t i = 0; i < m_candidates.size(); ++i) {
      statuses[i] = m_candidates[i].parser->parse(line, scratch);
      if (statuses[i] == ParseStatus::parsed) {
        ++hits[i];
        parsed = true;
      }
    }
    // An untimed claim (or a part of a multi-line entry) counts only for a specific format, and
    // for a line no format parses.
    for (std::size_t i = 0; i < m_candidates.size() && !parsed; ++i) {
      const bool claimed = statuses[i] == ParseStatus::untimed || statuses[i] == ParseStatus::part;
      if (claimed && !m_candidates[i].info->generic) ++hits[i];
    }
  }
  for (Candidate& candidate : m_candidates) candidate.parser->restart();
  // The specific format with the most hits wins (the first of equals), unless a generic
  // format parses more than twice as many lines.
  std::size_t best_specific = m_candidates.size(), best_generic = m_candidates.size();
  for (std::size_t i = 0; i < m_candidates.size(); ++i) {
    std::size_t& best = m_candidates[i].info->generic ? best_generic : best_specific;
    if (hits[i] > 0 && (best == m_candidates.size() || hits[i] > hits[best])) best = i;
  }
  std::size_t index = best_specific;
  if (index == m_candidates.size() ||
      (best_generic < m_candidates.size() && hits[best_generic] > 2 * hits[best_specific])) {
    index = best_generic;
  }
  if (index == m_candidates.size()) {
    m_detected = m_envelope.kind() != EnvelopeKind::none;
    return;
  }
  std::rotate(m_candidates.begin(), m_candidates.begin() + static_cast<std::ptrdiff_t>(index),
              m_candidates.begin() + static_cast<std::ptrdiff_t>(index) + 1);
  m_detected = true;
}

std::string RecordReader::detected_format() const {
  if (!m_detected) return "none";
  std::string name(m_candidates.front().info->name);
  const std::string layout = m_candidates.front().parser->layout();
  if (!layout.empty()) name += " (" + layout + ")";
  if (m_envelope.kind() != EnvelopeKind::none) name = std::string(to_string(m_envelope.kind())) + " > " + name;
  return name;
}

bool RecordReader::looks_like_continuation(std::string_view text) {
  const char first = text.front();
  if (first == ' ' || first == '\t' || first == '}' || first == ']' || first == ')' || first == '{') return true;
  if (first == '#' && text.size() > 1 && text[1] >= '0' && text[1] <= '9') return true;
  static constexpr std::array<std::string_view, 29> k_starts = {
      "Stack trace:", "Caused by", "Next ", "[Exception ", "thrown in", "Traceback", "at ", "During handling",
      "script_filename = ", "[0x", "PHP Stack trace:",
      // a Python frame written unindented (vdsm), PHP's stderr through FastCGI in nginx's error
      // log, a Go panic's goroutine header
      "File \"", "PHP message: ", "goroutine ",
      // the second line of a java.util.logging record
      "SEVERE: ", "WARNING: ", "INFO: ", "CONFIG: ", "FINE: ", "FINER: ", "FINEST: ",
      // the statement of a MySQL slow-log record
      "SET timestamp=", "SELECT ", "INSERT ", "UPDATE ", "DELETE ", "use ", "REPLACE ", "CALL "};
  if (std::any_of(k_starts.begin(), k_starts.end(), [&](std::string_view start) { return text.starts_with(start); })) {
    return true;
  }
  // The last line of a Python traceback or a Java exception header: "ValueError: …",
  // "java.lang.IllegalStateException: …".
  std::size_t i = 0;
  while (i < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.' || text[i] == '$')) {
    ++i;
  }
  const std::string_view name = text.substr(0, i);
  return i > 0 && (i == text.size() || text[i] == ':') &&
         (name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Exit") ||
          name.ends_with("Interrupt") || name.ends_with("Warning") || name.ends_with("Throwable"));
}

void RecordReader::apply_group_by(std::string_view text, Record& record) const {
  const GroupBy& by = m_options.group_by;
  switch (by.mode) {
    case GroupBy::Mode::automatic:
      return;
    case GroupBy::Mode::none:
      record.group = {};
      return;
    case GroupBy::Mode::field:
      if (by.field == "channel") {
        record.group = record.channel;
      } else if (by.field == "level") {
        record.group = record.level;
      } else {
        record.group = text.find('{') != std::string_view::npos ? json_path_value(text, by.field) : std::string_view();
        if (record.group.empty()) record.group = key_value(text, by.field);
      }
      return;
    case GroupBy::Mode::regex: {
      std::string_view capture;
      record.group = by.regex && by.regex->extract(text, capture) ? capture : std::string_view();
      return;
    }
  }
}

LineClass RecordReader::read(std::string_view escaped, const LineLocation& location, Record& record) {
  m_ready = false;
  ++m_account.lines;
  if (strip_terminal_escapes(escaped, m_plain)) {
    // An unparsed line is shown as it was written (escaped by the printers), not as read.
    const std::size_t examples = m_account.examples.size();
    const LineClass kind = read_plain(m_plain, location, record);
    if (kind == LineClass::unparsed && m_account.examples.size() > examples)
      m_account.examples.back().text = std::string(escaped.substr(0, 200));
    return kind;
  }
  return read_plain(escaped, location, record);
}

LineClass RecordReader::read_plain(std::string_view line, const LineLocation& location, Record& record) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    ++m_account.blank;
    return LineClass::blank;
  }
  Unwrapped wrapped;
  if (m_envelope.kind() == EnvelopeKind::none || !m_envelope.unwrap(line, wrapped)) {
    return read_text(line, nullptr, location, record);
  }
  // A line split over several envelopes of one stream is put back together, then read as
  // one record at the place of its first part.
  std::string key = std::string(wrapped.group);
  key += wrapped.stream == 0 ? "\x01out" : "\x01err";
  if (const auto it = m_pending.find(key); it != m_pending.end()) {
    it->second.text += wrapped.inner;
    ++m_account.continuation;
    if (!wrapped.partial || it->second.text.size() > k_max_joined) {
      m_joined = std::move(it->second);
      m_pending.erase(it);
      read_joined(record);
    }
    return LineClass::continuation;
  }
  if (wrapped.partial && m_pending.size() < k_max_pending) {
    Pending& pending = m_pending[key];
    pending.location = location;
    pending.text = wrapped.inner;
    pending.group = wrapped.group;
    pending.envelope = wrapped;
    return LineClass::record;  // counted when its last part has been read
  }
  if (wrapped.inner.find_first_not_of(" \t\r") == std::string_view::npos) {
    ++m_account.blank;
    return LineClass::blank;
  }
  return read_text(wrapped.inner, &wrapped, location, record);
}

bool RecordReader::OpenJson::feed(std::string_view line) {
  for (const char c : line) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return depth <= 0;
}

LineClass RecordReader::read_text(std::string_view text, const Unwrapped* envelope, const LineLocation& location,
                                  Record& record) {
  const auto starts_line = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '[' || c == '{' || c == '<';
  };
  if (m_json.active && (m_json.in_string ? m_json.last_length < k_min_wrap : starts_line(text.front()))) {
    // Not a part of the object: a wrap fills its line to the writer's limit (at least 512
    // bytes), and pretty-printed JSON is indented, its end '}' or ']'. The object ended
    // without closing: its first line is unparsed, this line is read on its own.
    m_json.active = false;
    ++m_account.unparsed;
    if (m_account.examples.size() < LineAccount::k_max_examples) {
      m_account.examples.push_back({m_json.location, m_json.text.substr(0, 200),
                                    fmt::format("a JSON object that does not close (over {} lines)", m_json.lines)});
    }
  }
  if (m_json.active) {
    // A break inside a string is a wrap (joined as is); between tokens, a line of
    // pretty-printed JSON (joined with the newline, which JSON allows there).
    if (!m_json.in_string) m_json.text += '\n';
    m_json.text += text;
    m_json.last_length = text.size();
    ++m_account.continuation;
    if (m_json.feed(text) || ++m_json.lines >= k_max_json_lines) {
      m_json.active = false;
      m_json_text = std::move(m_json.text);
      classify(m_json_text, envelope, m_json.location, record);
    }
    return LineClass::continuation;
  }
  // An object that opens on this line and does not close on it: gather the lines it spans.
  if (OpenJson open; opens_object(text, open)) {
    m_json = std::move(open);
    m_json.active = true;
    m_json.lines = 1;
    m_json.location = location;
    m_json.text = text;
    m_json.last_length = text.size();
    return LineClass::record;  // counted when the object closes
  }
  return classify(text, envelope, location, record);
}

bool RecordReader::opens_object(std::string_view text, OpenJson& open) {
  // A complete object ends with '}', so only other lines pay for the brace count.
  std::string_view trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == ' ' || trimmed.back() == '\r' || trimmed.back() == '\t')) {
    trimmed.remove_suffix(1);
  }
  if (text.front() != '{' || trimmed.back() == '}' || (trimmed.size() != 1 && !text.starts_with("{\""))) return false;
  return !open.feed(text) && (!open.in_string || text.size() >= k_min_wrap);
}

bool RecordReader::can_prepare() const {
  return m_detected && m_envelope.kind() == EnvelopeKind::none && !m_candidates.empty() &&
         m_candidates.front().parser->context_free();
}

RecordReader::Prepared RecordReader::prepare(std::string_view line, Record& record) {
  // What read() does, up to the first parser's answer: the blank test, then (no envelope) the
  // test of a JSON object that opens on this line, then the detected format, which reads the
  // line on its own. A line it does not take goes through the other formats, whose answers may
  // depend on earlier lines (dates of time-only stamps, year chains): read() it in order.
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return Prepared::blank;
  if (!can_prepare() || line.find('\x1b') != std::string_view::npos) return Prepared::other;
  if (OpenJson open; opens_object(line, open)) return Prepared::other;
  Candidate& first = m_candidates.front();
  record = Record{};
  if (first.parser->parse(line, record) != ParseStatus::parsed) return Prepared::other;
  record.format = first.info->name;
  apply_group_by(line, record);
  return Prepared::record;
}

bool RecordReader::take(Prepared kind, std::string_view line, const LineLocation& location, Record& record) {
  // read()'s state between lines: a JSON object being gathered (its next line may be this
  // one); envelopes are excluded by can_prepare().
  if (kind == Prepared::other || m_json.active) return false;
  m_ready = false;
  ++m_account.lines;
  if (kind == Prepared::blank) {
    ++m_account.blank;
    return true;
  }
  ++m_candidates.front().records;
  accept_grouped(line, location, record);
  return true;
}

void RecordReader::read_joined(Record& record) {
  m_joined.envelope.inner = m_joined.text;
  m_joined.envelope.group = m_joined.group;
  m_joined.envelope.partial = false;
  classify(m_joined.text, &m_joined.envelope, m_joined.location, record);
}

bool RecordReader::finish(Record& record) {
  m_ready = false;
  if (m_json.active) {  // an object still open at the end: read what there is
    m_json.active = false;
    m_json_text = std::move(m_json.text);
    classify(m_json_text, nullptr, m_json.location, record);
    return true;
  }
  if (m_pending.empty()) return false;
  m_joined = std::move(m_pending.begin()->second);
  m_pending.erase(m_pending.begin());
  read_joined(record);
  return true;
}

LineClass RecordReader::accept(std::string_view text, const LineLocation& location, Record& record) {
  apply_group_by(text, record);
  return accept_grouped(text, location, record);
}

LineClass RecordReader::accept_grouped(std::string_view text, const LineLocation& location, Record& record) {
  // A duration the line states, whoever wrote it (`{"wait_ms":232.1}` in a Monolog context,
  // "took 12 ms"): the generic reader and access logs have looked already, in their own way.
  if (record.duration < 0 && record.format != "generic" && record.format != "access-log")
    find_duration(record.format == "monolog-json" ? text : record.message, record.duration, record.duration_digits);
  if (!record.zoned && m_options.time.zone) record.time = m_options.time.zone->to_utc(record.time, m_last_utc);
  m_last_utc = record.time;
  m_record_text = text;
  m_record_location = location;
  // Erlang's SASL reports (RabbitMQ before 3.7): "=INFO REPORT==== 4-Sep-2017::17:14:09 ===", the
  // report's lines after it, unindented.
  m_report_open = text.starts_with('=') && text.ends_with("===");
  m_ready = true;
  ++m_account.records;
  m_seen_record = true;
  return LineClass::record;
}

LineClass RecordReader::classify(std::string_view text, const Unwrapped* envelope, const LineLocation& location,
                                 Record& record) {
  const bool is_wrapped = envelope != nullptr;
  const Unwrapped& wrapped = is_wrapped ? *envelope : m_no_envelope;
  std::string_view malformed_reason;
  bool untimed = false;
  for (Candidate& candidate : m_candidates) {
    record = Record{};  // nothing of an earlier line's record stays (a format sets only its own fields)
    const ParseStatus status = candidate.parser->parse(text, record);
    if (status == ParseStatus::parsed) {
      if (is_wrapped) {
        if (record.group.empty()) record.group = wrapped.group;
        // The envelope's receive time is finer than a stamp without milliseconds (access logs).
        if (wrapped.has_time && record.time_digits < 3 && wrapped.time_digits > record.time_digits) {
          record.time = wrapped.time;
          record.time_digits = wrapped.time_digits;
          record.zoned = wrapped.zoned;
        }
      }
      record.format = candidate.info->name;
      ++candidate.records;
      return accept(text, location, record);
    }
    if (status == ParseStatus::part) {  // the entry's record comes with a later line
      ++m_account.continuation;
      return LineClass::continuation;
    }
    if (status == ParseStatus::malformed && malformed_reason.empty()) {
      malformed_reason = candidate.parser->reason();
    }
    if (status == ParseStatus::untimed) untimed = true;
  }
  if (is_wrapped && wrapped.has_time && !text.empty() && !looks_like_continuation(text)) {
    // The carried line has no time of its own: the envelope's time stands in.
    record = Record{};
    record.time = wrapped.time;
    record.time_digits = wrapped.time_digits;
    record.zoned = wrapped.zoned;
    record.group = wrapped.group;
    record.message = text;
    record.format = to_string(m_envelope.kind());
    ++m_envelope_records;
    return accept(text, location, record);
  }
  if (untimed) {
    ++m_account.untimed;
    return LineClass::untimed;
  }
  if (text[0] == '#' && (text.size() < 2 || text[1] < '0' || text[1] > '9')) {
    ++m_account.comment;
    return LineClass::comment;
  }
  if (m_seen_record && malformed_reason.empty() && (m_report_open || looks_like_continuation(text))) {
    ++m_account.continuation;
    return LineClass::continuation;
  }
  ++m_account.unparsed;
  if (m_account.examples.size() < LineAccount::k_max_examples) {
    std::string reason =
        malformed_reason.empty()
            ? std::string(m_seen_record ? "matches no known format" : "matches no known format (before any record)")
            : std::string(malformed_reason);
    m_account.examples.push_back({location, std::string(text.substr(0, 200)), std::move(reason)});
  }
  return LineClass::unparsed;
}

}  // namespace gapscan::parse
