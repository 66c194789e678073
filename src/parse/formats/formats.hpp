#pragma once
// One function per built-in format; format_registry.cpp lists them in priority order.

#include <gapscan/parse/format.hpp>

namespace gapscan::parse::formats {

FormatInfo mediawiki_line();
FormatInfo monolog_line();
FormatInfo monolog_json();
FormatInfo access_log();
FormatInfo mediawiki_debug();
FormatInfo strace_relative();
FormatInfo mysql_slow();
FormatInfo haproxy_log();
FormatInfo envoy_log();
FormatInfo uwsgi_log();
FormatInfo w3c_log();
FormatInfo generic_line();

}  // namespace gapscan::parse::formats
