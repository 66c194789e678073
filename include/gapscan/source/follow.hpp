#pragma once
// Following an input as it grows (gapscan --follow, like tail -F): a growing file is read to its
// end, then watched; a pipe or terminal is read as it arrives. While no byte comes, and at least
// every `tick` while bytes keep coming, the source calls `on_tick` (the scan takes a snapshot of
// its analysis there). A file that is truncated is read again from its start; one that is
// replaced (rotated: the path names another file) is reopened. Reading ends at the end of a
// pipe or of standard input (also a file redirected to it), or when the process is asked to stop
// (SIGINT, SIGTERM).

#include <gapscan/core/expected.hpp>
#include <gapscan/source/byte_source.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace gapscan::source {

struct FollowOptions {
  std::chrono::milliseconds poll{200};   ///< how often a file at its end is looked at again
  std::chrono::milliseconds tick{1000};  ///< on_tick at least this often while bytes keep coming
  std::function<void()> on_tick;
};

/// Follows `path` ("-": standard input). Fails when the file cannot be opened.
Expected<std::unique_ptr<ByteSource>> open_follow(const std::string& path, FollowOptions options);

}  // namespace gapscan::source
