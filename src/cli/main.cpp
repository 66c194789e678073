#include <gapscan/cli/cli.hpp>

int main(int argc, char** argv) { return gapscan::cli::run(argc, argv); }
