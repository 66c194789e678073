#include <gapscan/cli/cli.hpp>

#include <csignal>

int main(int argc, char** argv) {
  // A closed output pipe (`gapscan … | head`) shows up as EPIPE from write(), which ends the
  // output quietly, instead of a SIGPIPE that kills the process.
  std::signal(SIGPIPE, SIG_IGN);
  return gapscan::cli::run(argc, argv);
}
