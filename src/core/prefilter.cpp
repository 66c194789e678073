#include <gapscan/core/prefilter.hpp>

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace gapscan {
namespace {

/// ASCII lower case of a byte, by table.
struct Fold {
  std::array<unsigned char, 256> map{};
  Fold() {
    for (int c = 0; c < 256; ++c)
      map[static_cast<std::size_t>(c)] = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
};
const Fold k_fold;

/// How common a byte is in log text, 0 the commonest: the digits, space and punctuation of
/// stamps and numbers, then letters by their frequency in English; anything else is rare.
std::size_t commonness_rank(unsigned char c) {
  constexpr std::string_view k_common = "0 12:.-53467/89etaoinshrdlcumwfgypbvkjxqz=_,[]";
  const std::size_t rank = k_common.find(static_cast<char>(c));
  return rank == std::string_view::npos ? k_common.size() : rank;
}

RE2::Options options() {
  RE2::Options o;
  o.set_log_errors(false);
  o.set_encoding(RE2::Options::EncodingLatin1);
  return o;
}

/// The top-level alternatives of a pattern (`a|b(c|d)|e` -> a, b(c|d), e), each with the flags
/// a leading `(?flags)` sets for the whole pattern. A pattern whose atoms the prefilter cannot
/// tell as a whole (one alternative without atoms makes it "match anything") can then still
/// be filtered by the atoms of its other alternatives.
std::vector<std::string> alternatives(std::string_view pattern) {
  std::string flags;
  if (pattern.starts_with("(?") && pattern.size() > 3) {
    const std::size_t close = pattern.find(')');
    const std::string_view inside = pattern.substr(2, close == std::string_view::npos ? 0 : close - 2);
    if (close != std::string_view::npos && !inside.empty() &&
        inside.find_first_not_of("imsU") == std::string_view::npos) {
      flags = std::string(pattern.substr(0, close + 1));
      pattern.remove_prefix(close + 1);
    }
  }
  std::vector<std::string> out;
  int depth = 0;
  bool in_class = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == '|' && depth == 0) {
      out.push_back(flags + std::string(pattern.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(flags + std::string(pattern.substr(start)));
  return out;
}

/// One FilteredRE2 and what its regexp ids stand for.
struct Level {
  explicit Level(int min_atom_len) : filter(min_atom_len) {}
  re2::FilteredRE2 filter;
  std::vector<int> pattern;              // regexp id -> pattern index
  std::vector<std::string> alternative;  // regexp id -> the alternative added

  void add(const std::string& text, int index) {
    int id = 0;
    if (filter.Add(text, options(), &id) != RE2::NoError) return;
    if (pattern.size() <= static_cast<std::size_t>(id)) {
      pattern.resize(static_cast<std::size_t>(id) + 1, -1);
      alternative.resize(static_cast<std::size_t>(id) + 1);
    }
    pattern[static_cast<std::size_t>(id)] = index;
    alternative[static_cast<std::size_t>(id)] = text;
  }
  /// Compiles; appends its atoms; returns the regexp ids that have none.
  std::vector<int> compile(std::vector<std::string>& all_atoms) {
    if (pattern.empty()) return {};
    std::vector<std::string> atoms_found;
    filter.Compile(&atoms_found);
    for (std::string& atom : atoms_found) all_atoms.push_back(std::move(atom));
    std::vector<int> without;
    filter.AllPotentials({}, &without);
    return without;
  }
};

}  // namespace

// Atoms of three bytes or more for every alternative. An alternative whose atoms would be
// shorter (`HZ\\s*=\\s*\\d+` has only "hz") or too many (a long alternation crossed with another)
// has none: it is searched for as part of one RE2 alternation over the whole text, a pass of its
// own, so the built-in catalog has no such pattern (tests/core/prefilter_test.cpp checks it).
struct Prefilter::Impl {
  Level level{3};
  std::unique_ptr<RE2> unfiltered;  // the alternation of the alternatives without atoms
  // potentials() by the set of atoms a line holds (its bytes as the key): lines of one log hold
  // few different sets, and FilteredRE2 works the answer out anew for each line (AllPotentials
  // was 44 % of potentials()). Shared by the threads that use the prefilter; bounded.
  static constexpr std::size_t k_max_cached = 4096;
  std::mutex cache_lock;
  std::unordered_map<std::string, std::vector<int>> cache;
};

Prefilter::Prefilter(const std::vector<std::string>& patterns)
    : m_impl(std::make_unique<Impl>()), m_pair_bucket(65536, 0), m_pairs(1024, 0) {
  Level& level = m_impl->level;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (!RE2(patterns[i], options()).ok()) continue;
    for (const std::string& alternative : alternatives(patterns[i])) level.add(alternative, static_cast<int>(i));
  }
  std::string any;
  for (int id : level.compile(m_atoms)) {
    m_unfiltered.push_back(level.pattern[static_cast<std::size_t>(id)]);
    if (!any.empty()) any += '|';
    any += "(?:" + level.alternative[static_cast<std::size_t>(id)] + ")";
  }
  std::sort(m_unfiltered.begin(), m_unfiltered.end());
  m_unfiltered.erase(std::unique(m_unfiltered.begin(), m_unfiltered.end()), m_unfiltered.end());
  if (!any.empty()) {
    m_impl->unfiltered = std::make_unique<RE2>(any, options());
    if (!m_impl->unfiltered->ok()) m_impl->unfiltered.reset();
  }
  for (std::string& atom : m_atoms) {
    for (char& c : atom) c = static_cast<char>(k_fold.map[static_cast<unsigned char>(c)]);
  }
  file_atoms([](std::size_t first, std::size_t second) {
    return commonness_rank(static_cast<unsigned char>(first)) + commonness_rank(static_cast<unsigned char>(second));
  });
}

void Prefilter::adapt(std::string_view sample) {
  // The rarest pair is the one this log has least of: counted in the sample, case folded.
  std::vector<std::uint32_t> counts(65536, 0);
  const auto* data = reinterpret_cast<const unsigned char*>(sample.data());
  for (std::size_t i = 1; i < sample.size(); ++i)
    ++counts[std::size_t{k_fold.map[data[i - 1]]} << 8 | k_fold.map[data[i]]];
  file_atoms([&](std::size_t first, std::size_t second) {
    // Higher is rarer: the fewer times the pair occurs, the better.
    return std::size_t{UINT32_MAX} - counts[first << 8 | second];
  });
}

template <typename Rarity>
void Prefilter::file_atoms(Rarity&& rarity) {
  m_buckets.clear();
  std::fill(m_pair_bucket.begin(), m_pair_bucket.end(), 0);
  std::fill(m_pairs.begin(), m_pairs.end(), 0);
  for (std::size_t a = 0; a < m_atoms.size(); ++a) {
    const std::string& atom = m_atoms[a];
    if (atom.size() < 2) continue;  // FilteredRE2 gives none shorter than its minimum (3)
    std::size_t best = 0, best_score = 0;
    for (std::size_t k = 0; k + 1 < atom.size(); ++k) {
      const std::size_t score = rarity(static_cast<unsigned char>(atom[k]), static_cast<unsigned char>(atom[k + 1]));
      if (k == 0 || score > best_score) {
        best = k;
        best_score = score;
      }
    }
    const std::size_t pair = static_cast<std::size_t>(static_cast<unsigned char>(atom[best])) << 8 |
                             static_cast<unsigned char>(atom[best + 1]);
    if (m_pair_bucket[pair] == 0) {
      m_buckets.emplace_back();
      m_pair_bucket[pair] = static_cast<std::uint32_t>(m_buckets.size());
      // Marked in every case of its two bytes, so that the scan needs no folding, and indexed
      // first byte low (as the scan reads pairs, see scan()).
      const auto set = [&](std::size_t raw) { m_pairs[raw >> 6] |= std::uint64_t{1} << (raw & 63); };
      const auto cases = [](std::size_t c) -> std::array<std::size_t, 2> {
        return {c, c >= 'a' && c <= 'z' ? c - 32 : c};
      };
      for (std::size_t hi : cases(pair >> 8))
        for (std::size_t lo : cases(pair & 0xff)) set(lo << 8 | hi);
    }
    m_buckets[m_pair_bucket[pair] - 1].push_back({static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(best)});
  }
}

Prefilter::~Prefilter() = default;
Prefilter::Prefilter(Prefilter&&) noexcept = default;
Prefilter& Prefilter::operator=(Prefilter&&) noexcept = default;

template <typename Found>
void Prefilter::scan(std::string_view text, std::size_t from, Found&& found) const {
  if (m_buckets.empty() || text.size() < 2 || from + 1 >= text.size()) return;
  const auto* data = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  const std::uint64_t* pairs = m_pairs.data();
  // m_pairs is indexed by a pair read as a little-endian 16-bit number (first byte low).
  const auto filed = [pairs](std::uint64_t raw) -> std::uint64_t { return pairs[raw >> 6] >> (raw & 63) & 1; };
  const auto compare = [&](std::size_t at) {
    const std::size_t pair = std::size_t{k_fold.map[data[at]]} << 8 | k_fold.map[data[at + 1]];
    for (const Filed& filed_atom : m_buckets[m_pair_bucket[pair] - 1]) {
      const std::string& atom = m_atoms[filed_atom.atom];
      if (at < from + filed_atom.offset || at - filed_atom.offset + atom.size() > n) continue;
      const std::size_t start = at - filed_atom.offset;
      std::size_t k = 0;
      while (k < atom.size() && k_fold.map[data[start + k]] == static_cast<unsigned char>(atom[k])) ++k;
      if (k == atom.size()) found(filed_atom.atom, start);
    }
  };
  // Four positions per step from one 8-byte load: their tests do not depend on one another
  // (a byte-at-a-time loop carrying the previous byte ran at 3.5 cycles a byte); about 2 % of
  // the positions of a log have a filed pair.
  std::size_t at = from;
  for (; at + sizeof(std::uint64_t) <= n; at += 4) {
    std::uint64_t word = 0;
    std::memcpy(&word, data + at, sizeof word);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    const std::uint64_t a = filed(word & 0xffff), b = filed(word >> 8 & 0xffff), c = filed(word >> 16 & 0xffff),
                        d = filed(word >> 24 & 0xffff);
    if ((a | b | c | d) == 0) continue;
    if (a != 0) compare(at);
    if (b != 0) compare(at + 1);
    if (c != 0) compare(at + 2);
    if (d != 0) compare(at + 3);
  }
  for (; at + 1 < n; ++at) {
    if (filed(std::uint64_t{data[at + 1]} << 8 | data[at]) != 0) compare(at);
  }
}

void Prefilter::candidates(std::string_view text, std::size_t from, std::vector<Candidate>& found) const {
  scan(text, from, [&](std::uint32_t atom, std::size_t start) { found.push_back({start, static_cast<int>(atom)}); });
  if (!m_impl->unfiltered || from > text.size()) return;
  re2::StringPiece whole(text.data(), text.size()), match;
  std::size_t at = from;
  while (at <= text.size() && m_impl->unfiltered->Match(whole, at, text.size(), RE2::UNANCHORED, &match, 1)) {
    const auto begin = static_cast<std::size_t>(match.data() - text.data());
    found.push_back({begin, k_unfiltered});
    at = std::max(begin + match.size(), begin + 1);
  }
}

void Prefilter::potentials(std::string_view line, std::vector<int>& patterns) const {
  thread_local std::vector<int> atoms;
  atoms.clear();
  scan(line, 0, [&](std::uint32_t atom, std::size_t) { atoms.push_back(static_cast<int>(atom)); });
  potentials_of(atoms, patterns);
}

void Prefilter::potentials_of(std::vector<int>& atoms, std::vector<int>& patterns) const {
  patterns.clear();
  std::sort(atoms.begin(), atoms.end());
  atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
  atoms.erase(atoms.begin(), std::upper_bound(atoms.begin(), atoms.end(), k_unfiltered));
  const Level& level = m_impl->level;
  if (level.pattern.empty()) return;
  thread_local std::string key;
  key.assign(reinterpret_cast<const char*>(atoms.data()), atoms.size() * sizeof(int));
  {
    std::lock_guard lock(m_impl->cache_lock);
    const auto found = m_impl->cache.find(key);
    if (found != m_impl->cache.end()) {
      patterns = found->second;
      return;
    }
  }
  std::vector<int> ids;
  level.filter.AllPotentials(atoms, &ids);
  for (int id : ids) patterns.push_back(level.pattern[static_cast<std::size_t>(id)]);
  std::sort(patterns.begin(), patterns.end());
  patterns.erase(std::unique(patterns.begin(), patterns.end()), patterns.end());
  std::lock_guard lock(m_impl->cache_lock);
  if (m_impl->cache.size() < Impl::k_max_cached) m_impl->cache.emplace(key, patterns);
}

}  // namespace gapscan
