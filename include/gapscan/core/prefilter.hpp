#pragma once
// Many patterns over a large text in one pass: which lines may match which patterns.
//
// RE2's FilteredRE2 reduces each pattern to its atoms, the literal strings of three bytes or
// more that any match must contain (and how they combine). The atoms are found together in one
// pass over the text: each atom is filed under one of its byte pairs (the rarest in English
// text, case folded), a 64 Ki-bit table says which pairs are filed at all, and only where the
// table says so are the atoms of that pair compared. A pattern without atoms (`\d+ms`) is
// searched for as part of one alternation of all such patterns. The result is a superset of the
// places where a pattern matches; the caller confirms each candidate line with the pattern
// itself, so that RE2 runs only on the lines that matter.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan {

class Prefilter {
 public:
  /// `patterns`: RE2 syntax; a pattern that does not compile is never a candidate.
  explicit Prefilter(const std::vector<std::string>& patterns);
  ~Prefilter();
  Prefilter(Prefilter&&) noexcept;
  Prefilter& operator=(Prefilter&&) noexcept;

  /// A place where a pattern may match, and what was found there: an atom (index into the
  /// atoms), or k_unfiltered for the start of a match of the patterns without atoms.
  struct Candidate {
    std::size_t offset;
    int atom;
  };
  static constexpr int k_unfiltered = -1;
  /// Appends to `found` the places in text[from, end) at which a pattern may match (the start
  /// of an atom, or of a match of a pattern without atoms), in no particular order.
  void candidates(std::string_view text, std::size_t from, std::vector<Candidate>& found) const;

  /// The indices (into the constructor's `patterns`) of the patterns that may match `line`,
  /// ascending.
  void potentials(std::string_view line, std::vector<int>& patterns) const;
  /// The same for a text holding `atoms` (indices, as Candidate::atom; sorted and made unique
  /// here): the patterns whose atoms they satisfy, and those without atoms. The answer for
  /// each set of atoms is remembered (up to 4 096 sets, shared by all threads): the lines of a
  /// log hold few different sets.
  void potentials_of(std::vector<int>& atoms, std::vector<int>& patterns) const;

  /// Re-files each atom under the byte pair that `sample` (text of the log being read) holds
  /// least of. Until then pairs are ranked by how common their bytes are in logs in general;
  /// which pair an atom is filed under changes the speed of a scan, never its result.
  void adapt(std::string_view sample);

  std::size_t atoms() const { return m_atoms.size(); }
  std::size_t unfiltered() const { return m_unfiltered.size(); }

 private:
  struct Filed {
    std::uint32_t atom;    // index into m_atoms
    std::uint32_t offset;  // of the pair within the atom
  };
  /// Calls found(atom, start) for every atom occurrence in text[from, end).
  template <typename Rarity>
  void file_atoms(Rarity&& rarity);
  template <typename Found>
  void scan(std::string_view text, std::size_t from, Found&& found) const;

  struct Impl;
  std::unique_ptr<Impl> m_impl;               // the FilteredRE2 levels and the unfiltered alternation
  std::vector<std::string> m_atoms;           // lower case
  std::vector<std::vector<Filed>> m_buckets;  // by pair index (see m_pair_bucket)
  std::vector<std::uint32_t> m_pair_bucket;   // 65 536 entries: 1 + bucket, or 0
  std::vector<std::uint64_t> m_pairs;  // 65 536 bits: raw byte pairs (any case, first byte low) that have a bucket
  std::vector<int> m_unfiltered;       // patterns without atoms
};

}  // namespace gapscan
