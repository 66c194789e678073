#pragma once
// Web-server log layouts as their users configure them: an nginx `log_format` string, or an
// Apache `LogFormat` / varnishncsa `-F` string, translated into a user format (user_format.hpp):
// a regular expression with the named groups gapscan reads and a time layout.
//
//   nginx:   $remote_addr - $remote_user [$time_local] "$request" $status $request_time …
//   Apache:  %h %l %u %t "%r" %>s %b %D "%{X-Request-ID}i"
//
// The time comes from $time_local, $time_iso8601 or $msec (nginx) or %t (Apache, varnishncsa);
// the logged duration from $request_time (else $upstream_response_time), %D (µs) or %T (s);
// the group from $request_id, %{UNIQUE_ID}e or a request-id header. Every other field is
// matched as a token (or, between double quotes, as anything up to the closing quote), so
// that cache status, Set-Cookie and the rest stay in the line for the catalog's evidence.

#include <gapscan/core/expected.hpp>

#include <string>
#include <string_view>

namespace gapscan::parse {

struct TranslatedFormat {
  std::string regex;          ///< RE2, with the named groups time, duration and group
  std::string time_layout;    ///< for the time group (time_layout.hpp)
  std::string duration_unit;  ///< of the duration group: "s", "us" or empty (none)
};

/// An nginx log_format string. Errors name the problem (no time variable).
Expected<TranslatedFormat> translate_nginx_log_format(std::string_view spec);

/// An Apache LogFormat or varnishncsa -F string.
Expected<TranslatedFormat> translate_apache_log_format(std::string_view spec);

}  // namespace gapscan::parse
