#include <gapscan/core/time.hpp>
#include <gapscan/source/input.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gapscan::source {

namespace {

bool matches_any(const std::vector<std::string>& patterns, const std::string& relative, const std::string& name) {
  for (const std::string& pattern : patterns) {
    if (::fnmatch(pattern.c_str(), relative.c_str(), 0) == 0 || ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<InputSpec> expand_inputs(const std::vector<std::string>& paths, std::vector<Diagnostic>& diagnostics,
                                     const InputFilter& filter) {
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
      if (!it->is_regular_file(ec)) continue;
      const std::string relative = it->path().lexically_relative(path).string();
      const std::string name = it->path().filename().string();
      if (!filter.include.empty() && !matches_any(filter.include, relative, name)) continue;
      if (matches_any(filter.exclude, relative, name)) continue;
      found.push_back(it->path().string());
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

TimeNs modification_time(const InputSpec& spec) {
  if (spec.is_stdin) return 0;
  struct stat info {};
  if (::stat(spec.name.c_str(), &info) != 0) return 0;
  return static_cast<TimeNs>(info.st_mtime) * k_ns_per_s;
}

Expected<std::unique_ptr<ByteSource>> open_input(const InputSpec& spec, Encoding* encoding,
                                                 std::atomic<std::uint64_t>* raw_bytes,
                                                 std::shared_ptr<const LineText>* text) {
  std::unique_ptr<ByteSource> raw;
  int file = -1;
  if (spec.is_stdin) {
    raw = make_fd_source(0, "<stdin>");
  } else {
    const int fd = ::open(spec.name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return unexpected(make_error(spec.name, fmt::format("cannot open: {}", std::strerror(errno))));
    }
    file = fd;
    raw = make_fd_source(fd, spec.name);
  }
  if (raw_bytes != nullptr) raw = make_counting_source(std::move(raw), *raw_bytes);
  const std::string name = spec.is_stdin ? std::string("<stdin>") : spec.name;
  Encoding found = Encoding::plain;
  std::unique_ptr<ByteSource> decoded = open_decoded(std::move(raw), name, &found);
  if (encoding != nullptr) *encoding = found;
  if (text != nullptr) {
    text->reset();
    struct stat info {};
    if (file >= 0 && found == Encoding::plain && ::fstat(file, &info) == 0 && S_ISREG(info.st_mode))
      *text = LineText::open(file);
  }
  return decoded;
}

std::uint64_t input_size(const InputSpec& spec) {
  if (spec.is_stdin) return 0;
  struct stat info {};
  if (::stat(spec.name.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return 0;
  return static_cast<std::uint64_t>(info.st_size);
}

}  // namespace gapscan::source
