// libFuzzer target for the translation of nginx log_format and Apache LogFormat / varnishncsa
// format strings into a regular expression: any string is translated or refused with a reason,
// and what is translated compiles.

#include <gapscan/core/regex.hpp>
#include <gapscan/parse/log_format.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  for (const auto& translated :
       {gapscan::parse::translate_nginx_log_format(spec), gapscan::parse::translate_apache_log_format(spec)}) {
    if (!translated) continue;
    if (!gapscan::Regex::compile(translated->regex, "fuzz")) __builtin_trap();
  }
  return 0;
}
