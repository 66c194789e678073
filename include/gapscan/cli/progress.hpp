#pragma once
// The progress line of a batch scan on stderr, when stderr is a terminal: files done, bytes
// read (as stored: compressed bytes for an archive), rate and time left, rewritten in place
// every quarter second by a thread of its own and erased when the reading ends. Nothing is
// written when stderr is not a terminal or --quiet is given.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace gapscan::cli {

class Progress {
 public:
  /// `files`: inputs to read; `total_bytes`: their sizes (0 when unknown, e.g. stdin).
  Progress(bool enabled, std::uint64_t files, std::uint64_t total_bytes);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// The counter an input's raw bytes are added to while it is read.
  std::atomic<std::uint64_t>& bytes() { return m_bytes; }
  void file_done() { m_files_done.fetch_add(1, std::memory_order_relaxed); }
  /// Stops the thread and erases the line (also done by the destructor).
  void finish();

  /// The line as printed (without the carriage return and erase), for a given state; public
  /// for tests.
  static std::string line(std::uint64_t files_done, std::uint64_t files, std::uint64_t bytes, std::uint64_t total_bytes,
                          double seconds);

  /// Whether a progress line belongs on this process's stderr: a terminal, no --quiet.
  static bool wanted(bool quiet);

 private:
  void run();
  void draw();

  bool m_enabled;
  std::uint64_t m_files;
  std::uint64_t m_total_bytes;
  std::atomic<std::uint64_t> m_bytes{0};
  std::atomic<std::uint64_t> m_files_done{0};
  std::chrono::steady_clock::time_point m_start;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stop = false;
  bool m_drawn = false;
  std::thread m_thread;
};

}  // namespace gapscan::cli
