#pragma once
// The evidence an analysis has gathered before it is finished, saved to merge later (gapscan
// scan --partial, gapscan merge): an Analyzer's and a DurationAnalyzer's state as CBOR bytes.
//
// Merging loaded states (Analyzer::merge, DurationAnalyzer::merge) in the order of their inputs
// gives what one analysis over all the inputs would have: a scan analyses each input on its own
// and merges them the same way, and every merge is associative.

#include <gapscan/core/expected.hpp>
#include <gapscan/core/location.hpp>
#include <gapscan/detect/analyzer.hpp>
#include <gapscan/detect/durations.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace gapscan::detect {

/// What the ids of a loaded state are shifted by: the inputs and the streams of the states that
/// come before it in the merge.
struct StateOffsets {
  SourceId sources = 0;
  std::uint64_t streams = 0;
};

/// The state of `analyzer` (its clusters sealed first: hence not const) and `durations`, as CBOR.
std::string encode_state(Analyzer& analyzer, const DurationAnalyzer& durations);

/// Loads a state from encode_state into `analyzer` and `durations`, which must be empty and made
/// with the options of the scan that saved it. A malformed state is an error saying what is wrong.
Expected<void> decode_state(std::string_view cbor, const StateOffsets& offsets, Analyzer& analyzer,
                            DurationAnalyzer& durations);

}  // namespace gapscan::detect
