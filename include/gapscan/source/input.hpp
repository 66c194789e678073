#pragma once
// The run's inputs: what the user named, expanded to a list of readable inputs, each with
// a SourceId used in every LineLocation.

#include <gapscan/core/diagnostic.hpp>
#include <gapscan/core/location.hpp>
#include <gapscan/core/time.hpp>
#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/decode.hpp>
#include <gapscan/source/line_text.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gapscan::source {

struct InputSpec {
  std::string name;  ///< path as the user wrote it (or found under a folder), "-" for stdin
  bool is_stdin = false;
};

/// Which files of a folder to read: glob patterns (fnmatch) matched against the file's path
/// relative to the folder and against its name. Files named explicitly are always read.
struct InputFilter {
  std::vector<std::string> include;  ///< empty: every file
  std::vector<std::string> exclude;
};

/// Expands paths: "-" (or no path) is stdin; a folder is walked recursively in sorted order,
/// keeping the files `filter` accepts; anything that cannot be read becomes a diagnostic
/// (the rest is still read).
std::vector<InputSpec> expand_inputs(const std::vector<std::string>& paths, std::vector<Diagnostic>& diagnostics,
                                     const InputFilter& filter = {});

/// The input's last modification time, or 0 for stdin or when unknown: its year is the year
/// of yearless stamps (syslog) when no stamp of the input has one, its day the date of
/// time-only stamps before any date.
TimeNs modification_time(const InputSpec& spec);

/// Opens one input for reading, decoding gzip, zstd, bzip2 and xz (by their magic bytes).
/// The error names the file and the reason; `encoding` receives what was detected; the raw
/// bytes read (before decoding) are added to `raw_bytes` when given. `text`, when given,
/// receives a reader of the lines' text at their offsets for a plain regular file (null for
/// stdin, a pipe, an archive, or when no reader can be had: source/line_text.hpp).
Expected<std::unique_ptr<ByteSource>> open_input(const InputSpec& spec, Encoding* encoding = nullptr,
                                                 std::atomic<std::uint64_t>* raw_bytes = nullptr,
                                                 std::shared_ptr<const LineText>* text = nullptr);

/// The size in bytes of a file input (as stored: compressed for an archive); 0 for stdin or
/// when unknown.
std::uint64_t input_size(const InputSpec& spec);

/// Display names of the run's inputs, indexed by SourceId.
class SourceTable {
 public:
  SourceId add(std::string name) {
    m_names.push_back(std::move(name));
    return static_cast<SourceId>(m_names.size() - 1);
  }
  const std::string& name(SourceId id) const { return m_names.at(id); }
  std::size_t size() const { return m_names.size(); }

 private:
  std::vector<std::string> m_names;
};

}  // namespace gapscan::source
