#include "../test_random.hpp"

#include <gapscan/catalog/loader.hpp>
#include <gapscan/core/prefilter.hpp>
#include <gapscan/core/regex.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

using namespace gapscan;
using gapscan::testing::Random;

namespace {

/// The lines of `text` (offsets of their starts) that hold a candidate.
std::vector<std::size_t> candidate_lines(const Prefilter& filter, const std::string& text) {
  std::vector<Prefilter::Candidate> found;
  std::vector<std::size_t> lines;
  filter.candidates(text, 0, found);
  for (const Prefilter::Candidate& candidate : found) {
    const std::size_t offset = candidate.offset;
    const std::size_t start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
    lines.push_back(start == std::string::npos || offset == 0 ? 0 : start + 1);
  }
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("The prefilter finds every line a pattern matches, and names the patterns to try", "[core][prefilter]") {
  const std::vector<std::string> patterns = {
      "Background saving started by pid",       // a literal
      R"((?i)\bCONFIG_HZ\b|\bjiffies\b)",       // case folded, alternatives
      R"(\bGC\(\d+\) Pause (?:Young|Full)\b)",  // atoms around a number
      R"(\d+ms)",                               // no atom: searched as an alternation
      R"(\[(?:Full GC|GC|GC pause) \()",        // alternatives inside a group
      R"(broken(()",                            // does not compile: never a candidate
  };
  const Prefilter filter(patterns);
  CHECK(filter.unfiltered() == 1);  // \d+ms
  const std::vector<std::string> lines = {
      "12:00:01.123 * Background saving started by pid 4242",
      "kernel: jiffies went backwards",
      "[0.101s][info][gc] GC(3) Pause Young (Normal) 24M->3M(256M) 3.1ms",
      "took 250ms",
      "nothing to see here",
      "[GC pause (G1 Evacuation Pause) (young), 0.0042 secs]",
      "BACKGROUND SAVING STARTED BY PID 7",  // the literal is case sensitive: the filter folds, RE2 decides
      "a config_hz=250 line",
  };
  std::string text;
  std::vector<std::size_t> starts;
  for (const std::string& line : lines) {
    starts.push_back(text.size());
    text += line + "\n";
  }
  const std::vector<std::size_t> found = candidate_lines(filter, text);
  std::vector<Regex> regexes;
  for (std::size_t p = 0; p + 1 < patterns.size(); ++p) regexes.push_back(*Regex::compile(patterns[p], "test"));
  for (std::size_t l = 0; l < lines.size(); ++l) {
    INFO(lines[l]);
    std::vector<int> potentials;
    filter.potentials(lines[l], potentials);
    for (std::size_t p = 0; p < regexes.size(); ++p) {
      if (!regexes[p].search(lines[l])) continue;
      // Every match is on a candidate line, and its pattern is among the potentials.
      CHECK(std::binary_search(found.begin(), found.end(), starts[l]));
      CHECK(std::find(potentials.begin(), potentials.end(), static_cast<int>(p)) != potentials.end());
    }
    CHECK(std::find(potentials.begin(), potentials.end(), 5) == potentials.end());
    // The atoms a scan finds on the line name the same patterns, twice over (the second time
    // from the cache), whatever else the scan reports.
    std::vector<Prefilter::Candidate> hits;
    filter.candidates(lines[l], 0, hits);
    for (int round = 0; round < 2; ++round) {
      std::vector<int> atoms = {Prefilter::k_unfiltered};
      for (const Prefilter::Candidate& hit : hits) atoms.push_back(hit.atom);
      std::vector<int> of_atoms;
      filter.potentials_of(atoms, of_atoms);
      CHECK(of_atoms == potentials);
    }
  }
  CHECK_FALSE(std::binary_search(found.begin(), found.end(), starts[4]));  // "nothing to see here"
  std::vector<int> potentials;
  filter.potentials("nothing to see here", potentials);
  CHECK(potentials == std::vector<int>{3});  // only the pattern without atoms is always a potential
}

TEST_CASE("The prefilter's result does not depend on how it adapted to the log", "[core][prefilter]") {
  const std::vector<std::string> patterns = {"Background saving started by pid", R"((?i)\bbusy_?timeout\b)",
                                             R"(checkpoint complete: wrote \d+ buffers)", "timer_slack_ns"};
  Prefilter fixed(patterns), adapted(patterns);
  Random random(5);
  std::string text;
  const char* words[] = {"debug",          "busy",         "timeout", "checkpoint", "complete:", "wrote",
                         "buffers",        "Background",   "saving",  "started",    "by",        "pid",
                         "timer_slack_ns", "busy_timeout", "x",       "17"};
  for (int i = 0; i < 20000; ++i) {
    text += words[static_cast<std::size_t>(random.uniform() * 16) % 16];
    text += random.uniform() < 0.1 ? '\n' : ' ';
  }
  text += "checkpoint complete: wrote 12 buffers\nBackground saving started by pid 3\n";
  adapted.adapt(text.substr(0, 4096));
  std::vector<Prefilter::Candidate> found_fixed, found_adapted;
  fixed.candidates(text, 0, found_fixed);
  adapted.candidates(text, 0, found_adapted);
  std::vector<std::size_t> a, b;
  for (const Prefilter::Candidate& c : found_fixed) a.push_back(c.offset);
  for (const Prefilter::Candidate& c : found_adapted) b.push_back(c.offset);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  CHECK(a == b);
  CHECK_FALSE(a.empty());
}

TEST_CASE("The prefilter finds every occurrence of its atoms, at any start and up to the text's last byte",
          "[core][prefilter]") {
  // Literal patterns are their own atoms: a candidate is exactly where one occurs (any case).
  const std::vector<std::string> literals = {"abc", "bca", "Caab", "cccc", "ab_c"};
  const Prefilter filter(literals);
  Random random(11);
  const std::string alphabet = "abcABC_ \n";
  for (int round = 0; round < 400; ++round) {
    std::string text;
    const auto length = static_cast<std::size_t>(random.uniform() * 40);
    for (std::size_t i = 0; i < length; ++i)
      text +=
          alphabet[static_cast<std::size_t>(random.uniform() * static_cast<double>(alphabet.size())) % alphabet.size()];
    const auto from = static_cast<std::size_t>(random.uniform() * static_cast<double>(length + 1));
    std::vector<std::size_t> expected;
    for (std::size_t at = from; at < text.size(); ++at) {
      for (const std::string& literal : literals) {
        if (at + literal.size() > text.size()) continue;
        bool same = true;
        for (std::size_t k = 0; k < literal.size(); ++k)
          same &= std::tolower(static_cast<unsigned char>(text[at + k])) ==
                  std::tolower(static_cast<unsigned char>(literal[k]));
        if (same) expected.push_back(at);
      }
    }
    std::vector<Prefilter::Candidate> hits;
    filter.candidates(text, from, hits);
    std::vector<std::size_t> found;
    for (const Prefilter::Candidate& hit : hits) found.push_back(hit.offset);
    std::sort(found.begin(), found.end());
    INFO(text << " from " << from);
    CHECK(found == expected);
    // Each atom names the literal that is there.
    for (const Prefilter::Candidate& hit : hits) {
      std::vector<int> atoms = {hit.atom}, patterns;
      filter.potentials_of(atoms, patterns);
      REQUIRE(patterns.size() == 1);
      const std::string& literal = literals[static_cast<std::size_t>(patterns[0])];
      REQUIRE(hit.offset + literal.size() <= text.size());
      for (std::size_t k = 0; k < literal.size(); ++k)
        CHECK(std::tolower(static_cast<unsigned char>(text[hit.offset + k])) ==
              std::tolower(static_cast<unsigned char>(literal[k])));
    }
  }
}

TEST_CASE("Every trigger, file and request pattern of the built-in catalog has atoms", "[core][prefilter][catalog]") {
  // A pattern without atoms costs an RE2 pass over every line read (request evidence too: the
  // lines that may be evidence are screened where they are parsed, detect::LineMarker): the
  // built-in catalog has none (write `\[(?:Full GC|GC) \(` rather than `\[(?:Full )?GC \(`, which
  // leaves only "gc"; split `(?i:(?:a|b)x{22,})` into `(?i)ax{22,}|bx{22,}`).
  std::vector<Diagnostic> diagnostics;
  const auto catalog = catalog::load_builtin(diagnostics);
  REQUIRE(catalog);
  std::vector<std::string> patterns;
  for (const auto& cause : catalog->causes) {
    for (const auto& trigger : cause.triggers) patterns.push_back(trigger.pattern);
    for (const auto& evidence : cause.evidence) {
      const bool screened = evidence.scope == catalog::EvidenceScope::request && !evidence.field;
      if (evidence.scope == catalog::EvidenceScope::file || screened) patterns.push_back(evidence.pattern);
    }
  }
  REQUIRE(patterns.size() > 50);
  for (const std::string& pattern : patterns) {
    INFO(pattern);
    CHECK(Prefilter({pattern}).unfiltered() == 0);
  }
}
