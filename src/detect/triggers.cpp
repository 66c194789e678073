// One-off stalls aligned with trigger lines; the method is described in triggers.hpp.

#include <gapscan/detect/probability.hpp>
#include <gapscan/detect/triggers.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>

namespace gapscan::detect {
namespace {

constexpr std::size_t k_max_text = 320;
constexpr std::size_t k_max_name = 64;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t stream_hash(const stream::StreamWindow& window) {
  // A whole-input stream by its input's salt: the same wherever the input stands in the run.
  if (window.key.empty())
    return mix(0x51ed270b27b1f3a5ULL + (window.entries.empty() ? 0 : window.entries[0].location.salt));
  return mix(std::hash<std::string_view>{}(window.key));
}

/// ln P(χ² with 2k degrees of freedom > x) = ln(e^(−x/2) Σ_{j<k} (x/2)^j / j!).
double log_chi2_even_upper(double x, std::size_t k) {
  const double y = x / 2;
  if (y <= 0) return 0;
  double log_term = 0;  // ln(y^j / j!)
  double log_sum = 0;   // ln Σ, starting with j = 0
  for (std::size_t j = 1; j < k; ++j) {
    log_term += std::log(y) - std::log(static_cast<double>(j));
    const double hi = std::max(log_sum, log_term);
    log_sum = hi + std::log(std::exp(log_sum - hi) + std::exp(log_term - hi));
  }
  return std::min(0.0, -y + log_sum);
}

}  // namespace

TriggerAligner::TriggerAligner(std::vector<TriggerSpec> specs, TriggerOptions options) : m_options(options) {
  for (TriggerSpec& spec : specs) {
    auto regex = Regex::compile(spec.pattern, "trigger " + spec.pattern);
    if (!regex) continue;  // patterns are checked where they are loaded
    m_regexes.push_back(std::move(*regex));
    m_specs.push_back(std::move(spec));
  }
  m_prefilter = std::make_shared<const Prefilter>(patterns());
  m_lines.assign(m_specs.size(), 0);
  m_markers.resize(m_specs.size());
}

TriggerAligner::~TriggerAligner() = default;
TriggerAligner::TriggerAligner(const TriggerAligner&) = default;
TriggerAligner::TriggerAligner(TriggerAligner&&) noexcept = default;
TriggerAligner& TriggerAligner::operator=(TriggerAligner&&) noexcept = default;

void TriggerAligner::add(const stream::StreamWindow& window, const stats::GapSeries& series,
                         const std::vector<LineMatch>& lines) {
  if (m_specs.empty() || window.entries.empty()) return;
  const bool has_triggers = keep_trigger_lines(window, lines);

  // Gaps are measured against the stream's own median gap: r = g / median. A window with too
  // few gaps to tell what is usual for it takes no part.
  if (series.gaps.size() < m_options.min_gaps) return;
  // Streams outside the kept subset take no part, in the reference either (it is a sample of
  // the same distribution).
  const std::uint64_t hash = stream_hash(window);
  if (hash >= m_hash_limit) return;
  const double median = median_gap(series);
  add_to_reference(window, series, median, has_triggers);

  const TimeNs first_time = window.entries[series.order.front()].time;
  const TimeNs last_time = window.entries[series.order.back()].time;
  if (m_spans.empty()) {
    // Room for as many as are kept before a prune, once: grown by doubling, the lists took
    // twice that and more while a copy was made (14 MiB at 2 000 requests in flight, 4 now).
    m_spans.reserve(m_options.max_windows + 1);
    m_stalls.reserve(m_options.max_stalls + m_options.stalls_per_window);
  }
  m_spans.push_back({first_time, last_time, hash, window.stream_id, static_cast<float>(median)});

  keep_stalls(window, series, median, hash);
  if (m_spans.size() > m_options.max_windows || m_stalls.size() > m_options.max_stalls) prune();
}

std::vector<std::string> TriggerAligner::patterns() const {
  std::vector<std::string> patterns;
  patterns.reserve(m_specs.size());
  for (const TriggerSpec& spec : m_specs) patterns.push_back(spec.pattern);
  return patterns;
}

std::shared_ptr<const Prefilter> TriggerAligner::prefilter() const {
  std::lock_guard lock(*m_prefilter_lock);
  return m_prefilter;
}

std::vector<TriggerAligner::LineMatch> TriggerAligner::find_lines(const stream::StreamWindow& window) const {
  // The lines' texts lie back to back in the window's text, in entry order: the patterns'
  // atoms are searched for over all of it in one pass (core/prefilter.hpp), and only the lines
  // where one was found are tried, with the patterns whose atoms they hold. A match running
  // from one line into the next is tried on the line where it starts.
  std::vector<LineMatch> found;
  const std::size_t first = window.window_index > 0 ? 1 : 0;
  if (m_specs.empty() || first >= window.entries.size()) return found;
  if (window.marked) {
    for (const stream::LineMark& mark : window.marks) {
      if (mark.entry >= first && mark.spec < m_specs.size()) found.push_back({mark.entry, mark.spec});
    }
    return found;
  }
  const std::shared_ptr<const Prefilter> filter = prefilter();
  std::vector<Prefilter::Candidate> hits;  // candidate matches: where, and which atom
  filter->candidates(window.text, window.entries[first].text_offset, hits);
  std::sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  // The atoms found on a line say which patterns to try on it (an atom running on into the
  // next line may add a pattern, which RE2 then rules out on the line).
  std::vector<int> atoms, potentials;
  std::size_t i = first;
  for (std::size_t h = 0; h < hits.size();) {
    while (i + 1 < window.entries.size() && window.entries[i + 1].text_offset <= hits[h].offset) ++i;
    const std::size_t line_end = i + 1 < window.entries.size() ? window.entries[i + 1].text_offset : SIZE_MAX;
    atoms.clear();
    for (; h < hits.size() && hits[h].offset < line_end; ++h) atoms.push_back(hits[h].atom);
    filter->potentials_of(atoms, potentials);
    const std::string_view text = window.line_text(window.entries[i]);
    for (const int potential : potentials) {
      if (m_regexes[static_cast<std::size_t>(potential)].search(text))
        found.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(potential)});
    }
  }
  return found;
}

bool TriggerAligner::keep_trigger_lines(const stream::StreamWindow& window, const std::vector<LineMatch>& lines) {
  // Trigger lines are kept whatever the stream's hash: they are few.
  if (!m_adapted && !window.marked) {
    // The atoms are filed under the byte pairs this log has least of, once its first 64 KiB
    // are seen (a matter of speed only: the lines found are the same).
    m_sample.append(window.text.substr(0, k_adapt_sample - m_sample.size()));
    if (m_sample.size() >= k_adapt_sample) {
      auto adapted = std::make_shared<Prefilter>(patterns());
      adapted->adapt(m_sample);
      std::lock_guard lock(*m_prefilter_lock);
      m_prefilter = std::move(adapted);
      m_adapted = true;
      std::string().swap(m_sample);
    }
  }
  const std::size_t triggers_before = m_triggers.size();
  for (const LineMatch& match : lines) {
    const stream::Entry& entry = window.entries[match.entry];
    const std::string text = window.read_text(entry);
    const std::size_t s = match.spec;
    if (m_specs[s].marker) {
      if (m_lines[s]++ == 0)
        m_markers[s] = {m_specs[s].pattern, 0, entry.location, std::string(text.substr(0, k_max_text))};
      continue;
    }
    if (m_lines[s]++ >= m_options.max_occurrences) continue;
    m_triggers.push_back({entry.time, entry.location, window.stream_id, s, std::string(text.substr(0, k_max_text)),
                          std::string(window.key.substr(0, k_max_name))});
  }
  return m_triggers.size() > triggers_before;
}

double TriggerAligner::median_gap(const stats::GapSeries& series) {
  std::vector<DurationNs>& sorted = m_scratch;
  sorted.clear();
  for (const stats::Gap& gap : series.gaps) sorted.push_back(gap.raw);
  const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  return std::max(1.0, static_cast<double>(*middle));
}

std::size_t TriggerAligner::ratio_bin(DurationNs gap, double median) const {
  const double ratio = std::min(1e12, static_cast<double>(gap) / median * k_ratio_unit);
  return std::min(m_reference.size() - 1,
                  stats::LogHistogram::index_of(static_cast<std::uint64_t>(ratio), k_reference_bits));
}

void TriggerAligner::add_to_reference(const stream::StreamWindow& window, const stats::GapSeries& series, double median,
                                      bool has_triggers) {
  // The reference: gap time per ratio bin; windows with trigger lines are also kept apart.
  if (m_reference.empty()) m_reference.assign(stats::LogHistogram(k_reference_bits).size(), 0);
  std::vector<double>* own = nullptr;
  if (has_triggers) {
    own = &m_trigger_windows[window.stream_id];
    if (own->empty()) own->assign(m_reference.size(), 0);
  }
  for (const stats::Gap& gap : series.gaps) {
    const std::size_t bin = ratio_bin(gap.raw, median);
    m_reference[bin] += static_cast<double>(gap.raw);
    if (own != nullptr) (*own)[bin] += static_cast<double>(gap.raw);
  }
}

void TriggerAligner::keep_stalls(const stream::StreamWindow& window, const stats::GapSeries& series, double median,
                                 std::uint64_t hash) {
  // Stalls: the longest gaps, at least stall_min_ns and min_ratio times the median; they are
  // scored at the end.
  std::vector<std::uint32_t> by_length;
  for (std::uint32_t i = 0; i < series.gaps.size(); ++i) {
    const auto gap = static_cast<double>(series.gaps[i].raw);
    if (gap >= m_options.stall_min_ns && gap >= m_options.min_ratio * median) by_length.push_back(i);
  }
  const std::size_t keep = std::min(by_length.size(), std::max(m_options.stalls_per_window, series.gaps.size() / 32));
  std::partial_sort(by_length.begin(), by_length.begin() + static_cast<std::ptrdiff_t>(keep), by_length.end(),
                    [&](std::uint32_t a, std::uint32_t b) { return series.gaps[a].raw > series.gaps[b].raw; });
  for (std::size_t k = 0; k < keep; ++k) {
    const stats::Gap& gap = series.gaps[by_length[k]];
    const stream::Entry& after = window.entries[series.order[gap.after]];
    m_stalls.push_back({after.time - gap.raw, after.time, hash, window.stream_id, 0.0F, 1.0F,
                        static_cast<float>(2 * median), static_cast<std::uint32_t>(ratio_bin(gap.raw, median)),
                        after.location});
  }
  if (keep > 0 && !window.key.empty()) m_names.emplace(window.stream_id, std::string(window.key.substr(0, k_max_name)));
}

namespace {

/// Appends the items of `from` whose stream hash is below `limit` to `to`.
template <typename T>
void append_below(std::vector<T>& to, std::vector<T>&& from, std::uint64_t limit) {
  if (to.empty()) {
    to = std::move(from);
    std::erase_if(to, [limit](const T& item) { return item.stream_hash >= limit; });
    return;
  }
  for (const T& item : from)
    if (item.stream_hash < limit) to.push_back(item);
}

}  // namespace

void TriggerAligner::merge(TriggerAligner&& other) {
  const std::uint64_t limit = std::min(m_hash_limit, other.m_hash_limit);
  if (limit < m_hash_limit) {
    std::erase_if(m_spans, [limit](const Span& span) { return span.stream_hash >= limit; });
    std::erase_if(m_stalls, [limit](const Stall& stall) { return stall.stream_hash >= limit; });
  }
  m_hash_limit = limit;
  // Into an empty one (the run's, when the first input ends), the lists are moved, not copied:
  // a copy grown by doubling beside them took 8 MiB at the end of a scan of 2 000 requests in
  // flight, above what the scan had needed so far.
  append_below(m_spans, std::move(other.m_spans), limit);
  append_below(m_stalls, std::move(other.m_stalls), limit);
  for (auto& [id, name] : other.m_names) m_names.emplace(id, std::move(name));
  if (m_reference.empty()) {
    m_reference = std::move(other.m_reference);
  } else {
    for (std::size_t i = 0; i < other.m_reference.size() && i < m_reference.size(); ++i)
      m_reference[i] += other.m_reference[i];
  }
  for (auto& [id, own] : other.m_trigger_windows) m_trigger_windows.emplace(id, std::move(own));
  // Each pattern's first max_occurrences lines, counted over both.
  std::vector<std::size_t> kept(m_specs.size());
  for (std::size_t s = 0; s < m_specs.size(); ++s) kept[s] = std::min(m_lines[s], m_options.max_occurrences);
  for (Trigger& trigger : other.m_triggers) {
    if (kept[trigger.spec] >= m_options.max_occurrences) continue;
    ++kept[trigger.spec];
    m_triggers.push_back(std::move(trigger));
  }
  for (std::size_t s = 0; s < m_specs.size(); ++s) {
    if (m_lines[s] == 0 && other.m_lines[s] > 0) m_markers[s] = std::move(other.m_markers[s]);
    m_lines[s] += other.m_lines[s];
  }
  if (m_spans.size() > m_options.max_windows || m_stalls.size() > m_options.max_stalls) prune();
}

std::shared_ptr<const Prefilter> TriggerAligner::adapted_prefilter() const {
  std::lock_guard lock(*m_prefilter_lock);
  return m_adapted ? m_prefilter : nullptr;
}

void TriggerAligner::use_prefilter(std::shared_ptr<const Prefilter> adapted) {
  if (!adapted) return;
  std::lock_guard lock(*m_prefilter_lock);
  m_prefilter = std::move(adapted);
  m_adapted = true;
  std::string().swap(m_sample);
}

void TriggerAligner::shift_streams(std::uint64_t offset) {
  if (offset == 0) return;
  for (Span& span : m_spans) span.stream_id += offset;
  for (Stall& stall : m_stalls) stall.stream_id += offset;
  for (Trigger& trigger : m_triggers) trigger.stream_id += offset;
  std::unordered_map<std::uint64_t, std::vector<double>> windows;
  for (auto& [id, own] : m_trigger_windows) windows.emplace(id + offset, std::move(own));
  m_trigger_windows = std::move(windows);
  std::unordered_map<std::uint64_t, std::string> names;
  for (auto& [id, name] : m_names) names.emplace(id + offset, std::move(name));
  m_names = std::move(names);
}

void TriggerAligner::prune() {
  // Halve the streams kept until both lists fit: the same streams lose their spans, stalls and
  // names.
  while (m_spans.size() > m_options.max_windows || m_stalls.size() > m_options.max_stalls) {
    m_hash_limit = m_hash_limit / 2;
    const std::uint64_t limit = m_hash_limit;
    std::erase_if(m_spans, [limit](const Span& span) { return span.stream_hash >= limit; });
    std::erase_if(m_stalls, [limit](const Stall& stall) { return stall.stream_hash >= limit; });
    if (limit == 0) break;
  }
  std::vector<std::uint64_t> kept;
  kept.reserve(m_stalls.size());
  for (const Stall& stall : m_stalls) kept.push_back(stall.stream_id);
  std::sort(kept.begin(), kept.end());
  std::erase_if(m_names, [&](const auto& name) { return !std::binary_search(kept.begin(), kept.end(), name.first); });
}

std::vector<TriggerAligner::Silence> TriggerAligner::silences(const std::vector<Interval>& intervals) const {
  std::vector<Silence> out(intervals.size());
  if (intervals.empty() || m_spans.empty()) return out;
  // Stalls by stream, then start: a stream's stall covering a moment is found by bisection.
  std::vector<const Stall*> by_stream;
  by_stream.reserve(m_stalls.size());
  for (const Stall& stall : m_stalls) by_stream.push_back(&stall);
  std::sort(by_stream.begin(), by_stream.end(), [](const Stall* a, const Stall* b) {
    return a->stream_id != b->stream_id ? a->stream_id < b->stream_id : a->start < b->start;
  });
  std::vector<const Span*> spans;
  spans.reserve(m_spans.size());
  for (const Span& span : m_spans) spans.push_back(&span);
  std::sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->first < b->first; });
  std::vector<std::uint64_t> active;
  for (std::size_t i = 0; i < intervals.size() && i < k_max_silences; ++i) {
    const Interval& interval = intervals[i];
    const TimeNs length = interval.end - interval.start;
    if (length <= 0) continue;
    const TimeNs middle_lo = interval.start + length / 5, middle_hi = interval.end - length / 5;
    active.clear();
    const auto last = std::upper_bound(spans.begin(), spans.end(), interval.start,
                                       [](TimeNs t, const Span* span) { return t < span->first; });
    for (auto it = spans.begin(); it != last; ++it) {
      const Span& span = **it;
      if (span.stream_id == interval.stream_id || span.last < interval.end) continue;
      if (static_cast<double>(span.median) * 4 > static_cast<double>(length)) continue;  // its usual gap says nothing
      active.push_back(span.stream_id);
    }
    std::sort(active.begin(), active.end());
    active.erase(std::unique(active.begin(), active.end()), active.end());
    Silence& silence = out[i];
    silence.active = active.size();
    for (const std::uint64_t id : active) {
      // The stream's last stall starting at or before the middle's start must reach its end.
      const auto after = std::upper_bound(by_stream.begin(), by_stream.end(), std::pair{id, middle_lo},
                                          [](const std::pair<std::uint64_t, TimeNs>& key, const Stall* stall) {
                                            return key.first != stall->stream_id ? key.first < stall->stream_id
                                                                                 : key.second < stall->start;
                                          });
      if (after == by_stream.begin()) continue;
      const Stall& stall = **(after - 1);
      if (stall.stream_id == id && stall.end >= middle_hi) ++silence.silent;
    }
  }
  return out;
}

/// What finish() needs while it tests one pattern.
struct TriggerAligner::PatternTest {
  std::size_t spec = 0;
  std::size_t begin = 0, end = 0;  ///< the pattern's lines in m_triggers
  TimeNs after = 0, tolerance = 0;
  /// false: a stall counts when it overlaps [t − tolerance, t + after] (a fork's stall ends at
  /// its line); true: only when it also begins in that window, or at most its stream's lead
  /// (two of its usual gaps) before it: a slow spell that begins at the line, not one that was
  /// already going on.
  bool onset = false;
  std::vector<std::uint64_t> own;  ///< streams that write the pattern's lines: they take no part
  std::vector<const Stall*> by_start;
  DurationNs longest = 0;
  bool is_own(std::uint64_t id) const { return std::binary_search(own.begin(), own.end(), id); }
  /// The last moment t for which the stall still counts.
  TimeNs last_moment(const Stall& stall) const {
    const TimeNs last = stall.end + tolerance;
    return onset ? std::min(last, stall.start + tolerance + static_cast<TimeNs>(stall.lead)) : last;
  }
};

void TriggerAligner::score_stalls(const PatternTest& test) {
  // Scores against the gap time of the other streams, by ratio to their stream's median.
  std::vector<double> reference = m_reference;
  for (std::uint64_t id : test.own) {
    const auto windows = m_trigger_windows.find(id);
    if (windows == m_trigger_windows.end()) continue;
    for (std::size_t b = 0; b < reference.size(); ++b) reference[b] = std::max(0.0, reference[b] - windows->second[b]);
  }
  std::vector<double> time_at_least(reference.size() + 1, 0);
  for (std::size_t b = reference.size(); b-- > 0;) time_at_least[b] = time_at_least[b + 1] + reference[b];
  const double total = time_at_least[0];
  for (Stall& stall : m_stalls) {
    const double tail = total > 0 ? std::clamp(time_at_least[stall.ratio_bin] / total, 1e-12, 1.0) : 1.0;
    stall.tail = static_cast<float>(tail);
    stall.score =
        tail <= m_options.max_tail && !test.is_own(stall.stream_id) ? static_cast<float>(-std::log(tail)) : 0.0F;
  }
}

std::vector<TimeNs> TriggerAligner::null_moments() const {
  TimeNs first = m_spans.front().first, last = m_spans.front().last;
  for (const Span& span : m_spans) {
    first = std::min(first, span.first);
    last = std::max(last, span.last);
  }
  const double width = static_cast<double>(last - first);
  std::vector<TimeNs> moments;
  moments.reserve(m_options.null_draws);
  for (std::size_t j = 0; j < m_options.null_draws; ++j) {
    const double where = (static_cast<double>(j) + 0.5) / static_cast<double>(m_options.null_draws);
    moments.push_back(first + static_cast<TimeNs>(where * width));
  }
  return moments;
}

std::vector<double> TriggerAligner::sweep(const PatternTest& test, const std::vector<TimeNs>& moments) const {
  // A(t) at each moment (sorted), by a sweep: a stall [s, e] covers t when it overlaps
  // [t − tolerance, t + after], i.e. for t in [s − after, e + tolerance] (with onset: up to
  // s + tolerance + its lead at most); a stream counts at t
  // while one of its windows spans t, with its best covering stall, as for an occurrence.
  struct Event {
    TimeNs time;
    int kind;  // 0: window opens, 1: stall opens, 2: moment, 3: stall closes, 4: window closes
    float value;
    std::uint64_t stream_id;
  };
  // Counted first: grown by doubling, the list and its copies took three times its size at
  // the very end of a scan, above the memory the scan had needed so far.
  std::size_t count = 2 * m_spans.size() + moments.size();
  for (const Stall& stall : m_stalls) count += stall.score > 0 ? 2 : 0;
  std::vector<Event> events;
  events.reserve(count);
  for (const Span& span : m_spans) {
    if (test.is_own(span.stream_id)) continue;
    events.push_back({span.first, 0, 0, span.stream_id});
    events.push_back({span.last, 4, 0, span.stream_id});
  }
  for (const Stall& stall : m_stalls) {
    if (stall.score <= 0) continue;
    events.push_back({stall.start - test.after, 1, stall.score, stall.stream_id});
    events.push_back({test.last_moment(stall), 3, stall.score, stall.stream_id});
  }
  for (std::size_t j = 0; j < moments.size(); ++j) events.push_back({moments[j], 2, static_cast<float>(j), 0});
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.time != b.time ? a.time < b.time : a.kind < b.kind; });

  struct StreamState {
    int windows = 0;
    std::vector<float> scores;  // of the stalls covering the moment
    double contribution() const {
      return windows > 0 && !scores.empty() ? *std::max_element(scores.begin(), scores.end()) : 0.0;
    }
  };
  std::unordered_map<std::uint64_t, StreamState> states;
  std::vector<double> out(moments.size(), std::numeric_limits<double>::quiet_NaN());
  double sum = 0;
  std::size_t active = 0, next = 0;
  for (const Event& event : events) {
    if (event.kind == 2) {
      if (active > 0) out[next] = std::max(0.0, sum) / static_cast<double>(active);
      ++next;
      continue;
    }
    StreamState& state = states[event.stream_id];
    sum -= state.contribution();
    if (event.kind == 0) active += state.windows++ == 0 ? 1 : 0;
    if (event.kind == 4) active -= --state.windows == 0 ? 1 : 0;
    if (event.kind == 1) state.scores.push_back(event.value);
    if (event.kind == 3) {
      const auto it = std::find(state.scores.begin(), state.scores.end(), event.value);
      if (it != state.scores.end()) state.scores.erase(it);
    }
    sum += state.contribution();
  }
  return out;
}

std::vector<double> TriggerAligner::null_scores(const PatternTest& test) const {
  std::vector<double> scores;
  for (double score : sweep(test, null_moments())) {
    if (score == score) scores.push_back(score);  // NaN: no stream was active
  }
  std::sort(scores.begin(), scores.end());
  return scores;
}

TriggerOccurrence TriggerAligner::test_occurrence(const PatternTest& test, const Trigger& trigger,
                                                  const std::vector<double>& null_scores) const {
  TriggerOccurrence occurrence;
  occurrence.time = trigger.time;
  occurrence.location = trigger.location;
  occurrence.text = trigger.text;
  occurrence.stream = trigger.stream;
  // The other streams active at t, each with its best stall overlapping [t − tolerance, t + after].
  std::vector<std::uint64_t> active;
  for (const Span& span : m_spans) {
    if (!test.is_own(span.stream_id) && span.first <= trigger.time && span.last >= trigger.time)
      active.push_back(span.stream_id);
  }
  std::sort(active.begin(), active.end());
  active.erase(std::unique(active.begin(), active.end()), active.end());
  occurrence.active = active.size();
  if (active.empty()) return occurrence;
  std::map<std::uint64_t, const Stall*> covering;
  const TimeNs lo = trigger.time - test.tolerance, hi = trigger.time + test.after;
  auto it = std::upper_bound(test.by_start.begin(), test.by_start.end(), hi,
                             [](TimeNs t, const Stall* stall) { return t < stall->start; });
  while (it != test.by_start.begin()) {
    const Stall* stall = *--it;
    if (stall->start < lo - test.longest) break;
    if (test.last_moment(*stall) < trigger.time || stall->score <= 0 ||
        !std::binary_search(active.begin(), active.end(), stall->stream_id))
      continue;
    const Stall*& best = covering[stall->stream_id];
    if (best == nullptr || stall->score > best->score) best = stall;
  }
  double sum = 0;
  for (const auto& [id, stall] : covering) {
    sum += stall->score;
    AlignedStall aligned;
    aligned.stream_id = id;
    const auto name = m_names.find(id);
    if (name != m_names.end()) aligned.stream = name->second;
    aligned.end = stall->end_line;
    aligned.start = stall->start;
    aligned.gap = stall->end - stall->start;
    aligned.tail = stall->tail;
    occurrence.stalls.push_back(std::move(aligned));
  }
  std::sort(occurrence.stalls.begin(), occurrence.stalls.end(),
            [](const AlignedStall& a, const AlignedStall& b) { return a.gap > b.gap; });
  occurrence.stalled = occurrence.stalls.size();
  occurrence.score = sum / static_cast<double>(active.size());
  const double draws = static_cast<double>(null_scores.size());
  const auto at_least = static_cast<double>(
      null_scores.end() - std::lower_bound(null_scores.begin(), null_scores.end(), occurrence.score - 1e-12));
  const double p = occurrence.score > 0 ? std::min(1.0, (1 + at_least) / (1 + draws)) : 1.0;
  occurrence.log10_p = std::log10(p);
  return occurrence;
}

std::optional<TriggerFinding> TriggerAligner::test_pattern(const PatternTest& test, double log10_correction) const {
  constexpr double k_clear = 0.05;  // an occurrence with p_t at or below this is aligned
  const std::vector<double> null = null_scores(test);
  if (null.empty()) return std::nullopt;
  TriggerFinding finding;
  finding.spec = test.spec;
  finding.lines = m_lines[test.spec];
  finding.null_draws = null.size();
  double fisher = 0;
  std::size_t clear = 0;
  std::vector<TriggerOccurrence> occurrences;
  TimeNs previous = 0;
  for (std::size_t i = test.begin; i < test.end; ++i) {
    const Trigger& trigger = m_triggers[i];
    if (i > test.begin && static_cast<double>(trigger.time - previous) < m_options.merge_ns) continue;
    previous = trigger.time;
    TriggerOccurrence occurrence = test_occurrence(test, trigger, null);
    // No other stream was writing at that moment (a save before the clients started, say):
    // nothing could have stalled, so the occurrence cannot be tested either way.
    if (occurrence.active == 0) {
      ++finding.outside;
      continue;
    }
    fisher += -2 * occurrence.log10_p * std::log(10.0);
    if (occurrence.log10_p <= std::log10(k_clear)) ++clear;
    occurrences.push_back(std::move(occurrence));
  }
  finding.occurrences = occurrences.size();
  if (occurrences.empty()) return std::nullopt;
  const double log_fisher = log_chi2_even_upper(fisher, occurrences.size());
  const double log_binomial = log_binomial_tail(occurrences.size(), clear, k_clear);
  finding.log10_p = std::min(0.0, to_log10(std::min(log_fisher, log_binomial)) + std::log10(2.0) + log10_correction);
  summarise(finding, occurrences, std::log10(k_clear));
  if (finding.log10_p > std::log10(m_options.alpha) || finding.aligned == 0) return std::nullopt;
  return finding;
}

void TriggerAligner::summarise(TriggerFinding& finding, std::vector<TriggerOccurrence>& occurrences,
                               double log10_clear) const {
  std::vector<std::uint64_t> stalled_streams;
  for (const TriggerOccurrence& occurrence : occurrences) {
    if (occurrence.log10_p > log10_clear) continue;
    ++finding.aligned;
    for (const AlignedStall& stall : occurrence.stalls) {
      finding.stall_ns.push_back(static_cast<double>(stall.gap));
      stalled_streams.push_back(stall.stream_id);
    }
  }
  std::sort(stalled_streams.begin(), stalled_streams.end());
  stalled_streams.erase(std::unique(stalled_streams.begin(), stalled_streams.end()), stalled_streams.end());
  finding.streams_stalled = stalled_streams.size();
  for (const Span& span : m_spans) {
    if (std::binary_search(stalled_streams.begin(), stalled_streams.end(), span.stream_id))
      finding.stalled_span_ns += static_cast<double>(span.last - span.first);
  }
  std::stable_sort(occurrences.begin(), occurrences.end(),
                   [](const TriggerOccurrence& a, const TriggerOccurrence& b) { return a.log10_p < b.log10_p; });
  for (TriggerOccurrence& occurrence : occurrences) {
    if (finding.examples.size() >= m_options.examples || occurrence.log10_p > log10_clear) break;
    if (occurrence.stalls.size() > m_options.examples) occurrence.stalls.resize(m_options.examples);
    finding.examples.push_back(std::move(occurrence));
  }
}

std::optional<TriggerFinding> TriggerAligner::test_windows(PatternTest& test, TimeNs after,
                                                           double log10_correction) const {
  // The window that ends at the line plus the default reach: the stall a fork causes ends where
  // its line is written. A cause whose stalls come later (after_ms) is also tested on windows
  // reaching 31.6, 100, 316 … ms past the line, up to its after_ms, with onsets: the first
  // stall after the line says most (its lag is what the line fixes), while a long window of
  // overlaps would take in every moment inside a slow spell. Each window is one more test: the
  // best p is multiplied by their number.
  const auto reach = static_cast<TimeNs>(m_options.after_ns);
  std::vector<std::pair<TimeNs, bool>> windows{{std::min(after, reach), false}};
  for (double w = 3.16 * m_options.after_ns; w < static_cast<double>(after) * 0.99; w *= 3.16)
    windows.emplace_back(static_cast<TimeNs>(w), true);
  if (after > reach) windows.emplace_back(after, true);
  const double log10_windows = std::log10(static_cast<double>(windows.size()));
  std::optional<TriggerFinding> best;
  for (const auto& [window, onset] : windows) {
    test.after = window;
    test.onset = onset;
    auto finding = test_pattern(test, log10_correction + log10_windows);
    if (finding && (!best || finding->log10_p < best->log10_p)) {
      best = std::move(finding);
      best->after_ns = static_cast<double>(window);
      best->onset = onset;
    }
  }
  return best;
}

std::vector<TriggerFinding> TriggerAligner::finish() {
  std::vector<TriggerFinding> out;
  if (m_specs.empty() || m_triggers.empty() || m_spans.empty()) return out;
  PatternTest test;
  test.tolerance = static_cast<TimeNs>(m_options.tolerance_ns);
  for (const Stall& stall : m_stalls) test.by_start.push_back(&stall);
  std::sort(test.by_start.begin(), test.by_start.end(),
            [](const Stall* a, const Stall* b) { return a->start < b->start; });
  for (const Stall& stall : m_stalls) test.longest = std::max(test.longest, stall.end - stall.start);
  std::stable_sort(m_triggers.begin(), m_triggers.end(), [](const Trigger& a, const Trigger& b) {
    return a.spec != b.spec ? a.spec < b.spec : a.time < b.time;
  });
  std::size_t patterns_tested = 0;
  for (std::size_t s = 0; s < m_specs.size(); ++s) patterns_tested += m_lines[s] > 0 && !m_specs[s].marker ? 1 : 0;
  const double log10_correction = std::log10(static_cast<double>(std::max<std::size_t>(1, patterns_tested)));

  for (test.begin = 0; test.begin < m_triggers.size(); test.begin = test.end) {
    test.spec = m_triggers[test.begin].spec;
    const TriggerSpec& spec = m_specs[test.spec];
    const auto after = static_cast<TimeNs>(spec.after_ns > 0 ? spec.after_ns : m_options.after_ns);
    test.end = test.begin;
    while (test.end < m_triggers.size() && m_triggers[test.end].spec == test.spec) ++test.end;
    test.own.clear();
    for (std::size_t i = test.begin; i < test.end; ++i) test.own.push_back(m_triggers[i].stream_id);
    std::sort(test.own.begin(), test.own.end());
    test.own.erase(std::unique(test.own.begin(), test.own.end()), test.own.end());
    score_stalls(test);
    if (auto finding = test_windows(test, after, log10_correction)) out.push_back(std::move(*finding));
  }
  std::sort(out.begin(), out.end(),
            [](const TriggerFinding& a, const TriggerFinding& b) { return a.log10_p < b.log10_p; });
  return out;
}

std::vector<TriggerAligner::Moment> TriggerAligner::moments() const {
  std::vector<Moment> out;
  for (const Trigger& trigger : m_triggers) {
    if (!m_specs[trigger.spec].marker) out.push_back({trigger.time, trigger.spec, trigger.stream});
  }
  std::stable_sort(out.begin(), out.end(), [](const Moment& a, const Moment& b) { return a.time < b.time; });
  return out;
}

std::vector<MarkerHit> TriggerAligner::markers() const {
  std::vector<MarkerHit> hits;
  for (std::size_t s = 0; s < m_specs.size(); ++s) {
    if (!m_specs[s].marker || m_lines[s] == 0) continue;
    hits.push_back(m_markers[s]);
    hits.back().lines = m_lines[s];
  }
  return hits;
}

}  // namespace gapscan::detect
