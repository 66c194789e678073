#include <gapscan/cli/progress.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace gapscan::cli {
namespace {

std::string megabytes(std::uint64_t bytes) {
  const double mb = static_cast<double>(bytes) / 1e6;
  return mb >= 1000 ? fmt::format("{:.2f} GB", mb / 1000) : fmt::format("{:.0f} MB", mb);
}

std::string clock(double seconds) {
  const auto s = static_cast<long long>(std::llround(seconds));
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

Progress::Progress(bool enabled, std::uint64_t files, std::uint64_t total_bytes)
    : m_enabled(enabled), m_files(files), m_total_bytes(total_bytes), m_start(std::chrono::steady_clock::now()) {
  if (m_enabled) m_thread = std::thread([this] { run(); });
}

Progress::~Progress() { finish(); }

bool Progress::wanted(bool quiet) { return !quiet && ::isatty(STDERR_FILENO) == 1; }

std::string Progress::line(std::uint64_t files_done, std::uint64_t files, std::uint64_t bytes,
                           std::uint64_t total_bytes, double seconds) {
  std::string text =
      fmt::format("gapscan: {} of {} file{}, {}", files_done, files, files == 1 ? "" : "s", megabytes(bytes));
  if (total_bytes > 0) text += fmt::format(" of {}", megabytes(total_bytes));
  if (seconds > 0) {
    const double rate = static_cast<double>(bytes) / seconds;
    text += fmt::format(", {}/s", megabytes(static_cast<std::uint64_t>(rate)));
    if (total_bytes > bytes && rate > 0) {
      text += fmt::format(", {} left", clock(static_cast<double>(total_bytes - bytes) / rate));
    }
  }
  return text;
}

void Progress::run() {
  std::unique_lock lock(m_mutex);
  while (!m_stop) {
    m_wake.wait_for(lock, std::chrono::milliseconds(250));
    if (m_stop) break;
    draw();
  }
}

void Progress::draw() {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  const std::string text = line(m_files_done.load(std::memory_order_relaxed), m_files,
                                m_bytes.load(std::memory_order_relaxed), m_total_bytes, seconds);
  // Carriage return, the line, then erase what a longer earlier line left.
  std::fprintf(stderr, "\r%s\x1b[K", text.c_str());
  std::fflush(stderr);
  m_drawn = true;
}

void Progress::finish() {
  if (!m_thread.joinable()) return;
  {
    std::lock_guard lock(m_mutex);
    m_stop = true;
  }
  m_wake.notify_all();
  m_thread.join();
  if (m_drawn) {
    std::fprintf(stderr, "\r\x1b[K");
    std::fflush(stderr);
  }
}

}  // namespace gapscan::cli
