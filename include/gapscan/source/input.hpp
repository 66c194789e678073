#pragma once
// The run's inputs: what the user named, expanded to a list of readable inputs, each with
// a SourceId used in every LineLocation.

#include <gapscan/core/diagnostic.hpp>
#include <gapscan/core/location.hpp>
#include <gapscan/source/byte_source.hpp>

#include <memory>
#include <string>
#include <vector>

namespace gapscan::source {

struct InputSpec {
  std::string name;  ///< path as the user wrote it (or found under a folder), "-" for stdin
  bool is_stdin = false;
};

/// Expands paths: "-" (or no path) is stdin; a folder is walked recursively in sorted order;
/// anything that cannot be opened becomes a diagnostic (the rest is still read).
std::vector<InputSpec> expand_inputs(const std::vector<std::string>& paths, std::vector<Diagnostic>& diagnostics);

/// Opens one input for reading. The error names the file and the reason.
Expected<std::unique_ptr<ByteSource>> open_input(const InputSpec& spec);

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
