#pragma once
// A record: one log event, as parsed from the physical line where it starts.

#include <gapscan/core/time.hpp>

#include <array>
#include <cstdint>
#include <string_view>

namespace gapscan::parse {

/// The phases of a request that proxies, clients and databases time (docs/formats.md, "Phase
/// timers"): a name lookup, a wait in a queue or pool, the TCP connect, the TLS handshake,
/// reading the client's request, waiting for the response's first byte, the rest of the
/// transfer, a lock wait.
enum class Phase : std::uint8_t { lookup, queue, connect, tls, request, response, transfer, lock };
inline constexpr std::size_t k_phase_count = 8;
std::string_view to_string(Phase phase);

/// Views into the line that was parsed; valid as long as that line is.
struct Record {
  TimeNs time = 0;                   ///< UTC nanoseconds
  std::uint8_t time_digits = 0;      ///< fraction-of-second digits written in the timestamp (0-9)
  bool zoned = true;                 ///< the stamp carried its zone; if not, `time` was read as UTC and RecordReader
                                     ///< shifts it by the input zone
  DurationNs duration = -1;          ///< a duration the line logs (an access log's request time); -1: none
  std::uint8_t duration_digits = 0;  ///< fraction-of-second digits the duration was written with
  std::string_view group;            ///< request id (or other group key); empty when the line has none
  std::string_view process;          ///< the process or thread that wrote the line (syslog tag, pid=, thread=), when
                                     ///< the line also has a request id as its group; empty otherwise
  std::string_view channel;          ///< logger channel or component, when the format has one
  std::string_view level;            ///< severity as written, when the format has one
  std::string_view message;          ///< the message text (for JSON: the raw, still-escaped value)
  std::string_view format;           ///< name of the format that parsed the line (set by RecordReader)
  std::string_view fields;           ///< fields a positional format names (an access log's status, method, cache
                                     ///< status, Set-Cookie), as `name=value` pairs (fields.hpp append_field);
                                     ///< empty for lines that name their own fields (key=value, JSON)
  std::string_view statement;        ///< the SQL statement a database's line times (a slow-log entry, PostgreSQL's
                                     ///< `duration: … statement: …`); its durations are grouped by its fingerprint
  bool completion = false;           ///< the line reports a finished request (an access-log line); a line that
                                     ///< logs a duration is taken as one too
  /// The time each phase of the request took, as the line's timers say (the difference of
  /// cumulative ones: curl's time_connect less time_namelookup); -1 where the line says none.
  std::array<DurationNs, k_phase_count> phases = {-1, -1, -1, -1, -1, -1, -1, -1};
  std::uint32_t template_id = 0;  ///< the message's template (message_template.hpp), low 32 bits of its hash;
                                  ///< 0: not computed (set by the scan before the record joins a stream)
};

}  // namespace gapscan::parse
