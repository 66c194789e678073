// libFuzzer target for the whole pipeline on one input: reading, grouping into streams, gap
// statistics, every detector, the catalog match and the report model, with the built-in
// catalog. Slow per input; it finds what only a whole run reaches (a detector fed odd gaps).

#include <gapscan/catalog/loader.hpp>
#include <gapscan/cli/cli.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto catalog = [] {
    std::vector<gapscan::Diagnostic> diagnostics;
    auto loaded = gapscan::catalog::load_builtin(diagnostics);
    if (!loaded) __builtin_trap();
    return std::make_shared<const gapscan::catalog::Catalog>(std::move(*loaded));
  }();
  gapscan::cli::ScanConfig config;
  config.catalog = catalog;
  config.texts.push_back({"fuzz.log", std::string(reinterpret_cast<const char*>(data), size)});
  config.jobs = 1;
  config.year = 2026;
  int exit_code = 0;
  const auto report = gapscan::cli::run_scan(config, exit_code);
  if (!report) __builtin_trap();  // the built-in catalog always loads; any text can be read
  return 0;
}
