#include <gapscan/source/input.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gapscan::source {

std::vector<InputSpec> expand_inputs(const std::vector<std::string>& paths, std::vector<Diagnostic>& diagnostics) {
  std::vector<InputSpec> inputs;
  if (paths.empty()) {
    inputs.push_back({"-", true});
    return inputs;
  }
  namespace fs = std::filesystem;
  for (const std::string& path : paths) {
    if (path == "-") {
      inputs.push_back({"-", true});
      continue;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec) {
      diagnostics.push_back(
          make_error(path, "cannot read input: " + ec.message(), "check the path; use - for standard input"));
      continue;
    }
    if (!fs::is_directory(status)) {
      inputs.push_back({path, false});
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec)) found.push_back(it->path().string());
    }
    if (ec) diagnostics.push_back(make_error(path, "cannot list folder: " + ec.message()));
    std::sort(found.begin(), found.end());
    if (found.empty()) {
      diagnostics.push_back({Severity::warning, path, "folder holds no files", {}});
    }
    for (auto& file : found) inputs.push_back({std::move(file), false});
  }
  return inputs;
}

Expected<std::unique_ptr<ByteSource>> open_input(const InputSpec& spec) {
  if (spec.is_stdin) return make_fd_source(0, "<stdin>");
  const int fd = ::open(spec.name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return unexpected(make_error(spec.name, fmt::format("cannot open: {}", std::strerror(errno))));
  }
  return make_fd_source(fd, spec.name);
}

}  // namespace gapscan::source
