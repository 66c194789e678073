// Runs every [[example]] of every built-in catalog file through the whole pipeline:
// a "match" example must rank its cause first with confidence >= 0.6; a "no-match" example
// must not report its cause with confidence >= 0.6.

#include <gapscan/catalog/loader.hpp>
#include <gapscan/catalog/matcher.hpp>
#include <gapscan/cli/cli.hpp>

#include <catch2/catch.hpp>

using namespace gapscan;

TEST_CASE("Every catalog example behaves as it says", "[catalog][examples]") {
  std::vector<Diagnostic> diagnostics;
  auto loaded = catalog::load_builtin(diagnostics);
  REQUIRE(loaded);
  const auto catalog = std::make_shared<const catalog::Catalog>(std::move(*loaded));
  std::size_t examples = 0;
  for (const catalog::Cause& cause : catalog->causes) {
    for (const catalog::Example& example : cause.examples) {
      ++examples;
      INFO(example.where << ": " << example.description);
      cli::ScanConfig config;
      config.catalog = catalog;
      config.texts.push_back({example.where, example.log});
      int exit_code = 0;
      const auto report = cli::run_scan(config, exit_code);
      REQUIRE(report);
      CHECK(report->lines.unparsed == 0);
      if (example.expect_match) {
        REQUIRE_FALSE(report->findings.empty());
        CHECK(report->findings.front().cause == cause.id);
        CHECK(report->findings.front().confidence >= catalog::k_likely_confidence);
      } else {
        for (const report::Finding& finding : report->findings) {
          INFO("reported " << finding.cause << " at " << finding.interval_ms << " ms, confidence "
                           << finding.confidence);
          CHECK_FALSE((finding.cause == cause.id && finding.confidence >= catalog::k_likely_confidence));
        }
      }
    }
  }
  CHECK(examples >= 12);
}
