#pragma once
// Runs the real gapscan binary and captures its output, for end-to-end tests.

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

namespace gapscan::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;
};

/// Runs `command` through /bin/sh with TZ and locale pinned; stderr is merged into `out`
/// when `merge_stderr` is set.
inline RunResult run_command(const std::string& command, bool merge_stderr = false) {
  RunResult result;
  const std::string full = "TZ=UTC LC_ALL=C " + command + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 65536> buffer{};
  std::size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

inline std::string gapscan_command(const std::string& args) { return std::string(GAPSCAN_BINARY) + " " + args; }

}  // namespace gapscan::testing
