#pragma once
// Loads and validates catalog files. Every problem is reported with the file and line.

#include <gapscan/catalog/cause.hpp>
#include <gapscan/core/diagnostic.hpp>
#include <gapscan/core/expected.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::catalog {

/// Limits on what a catalog may hold (docs/catalog.md): a catalog folder is read whole and each
/// pattern runs on every line, so a runaway or hostile folder is refused with a clear error
/// rather than slowing every scan. Each pattern is also bounded by Regex's own limits.
inline constexpr std::size_t k_max_cause_files = 1000;           ///< *.toml files in a folder
inline constexpr std::size_t k_max_cause_file_bytes = 4u << 20;  ///< bytes of one file
inline constexpr std::size_t k_max_delays = 128;                 ///< [[delay]] tables of one cause
inline constexpr std::size_t k_max_evidence = 64;                ///< [[evidence]] tables of one cause
inline constexpr std::size_t k_max_triggers = 16;                ///< [[trigger]] tables of one cause
inline constexpr std::size_t k_max_examples = 32;                ///< [[example]] tables of one cause
inline constexpr std::size_t k_max_patterns = 2048;              ///< evidence and trigger patterns in all
/// Trigger and file-scope patterns with no literal atom (searched for on every line read).
inline constexpr std::size_t k_max_patterns_without_atoms = 8;

/// Whether a cause's [[example]] tables are read (`gapscan patterns test` runs them; a scan
/// has no use for them).
enum class Examples { read, skip };

/// Parses one catalog file. `name` is the path used in diagnostics; its stem must equal the
/// file's `id`. Problems are appended to `diagnostics`; returns nullopt if any is an error.
/// With Examples::skip the examples are neither read nor required.
std::optional<Cause> parse_cause(std::string_view text, const std::string& name, std::vector<Diagnostic>& diagnostics,
                                 Examples examples = Examples::read);

/// Loads every *.toml file of `directory` (sorted by name). Fails if any file has an error,
/// with all diagnostics in `diagnostics`.
Expected<Catalog> load_directory(const std::string& directory, std::vector<Diagnostic>& diagnostics);

/// "did you mean 'x'?" for the entry of `known` closest to `word` (edit distance 2 or less), or "".
std::string suggestion(std::string_view word, std::span<const std::string_view> known);

/// The catalog embedded in the binary at build time from patterns/*.toml. With Examples::skip
/// each file is parsed only up to its first [[example]] table: the example logs are nine tenths
/// of the catalog's 3.3 MB, and its files keep them last (tests/catalog/loader_test.cpp checks
/// that both ways give the same causes).
Expected<Catalog> load_builtin(std::vector<Diagnostic>& diagnostics, Examples examples = Examples::read);

}  // namespace gapscan::catalog
