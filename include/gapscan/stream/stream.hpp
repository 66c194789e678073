#pragma once
// Stage 3, streams: groups records into streams (one per request id, or one per input when
// the records carry no id) and hands each stream to the analysis as windows.
//
// Consumes: parse::Record values with their line location and raw text. Produces:
// StreamWindow values through a callback, each holding the entries of one stream (time,
// location, a copy of the line cut to a bounded length).
// Deliberately does not: compute gaps or statistics (stats/). Memory depends on the
// number of active streams and the window cap, never on the size of the input: a stream is
// closed when it has been idle for `idle_timeout` of log time, cut into windows of at most
// `window_records` entries, and the least recently used streams are flushed early when
// `max_buffered_records` is reached. Consecutive windows of one stream overlap by one
// entry, so no gap is lost at a cut.

#include <gapscan/stream/stream_table.hpp>
