#pragma once
// Envelopes: lines that carry another log line inside them. gapscan takes the inner line out
// and parses it with the formats, so that its own time (often finer) and request id are
// used; the envelope's time and key serve when the inner line has none.
//   docker-json  {"log":"<line>\n","stream":"stderr","time":"2026-11-29T21:03:04.123456789Z"}
//   cri          2026-11-29T21:03:04.123456789Z stdout F <line>   (P: a partial line)
//   php-fpm      [29-Nov-2026 21:03:04] WARNING: [pool www] child 4242 said into stderr: "<line>"
// A line too long for one envelope continues in the next envelope of the same stream:
// Docker's json-file splits at 16 KiB (the part has no final "\n"), CRI marks parts 'P', and
// PHP-FPM wraps worker output at log_limit (a part fills the line to exactly that length).

#include <gapscan/core/time.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

enum class EnvelopeKind { none, docker_json, cri, php_fpm };

std::string_view to_string(EnvelopeKind kind);

struct Unwrapped {
  std::string_view inner;  ///< the carried line (may point into the unwrapper's buffer)
  bool has_time = false;
  TimeNs time = 0;  ///< the envelope's time
  std::uint8_t time_digits = 0;
  bool zoned = true;       ///< the envelope's time carries its zone (PHP-FPM's does not: local time)
  std::string_view group;  ///< e.g. "child 4242" for php-fpm; empty otherwise
  bool partial = false;    ///< the carried line continues in the next envelope of its stream
  int stream = 0;          ///< 0 stdout, 1 stderr
};

class Envelope {
 public:
  /// The envelope most sample lines are in, if most are (else none).
  static EnvelopeKind detect(const std::vector<std::string>& sample);

  explicit Envelope(EnvelopeKind kind = EnvelopeKind::none) : m_kind(kind) {}
  EnvelopeKind kind() const { return m_kind; }

  /// Takes the inner line out of `line`; false if the line is not in this envelope. The
  /// views stay valid until the next call.
  bool unwrap(std::string_view line, Unwrapped& out);

 private:
  /// PHP-FPM: whether a worker-output line of this length is a wrapped part (see unwrap).
  bool fpm_part(std::size_t length);

  EnvelopeKind m_kind;
  std::string m_buffer;                                    // unescaped JSON string
  std::vector<std::pair<std::size_t, int>> m_fpm_lengths;  // long line lengths seen, and how often
};

}  // namespace gapscan::parse
