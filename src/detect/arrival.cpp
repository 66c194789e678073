#include <gapscan/detect/arrival.hpp>
#include <gapscan/detect/wait_points.hpp>

#include <algorithm>
#include <cmath>

namespace gapscan::detect {
namespace {

constexpr int k_size_bins_per_octave = 4;
constexpr DurationNs k_min_silence = 10'000'000;  // the shortest silence kept as an example, and the least median

int size_bin(std::uint64_t lines) {
  const int bin = static_cast<int>(std::floor(k_size_bins_per_octave * std::log2(static_cast<double>(lines))));
  return std::clamp(bin, 0, ArrivalSummary::k_size_bins - 1);
}

/// The bin holding the q-quantile of `bins` (weights), or -1 when empty.
template <typename Count>
int quantile_bin(const std::vector<Count>& bins, double q) {
  std::uint64_t total = 0;
  for (const Count c : bins) total += c;
  if (total == 0) return -1;
  const double want = q * static_cast<double>(total);
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    seen += bins[b];
    if (static_cast<double>(seen) >= want && bins[b] > 0) return static_cast<int>(b);
  }
  return static_cast<int>(bins.size()) - 1;
}

}  // namespace

bool ArrivalSummary::holds() const {
  const Level& at = levels[static_cast<std::size_t>(level())];
  const auto tightness = static_cast<double>(k_tightness[static_cast<std::size_t>(level())]);
  if (whole_s * 20 >= lines * 19) return false;
  if (at.bursts < 8 || silence_count() < 8 || at.burst_lines * 5 < lines * 4) return false;
  if (median_size() < 22) return false;
  const double silence = median_silence_ns();
  return silence >= static_cast<double>(k_min_silence) && silence >= 20 * tightness &&
         silence >= 20 * median_length_ns();
}

double ArrivalSummary::median_silence_ns() const {
  const int bin = quantile_bin(levels[static_cast<std::size_t>(level())].silences, 0.5);
  return bin < 0 ? 0 : WaitPoints::bin_lo(bin);
}

std::pair<double, double> ArrivalSummary::silence_range_ns() const {
  const auto& silences = levels[static_cast<std::size_t>(level())].silences;
  const int lo = quantile_bin(silences, 0.1), hi = quantile_bin(silences, 0.9);
  if (lo < 0) return {0, 0};
  return {WaitPoints::bin_lo(lo), WaitPoints::bin_hi(hi)};
}

double ArrivalSummary::median_length_ns() const {
  const int bin = quantile_bin(levels[static_cast<std::size_t>(level())].lengths, 0.5);
  return bin < 0 ? 0 : WaitPoints::bin_hi(bin);
}

double ArrivalSummary::median_size() const {
  const int bin = quantile_bin(levels[static_cast<std::size_t>(level())].sizes, 0.5);
  return bin < 0 ? 0 : std::exp2(static_cast<double>(bin) / k_size_bins_per_octave);
}

std::uint64_t ArrivalSummary::silence_count() const {
  std::uint64_t count = 0;
  for (const std::uint32_t c : levels[static_cast<std::size_t>(level())].silences) count += c;
  return count;
}

void ArrivalTracker::add(TimeNs time, const LineLocation& where, std::string_view text) {
  ArrivalSummary& s = m_summary;
  if (s.lines == 0) s.first = time;
  ++s.lines;
  s.first = std::min(s.first, time);
  s.last = std::max(s.last, time);
  if (time % 1'000'000 == 0) ++s.whole_ms;
  if (time % 1'000'000'000 == 0) ++s.whole_s;
  bool want_text = false;
  for (int level = 0; level < ArrivalSummary::k_levels; ++level) {
    Open& open = m_open[static_cast<std::size_t>(level)];
    const DurationNs gap = time - open.latest;
    if (open.lines > 0 && gap >= 0 && gap <= ArrivalSummary::k_tightness[static_cast<std::size_t>(level)]) {
      ++open.lines;
      open.latest = time;
    } else {
      if (open.lines > 0) close(level, time, where, text);
      open = Open{time, time, 1};
    }
    // Kept only when this line may end a burst whose silence becomes an example.
    want_text = want_text || (open.lines >= ArrivalSummary::k_min_burst &&
                              s.levels[static_cast<std::size_t>(level)].examples.size() < ArrivalSummary::k_examples);
  }
  if (want_text) {
    m_last_text.assign(text.substr(0, 4096));
    m_last_where = where;
  }
}

void ArrivalTracker::close(int level, TimeNs next, const LineLocation& where, std::string_view text) {
  Open& open = m_open[static_cast<std::size_t>(level)];
  if (open.lines < ArrivalSummary::k_min_burst) return;
  ArrivalSummary::Level& at = m_summary.levels[static_cast<std::size_t>(level)];
  if (at.sizes.empty()) {
    at.sizes.assign(ArrivalSummary::k_size_bins, 0);
    at.lengths.assign(ArrivalSummary::k_bins, 0);
    at.silences.assign(ArrivalSummary::k_bins, 0);
  }
  ++at.bursts;
  at.burst_lines += open.lines;
  at.sizes[static_cast<std::size_t>(size_bin(open.lines))] += open.lines;
  const auto bin = [](DurationNs ns) {
    return static_cast<std::size_t>(
        std::clamp(WaitPoints::bin_of(static_cast<double>(ns)), 0, ArrivalSummary::k_bins - 1));
  };
  ++at.lengths[bin(open.latest - open.start)];
  if (next <= open.latest) return;  // out of order: no silence
  ++at.silences[bin(next - open.latest)];
  if (at.examples.size() < ArrivalSummary::k_examples && next - open.latest >= k_min_silence) {
    stats::GapSample sample;
    sample.gap = next - open.latest;
    sample.end = next;
    sample.hash = at.examples.size();
    sample.before.emplace_back(m_last_where, m_last_text);
    sample.after = stats::EvidenceLine(where, text.substr(0, 4096));
    at.examples.push_back(std::move(sample));
  }
}

ArrivalSummary ArrivalTracker::finish(SourceId input) {
  for (int level = 0; level < ArrivalSummary::k_levels; ++level) {
    Open& open = m_open[static_cast<std::size_t>(level)];
    if (open.lines > 0) close(level, open.latest, {}, {});
    open = Open{};
  }
  ArrivalSummary done = std::move(m_summary);
  done.input = input;
  m_summary = ArrivalSummary{};
  m_last_text.clear();
  return done;
}

}  // namespace gapscan::detect
