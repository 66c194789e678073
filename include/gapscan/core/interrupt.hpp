#pragma once
// Ctrl-C and kill: SIGINT and SIGTERM stop the reading, not the program. The handler only
// records the signal; reading stops at the next line (or when a blocked read returns), what
// was read is analysed and reported, and the command exits with 128 + the signal's number.

namespace gapscan {

/// Installs the handlers for SIGINT and SIGTERM (without SA_RESTART, so that a read blocked on
/// a pipe returns). A second signal of the same kind ends the program at once, as usual.
void install_interrupt_handlers();

/// The signal that asked the program to stop, or 0.
int interrupt_signal();

/// True once a stop was asked for.
inline bool interrupted() { return interrupt_signal() != 0; }

}  // namespace gapscan
