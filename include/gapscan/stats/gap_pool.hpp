#pragma once
// Everything the run keeps about gaps after a window has been analysed: pooled histograms
// and a bounded, deterministic reservoir of example gaps with the lines around them.

#include <gapscan/core/location.hpp>
#include <gapscan/source/line_text.hpp>
#include <gapscan/stats/gap_series.hpp>
#include <gapscan/stats/log_histogram.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::detect {
struct StateCodec;
}  // namespace gapscan::detect

namespace gapscan::stats {

/// A line kept as evidence: where it is, what it said and its named fields, in one allocation
/// that copies share (a window's examples that show the same line hold it once). With thousands
/// of requests in flight the examples' text was a fifth of gapscan's memory. A line of a window
/// that keeps no text (stream::Entry::k_no_text) is read back from its input the first time its
/// text or fields are asked for (most lines taken as examples are dropped again unread).
struct EvidenceLine {
  EvidenceLine() = default;
  EvidenceLine(const LineLocation& where, std::string_view text, std::string_view fields = {});
  /// A line whose `length` bytes of text are read from `file` at where.offset when needed.
  EvidenceLine(const LineLocation& where, std::shared_ptr<const source::LineText> file, std::uint32_t length,
               std::string_view fields);

  std::string_view text() const {
    return m_bytes ? std::string_view(bytes().data(), m_text_length) : std::string_view();
  }
  /// The named fields of a positional format (parse::Record::fields), for evidence.
  std::string_view fields() const {
    return m_bytes ? std::string_view(bytes().data() + m_text_length, m_fields_length) : std::string_view();
  }

  LineLocation location;
  std::uint32_t template_id = 0;  ///< of its message (stream::Entry::template_id); 0: unknown

 private:
  struct Bytes;
  const std::string& bytes() const;  // the text, then the fields; read back first if deferred
  std::shared_ptr<const Bytes> m_bytes;
  std::uint32_t m_text_length = 0;
  std::uint32_t m_fields_length = 0;
};

/// A window's entry as an evidence line: its text and named fields.
EvidenceLine evidence_line(const stream::StreamWindow& window, const stream::Entry& entry);

/// One example gap: the two lines before it and the line after it.
struct GapSample {
  std::uint64_t hash = 0;  ///< selection key: the smallest hashes are kept
  DurationNs gap = 0;
  TimeNs end = 0;                    ///< time of the line after the gap
  std::string stream;                ///< request id (cut), empty for a whole-input stream
  std::vector<EvidenceLine> before;  ///< up to two lines, oldest first
  EvidenceLine after;
  /// Other lines of the same request window: its first and last lines and a few evenly
  /// spaced between (at most k_context_lines), for evidence of scope "request"; only those
  /// the pool's context filter accepts (GapPool::keep_context_if).
  std::vector<EvidenceLine> context;
  static constexpr std::size_t k_context_lines = 6;
};

/// Tells whether a line (its text and named fields) may serve as evidence.
using LineFilter = std::function<bool(std::string_view text, std::string_view fields)>;

/// What a line must hold for a LineFilter to pass it: a match of one of `regexes` in its text or
/// fields, unless `any_line` (the filter also tests named fields, which no text rules out).
struct LineScreen {
  std::vector<std::string> regexes;
  bool any_line = true;
};

class GapPool {
 public:
  static constexpr unsigned k_fine_bits = 10;   ///< 0.1 % bins for the pooled tests
  static constexpr unsigned k_coarse_bits = 6;  ///< ~1.6 % bins for samples and sums
  static constexpr std::size_t k_samples_per_bin = 8;

  GapPool();

  /// Adds one analysed window. `window` supplies the text of the sampled lines.
  void add(const stream::StreamWindow& window, const GapSeries& series);
  /// Keeps only the request lines that `filter` accepts as examples' context (GapSample::context;
  /// the lines before and after a gap are always kept). The catalog reads the context only for
  /// its request-wide evidence, so the other lines need not be kept: they were two thirds of the
  /// examples' text. Unset: every context line is kept.
  void keep_context_if(LineFilter filter) { m_keep_context = std::move(filter); }
  /// Adds another pool's windows (read after this one's): counts add, samples keep the smallest
  /// hashes, the largest gap stays the largest. Associative.
  void merge(GapPool&& other);

  /// Per coarse bin, the hash at or above which a gap cannot be among the examples any more
  /// (the largest kept when the bin is full, else none); given to set_ceilings() of a pool
  /// whose windows will be merged into this one, it spares that pool examples that could never
  /// be kept. The examples kept after the merge are the same.
  std::vector<std::uint64_t> ceilings() const;
  void set_ceilings(std::vector<std::uint64_t> ceilings) { m_ceilings = std::move(ceilings); }

  const LogHistogram& gaps() const { return m_gaps; }        ///< dequantised gaps, all streams
  const LogHistogram& support() const { return m_support; }  ///< +1 per window per bin touched
  /// Example gaps whose coarse bin overlaps [lo, hi] (ns), closest to `centre` first.
  std::vector<const GapSample*> samples_between(double lo, double hi, double centre) const;

  /// Largest total wall time (span) of the windows that had a gap in one of the coarse bins
  /// overlapping [lo, hi]: the denominator of a pooled mode's share of wall time.
  double span_between(double lo, double hi) const;

  /// All gaps in quarter-octave bins for a picture: bin i holds gaps from 2^(i/4) µs up to
  /// 2^((i+1)/4) µs (gaps below 1 µs in bin 0), k_picture_bins bins (to about 35 min).
  static constexpr std::size_t k_picture_bins_per_octave = 4;
  static constexpr std::size_t k_picture_bins = 124;
  std::vector<std::uint64_t> picture() const;
  /// The largest gap of all, with its lines (ties: the smallest hash); null before any gap.
  const GapSample* largest() const { return m_largest ? &*m_largest : nullptr; }
  std::uint64_t windows() const { return m_windows; }
  std::uint64_t gap_count() const { return m_gap_count; }
  std::uint64_t zero_gaps() const { return m_zero_gaps; }
  std::uint64_t out_of_order() const { return m_out_of_order; }
  std::uint64_t clock_steps() const { return m_clock_steps; }
  DurationNs largest_clock_step() const { return m_largest_clock_step; }
  const LineLocation& largest_clock_step_at() const { return m_largest_clock_step_at; }
  /// The resolution that most gaps were measured with (weighted median over windows).
  DurationNs typical_resolution() const;

 private:
  friend struct detect::StateCodec;  // --partial: saves and loads the pool
  LogHistogram m_gaps;
  LogHistogram m_support;
  struct Reservoir {
    std::vector<GapSample> items;
    std::uint64_t largest_hash = 0;  // valid when items is full
  };
  std::vector<Reservoir> m_samples;                   // indexed by coarse bin
  std::vector<std::uint64_t> m_span;                  // coarse bin -> sum of window spans (ns)
  std::map<DurationNs, std::uint64_t> m_resolutions;  // resolution -> gaps measured with it
  std::uint64_t m_windows = 0;
  std::optional<GapSample> m_largest;
  std::uint64_t m_gap_count = 0;
  std::uint64_t m_zero_gaps = 0;
  std::uint64_t m_out_of_order = 0;
  std::uint64_t m_clock_steps = 0;
  DurationNs m_largest_clock_step = 0;
  LineLocation m_largest_clock_step_at;
  std::vector<std::uint32_t> m_support_epoch;  // fine bin -> last window counted (1-based)
  std::vector<std::uint32_t> m_span_epoch;     // coarse bin -> last window counted
  std::vector<std::uint64_t> m_ceilings;       // coarse bin -> hashes at or above are not kept (empty: none)
  LineFilter m_keep_context;
};

}  // namespace gapscan::stats
