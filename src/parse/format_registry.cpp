#include <gapscan/parse/format.hpp>

#include "formats/formats.hpp"

#include <vector>

namespace gapscan::parse {

std::span<const FormatInfo> builtin_formats() {
  // Priority order: the most specific layouts first, so that detection prefers them when
  // a generic format also parses the same lines.
  static const std::vector<FormatInfo> k_formats = {
      formats::mediawiki_line(),   //
      formats::monolog_line(),     //
      formats::monolog_json(),     //
      formats::access_log(),       //
      formats::haproxy_log(),      //
      formats::envoy_log(),        //
      formats::uwsgi_log(),        //
      formats::w3c_log(),          //
      formats::mysql_slow(),       //
      formats::mediawiki_debug(),  //
      formats::strace_relative(),  //
      formats::generic_line(),
  };
  return k_formats;
}

}  // namespace gapscan::parse
