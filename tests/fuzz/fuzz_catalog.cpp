// libFuzzer target for the catalog loader: one cause file (TOML), as a user's --patterns folder
// may hold. A hostile or broken file gets diagnostics, never a crash, a hang or unbounded memory.

#include <gapscan/catalog/loader.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<gapscan::Diagnostic> diagnostics;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto cause = gapscan::catalog::parse_cause(text, "fuzz.toml", diagnostics);
  // A file that does not load says why.
  if (!cause && diagnostics.empty()) __builtin_trap();
  return 0;
}
