// Speed of the trigger-line prefilter alone: the catalog's trigger and marker patterns (as a
// scan builds them, core/prefilter.hpp) searched for over a log's text, cut into windows of
// about 1 MiB at line ends as a scan hands them over. Prints MB/s and the candidate offsets
// found, so that two builds can be compared on the same file (docs/performance.md).
//
//   prefilter_speed FILE [--mb N] [--runs R]

#include <gapscan/catalog/loader.hpp>
#include <gapscan/cli/cli.hpp>
#include <gapscan/core/prefilter.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: prefilter_speed FILE [--mb N] [--runs R]\n");
    return 2;
  }
  std::size_t megabytes = 256;
  int runs = 3;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--mb") == 0) megabytes = std::strtoul(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::max(1, std::atoi(argv[i + 1]));
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::perror(argv[1]);
    return 1;
  }
  std::string text(megabytes << 20, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));

  std::vector<gapscan::Diagnostic> diagnostics;
  auto catalog = gapscan::catalog::load_builtin(diagnostics);
  if (!catalog) {
    std::fprintf(stderr, "catalog: %s\n", catalog.error().message.c_str());
    return 1;
  }
  auto options = gapscan::cli::analyzer_options_for(*catalog, gapscan::cli::ScanConfig{});
  if (!options) return 1;
  std::vector<std::string> patterns;
  for (const auto& trigger : options->triggers) patterns.push_back(trigger.pattern);
  gapscan::Prefilter prefilter(patterns);
  prefilter.adapt(std::string_view(text).substr(0, 64 << 10));

  // Windows of about 1 MiB, cut after a newline.
  std::vector<std::string_view> windows;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = std::min(text.size(), at + (1u << 20));
    const std::size_t newline = text.find('\n', end);
    end = newline == std::string::npos ? text.size() : newline + 1;
    windows.push_back(std::string_view(text).substr(at, end - at));
    at = end;
  }
  double best = 1e99;
  std::size_t found = 0;
  std::vector<gapscan::Prefilter::Candidate> hits;
  for (int run = 0; run < runs; ++run) {
    found = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::string_view window : windows) {
      hits.clear();
      prefilter.candidates(window, 0, hits);
      found += hits.size();
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("%zu patterns\t%zu atoms\t%zu MB\t%.3f s\t%.0f MB/s\t%zu candidates\n", patterns.size(),
              prefilter.atoms(), text.size() >> 20, best, static_cast<double>(text.size()) / 1e6 / best, found);
  return 0;
}
