#pragma once
// Stage 3, streams: groups records into streams (one per request id, or one per input when
// the records carry no id) and hands each stream to the analysis as windows.
//
// Consumes: parse::Record values with their line location and raw text. Produces:
// StreamWindow values through a callback, each holding the entries of one stream (time,
// location, a copy of the line cut to a bounded length).
// Deliberately does not: compute gaps or statistics (stats/). Memory is bounded, never a
// function of the size of the input: when the buffered entries and text exceed
// `max_buffered_bytes`, the least recently used streams hand their entries over as a window
// (almost always a request that has ended) and are parked holding only their last entry;
// beyond `max_parked` parked streams, those that have ended are forgotten (those still in
// flight are kept, up to `max_parked_in_flight`); a stream idle for `idle_timeout` of log time
// is closed; a long stream is cut into windows of at most `window_records` entries.
// Consecutive windows of one stream overlap by one entry, so no gap is lost at a cut.

#include <gapscan/stream/stream_table.hpp>
#include <gapscan/stream/window_queue.hpp>
