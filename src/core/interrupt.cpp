#include <gapscan/core/interrupt.hpp>

#include <atomic>
#include <csignal>

namespace gapscan {
namespace {

std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the handler may only touch a lock-free atomic");

extern "C" void on_signal(int signal) {
  g_signal.store(signal, std::memory_order_relaxed);
  // The second time, the default action: a user who presses Ctrl-C twice means it.
  std::signal(signal, SIG_DFL);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read() returns EINTR
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interrupt_signal() { return g_signal.load(std::memory_order_relaxed); }

}  // namespace gapscan
