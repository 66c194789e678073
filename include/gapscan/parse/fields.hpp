#pragma once
// Small scanners for the fields that carry a group key inside a message:
// key=value pairs (reqId=…, request_id=…) and keys of a trailing JSON object.

#include <gapscan/core/time.hpp>
#include <gapscan/parse/record.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::parse {

/// The value of the best key=value pair that names what the line belongs to (case-insensitive,
/// value optionally quoted), by rank: a request (reqId, request_id, req_id, req, request, rid,
/// x-request-id, correlation_id), a trace (trace_id, traceId), a transaction (txn, txn_id,
/// transaction_id), a connection (conn, conn_id, connection), a session (session, session_id,
/// sid), a span (span_id). Values with blanks (a quoted request line) or "-" are not ids.
/// Keys of a rank above max_rank are not taken (an access log's line is one request: its
/// connection or session would make streams of requests, whose gaps are the client's pacing).
/// Empty when there is none.
std::string_view find_request_id_pair(std::string_view text, int max_rank = 5);

/// The same for a JSON text (a Monolog context or extra object, flat or nested): the value of the
/// best-ranked `"key": "value"` (or number) whose key names a request, trace, … (the keys of
/// find_request_id_pair, the same ranks). Empty when there is none.
std::string_view find_request_id_json(std::string_view json, int max_rank = 5);

/// The key=value key that groups a log's lines into requests, learnt from its first lines.
struct GroupKeyChoice {
  std::string key;         ///< empty: none
  bool known = false;      ///< one of find_request_id_pair's names (on half the lines or more)
  std::size_t lines = 0;   ///< sample lines that carry it
  std::size_t values = 0;  ///< its distinct values there (a learnt key)
  double span = 0;         ///< the mean share of the sample a repeated value's lines span
};

/// Which key groups the sample's lines: the commonest known request/trace/… key on half the
/// lines or more; else a key of the log's own whose values recur on nearby lines and change
/// along the file (on 60 % of the lines or more, three values or more, most seen twice or more,
/// 1.5 lines per value or more, each repeated value's lines within a quarter of the sample, or
/// within three quarters when they follow one another along it (no hole between two of them
/// longer than a quarter of it, for half of the values or more): long requests, few at once;
/// values without blanks and not decimal numbers). Empty when there is none.
GroupKeyChoice learn_group_key(const std::vector<std::string_view>& lines);

/// The operation a key=value line names (`op=`, `operation=`, `cmd=`, `command=`, `action=`;
/// a value without blanks, at most 64 bytes), or empty: logged durations are analysed per
/// operation, since a 1 s mode of `op=connect` says something else than one of `op=get`.
std::string_view find_operation(std::string_view text);

/// The last balanced {...} object at the end of `text` (trailing spaces ignored), or empty.
/// Braces inside JSON strings are skipped.
std::string_view trailing_json_object(std::string_view text);

/// The raw (still escaped) value of string field `key` anywhere in a flat scan of a JSON
/// text, e.g. json_string_field(extra, "reqId"). Empty when absent or not a string.
std::string_view json_string_field(std::string_view json, std::string_view key);

/// The raw value at a dotted key path of a JSON text ("extra.reqId"): a string's content
/// (still escaped) or a number, true or false. Empty when absent or an object or array.
std::string_view json_path_value(std::string_view json, std::string_view path);

/// The value of the first `key=value` pair with exactly this key (value optionally quoted).
std::string_view key_value(std::string_view text, std::string_view key);

/// A decimal number ("0.534", "534211", "12.5") in units of `unit` ns, as nanoseconds
/// (rounded down); `digits` gets the fraction-of-second digits the value was written with.
/// False for anything else or a value beyond ~290 years.
bool parse_duration(std::string_view text, DurationNs unit, DurationNs& out, std::uint8_t& digits);

/// A duration the text logs: a key=value or JSON key that says duration (duration, elapsed,
/// took, latency, request_time, response_time, rt, runtime, time_taken, a bare `ms`, curl's
/// time_total / time_connect / time_namelookup / time_starttransfer, any `*_ms`, `*_us`,
/// `*_ns`, `*_s` key that does not name a setting such as a timeout …) with the unit in
/// the key's suffix (`elapsed_ms=5002.2`), after the number (`took=12ms`, `"duration":"1.5s"`)
/// or implied (`request_time`, `rt` and a JSON `duration` are seconds); or a phrase such as
/// "took 12 ms", "completed in 1.5s". The first such field counts, except that of curl's
/// cumulative timers time_total counts (or, without it, the last timer written).
/// False when the text logs none.
/// With `phases`, the phase timers among those fields are also read (phase_of_key): a phase key
/// is the line's duration only when it names no other (curl's time_total, else the largest).
bool find_duration(std::string_view text, DurationNs& out, std::uint8_t& digits,
                   std::array<DurationNs, k_phase_count>* phases = nullptr);

/// The phase a timer's key names, with any unit suffix (`connect_ms`, `time_connect`,
/// `upstream_connect_time`, nginx's short `uct`/`uht`/`urt`, `queue_ms`, `lock_time`,
/// `tls_handshake_ms`, `ttfb`), and whether its value counts from the start of the request
/// (curl's and nginx's timers: each includes the phases before it). -1 for another key.
int phase_of_key(std::string_view key, bool& cumulative);

/// The unit a field's name implies for its value: its suffix (`wait_ms`, `latencyUs`), or
/// seconds for curl's timers, request_time, rt and nginx's upstream_*_time; 0 when the name
/// says none.
DurationNs duration_unit_of_key(std::string_view key);

/// A field's value as a duration: a number with its own unit ("12ms", "1.5 s") or in
/// `default_unit` ("0.250", the first of "0.500, 0.012"). False for anything else.
bool duration_value(std::string_view value, DurationNs default_unit, DurationNs& out);

/// The value of the field `name` in a line: a `name=value` pair (value optionally quoted), or
/// the key path `name` ("timing.connect") of the line's JSON object (the whole line, or one at
/// its end). Empty when the line has no such field.
std::string_view field_value(std::string_view text, std::string_view name);

/// Appends `name=value` to a Record::fields block (space-separated; the value in double
/// quotes when it holds a space, comma, tab or quote, its own double quotes turned into
/// single ones), so that key_value() reads it back. Empty values and "-" are not written.
void append_field(std::string& out, std::string_view name, std::string_view value);

/// The canonical name of a web server's field, for the catalog's field tests: status, method,
/// path, cache_status, set_cookie (nginx $upstream_cache_status, Apache %{Set-Cookie}o,
/// varnishncsa %{Varnish:handling}x, X-Cache …); empty when the name has none of its own.
std::string_view canonical_field_name(std::string_view name);

/// An HTTP cache's status word as caches log it (nginx HIT, MISS, BYPASS, EXPIRED, STALE,
/// UPDATING, REVALIDATED; Varnish hit, miss, pass, pipe, synth; hitmiss, hitpass).
bool is_cache_status(std::string_view token);

}  // namespace gapscan::parse
