#include <gapscan/stats/gap_pool.hpp>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <unordered_map>

namespace gapscan::stats {
namespace {

/// The evidence lines of one window, each made once: a window's examples share their lines.
class WindowLines {
 public:
  WindowLines(const stream::StreamWindow& window, const LineFilter& keep_context)
      : m_window(window), m_keep_context(keep_context) {}
  const EvidenceLine& at(std::uint32_t index) {
    auto [found, added] = m_made.try_emplace(index);
    if (added) found->second = evidence_line(m_window, m_window.entries[index]);
    return found->second;
  }
  /// The line as context, or null when the filter turns it down.
  const EvidenceLine* context_at(std::uint32_t index) {
    if (!m_keep_context) return &at(index);
    auto [found, added] = m_context.try_emplace(index, false);
    if (added) {
      // A line marked where it was parsed without what evidence needs is none (stream::LineMarks).
      const stream::Entry& entry = m_window.entries[index];
      const bool ruled_out =
          (entry.flags & stream::Entry::k_marked) != 0 && (entry.flags & stream::Entry::k_screened) == 0;
      if (ruled_out)
        found->second = false;
      else if (entry.has_text())
        found->second = m_keep_context(m_window.line_text(entry), m_window.line_fields(entry));
      else
        found->second = m_keep_context(m_window.read_text(entry), m_window.line_fields(entry));
    }
    return found->second ? &at(index) : nullptr;
  }

 private:
  const stream::StreamWindow& m_window;
  const LineFilter& m_keep_context;
  std::unordered_map<std::uint32_t, EvidenceLine> m_made;
  std::unordered_map<std::uint32_t, bool> m_context;
};

/// The request's other lines for evidence of scope "request": its first and last lines and a few
/// evenly spaced between, skipping those the sample already holds. Windows without a request
/// key (a whole input read as one stream) have no request to speak of.
void add_context(GapSample& sample, const stream::StreamWindow& window, const GapSeries& series, std::uint32_t after,
                 WindowLines& lines) {
  const std::size_t n = series.order.size();
  if (window.key.empty() || n == 0) return;
  const std::size_t wanted = std::min(n, GapSample::k_context_lines);
  std::size_t previous = SIZE_MAX;
  for (std::size_t k = 0; k < wanted; ++k) {
    const std::size_t position = wanted == 1 ? 0 : k * (n - 1) / (wanted - 1);
    if (position == previous) continue;
    previous = position;
    if (position <= after && position + 2 >= after) continue;  // the sample's own lines
    if (const EvidenceLine* line = lines.context_at(series.order[position])) sample.context.push_back(*line);
  }
}

}  // namespace

struct EvidenceLine::Bytes {
  mutable std::once_flag once;
  std::shared_ptr<const source::LineText> file;  // null: `data` holds the text already
  std::uint64_t offset = 0;
  mutable std::string data;
};

EvidenceLine::EvidenceLine(const LineLocation& where, std::string_view text, std::string_view fields)
    : location(where),
      m_text_length(static_cast<std::uint32_t>(std::min<std::size_t>(text.size(), UINT32_MAX))),
      m_fields_length(static_cast<std::uint32_t>(std::min<std::size_t>(fields.size(), UINT32_MAX))) {
  if (m_text_length + std::size_t{m_fields_length} == 0) return;
  auto bytes = std::make_shared<Bytes>();
  bytes->data.reserve(std::size_t{m_text_length} + m_fields_length);
  bytes->data.append(text.substr(0, m_text_length)).append(fields.substr(0, m_fields_length));
  m_bytes = std::move(bytes);
}

EvidenceLine::EvidenceLine(const LineLocation& where, std::shared_ptr<const source::LineText> file,
                           std::uint32_t length, std::string_view fields)
    : location(where),
      m_text_length(length),
      m_fields_length(static_cast<std::uint32_t>(std::min<std::size_t>(fields.size(), UINT32_MAX))) {
  auto bytes = std::make_shared<Bytes>();
  bytes->file = std::move(file);
  bytes->offset = where.offset;
  bytes->data.assign(fields.substr(0, m_fields_length));
  m_bytes = std::move(bytes);
}

const std::string& EvidenceLine::bytes() const {
  const Bytes& bytes = *m_bytes;
  if (bytes.file) {
    std::call_once(bytes.once, [&] {
      std::string all;
      all.reserve(std::size_t{m_text_length} + bytes.data.size());
      bytes.file->read(bytes.offset, m_text_length, all);
      all += bytes.data;
      bytes.data = std::move(all);
    });
  }
  return bytes.data;
}

EvidenceLine evidence_line(const stream::StreamWindow& window, const stream::Entry& entry) {
  EvidenceLine line =
      entry.has_text() || !window.text_file
          ? EvidenceLine{entry.location, window.line_text(entry), window.line_fields(entry)}
          : EvidenceLine{entry.location, window.text_file, entry.text_length, window.line_fields(entry)};
  line.template_id = entry.template_id;
  return line;
}

GapPool::GapPool()
    : m_gaps(k_fine_bits),
      m_support(k_fine_bits),
      m_samples(LogHistogram(k_coarse_bits).size()),
      m_span(m_samples.size(), 0),
      m_support_epoch(m_support.size(), 0),
      m_span_epoch(m_samples.size(), 0) {}

void GapPool::add(const stream::StreamWindow& window, const GapSeries& series) {
  ++m_windows;
  m_gap_count += series.gaps.size();
  m_zero_gaps += series.zero_gaps;
  m_out_of_order += series.out_of_order;
  m_clock_steps += series.clock_steps;
  if (series.largest_clock_step > m_largest_clock_step) {
    m_largest_clock_step = series.largest_clock_step;
    m_largest_clock_step_at = series.largest_clock_step_at;
  }
  if (!series.gaps.empty()) m_resolutions[series.resolution] += series.gaps.size();

  // Each window counts once per bin in the support histogram and once per coarse bin in the
  // span sums: the epoch arrays remember the last window that touched each bin.
  const auto epoch = static_cast<std::uint32_t>(m_windows);
  WindowLines lines(window, m_keep_context);
  for (const Gap& gap : series.gaps) {
    const auto value = static_cast<std::uint64_t>(std::max(1.0, gap.value) + 0.5);
    const std::size_t index = m_gaps.index_of(value);
    m_gaps.add_at(index);
    if (m_support_epoch[index] != epoch) {
      m_support_epoch[index] = epoch;
      m_support.add_at(index);
    }

    // Reservoir of examples per coarse bin: keep the samples with the smallest hashes, which
    // is deterministic and independent of the order in which windows arrive.
    const auto& entries = window.entries;
    const stream::Entry& after = entries[series.order[gap.after]];
    const std::uint64_t hash = location_hash(after.location);
    if (!m_largest || gap.raw > m_largest->gap || (gap.raw == m_largest->gap && hash < m_largest->hash)) {
      GapSample largest;
      largest.hash = hash;
      largest.gap = gap.raw;
      largest.end = after.time;
      largest.stream = std::string(window.key.substr(0, 64));
      if (gap.after >= 1) largest.before.push_back(lines.at(series.order[gap.after - 1]));
      largest.after = lines.at(series.order[gap.after]);
      m_largest = std::move(largest);
    }
    const std::size_t coarse = LogHistogram::index_of(value, k_coarse_bits);
    if (m_span_epoch[coarse] != epoch) {
      m_span_epoch[coarse] = epoch;
      m_span[coarse] += static_cast<std::uint64_t>(std::max<DurationNs>(0, series.span));
    }
    if (!m_ceilings.empty() && hash >= m_ceilings[coarse]) continue;
    Reservoir& reservoir = m_samples[coarse];
    auto by_hash = [](const GapSample& a, const GapSample& b) { return a.hash < b.hash; };
    if (reservoir.items.size() >= k_samples_per_bin) {
      if (reservoir.largest_hash <= hash) continue;
      reservoir.items.erase(std::max_element(reservoir.items.begin(), reservoir.items.end(), by_hash));
    }
    GapSample sample;
    sample.hash = hash;
    sample.gap = gap.raw;
    sample.end = after.time;
    sample.stream = std::string(window.key.substr(0, 64));
    for (std::uint32_t back = 2; back >= 1; --back) {
      if (gap.after >= back) sample.before.push_back(lines.at(series.order[gap.after - back]));
    }
    sample.after = lines.at(series.order[gap.after]);
    add_context(sample, window, series, gap.after, lines);
    reservoir.items.push_back(std::move(sample));
    if (reservoir.items.size() >= k_samples_per_bin) {
      reservoir.largest_hash = std::max_element(reservoir.items.begin(), reservoir.items.end(), by_hash)->hash;
    }
  }
}

void GapPool::merge(GapPool&& other) {
  m_gaps.merge(other.m_gaps);
  m_support.merge(other.m_support);
  for (std::size_t bin = 0; bin < m_samples.size(); ++bin) {
    m_span[bin] += other.m_span[bin];
    Reservoir& into = m_samples[bin];
    Reservoir& from = other.m_samples[bin];
    if (from.items.empty()) continue;
    for (GapSample& sample : from.items) into.items.push_back(std::move(sample));
    if (into.items.size() >= k_samples_per_bin) {
      std::stable_sort(into.items.begin(), into.items.end(),
                       [](const GapSample& a, const GapSample& b) { return a.hash < b.hash; });
      into.items.resize(k_samples_per_bin);
      into.largest_hash = into.items.back().hash;
    }
  }
  for (const auto& [resolution, count] : other.m_resolutions) m_resolutions[resolution] += count;
  m_windows += other.m_windows;
  if (other.m_largest && (!m_largest || other.m_largest->gap > m_largest->gap ||
                          (other.m_largest->gap == m_largest->gap && other.m_largest->hash < m_largest->hash)))
    m_largest = std::move(other.m_largest);
  m_gap_count += other.m_gap_count;
  m_zero_gaps += other.m_zero_gaps;
  m_out_of_order += other.m_out_of_order;
  m_clock_steps += other.m_clock_steps;
  if (other.m_largest_clock_step > m_largest_clock_step) {
    m_largest_clock_step = other.m_largest_clock_step;
    m_largest_clock_step_at = other.m_largest_clock_step_at;
  }
}

std::vector<std::uint64_t> GapPool::ceilings() const {
  std::vector<std::uint64_t> out(m_samples.size(), UINT64_MAX);
  for (std::size_t bin = 0; bin < m_samples.size(); ++bin) {
    if (m_samples[bin].items.size() >= k_samples_per_bin) out[bin] = m_samples[bin].largest_hash;
  }
  if (!m_ceilings.empty()) {
    for (std::size_t bin = 0; bin < out.size(); ++bin) out[bin] = std::min(out[bin], m_ceilings[bin]);
  }
  return out;
}

std::vector<std::uint64_t> GapPool::picture() const {
  std::vector<std::uint64_t> bins(k_picture_bins, 0);
  for (std::size_t i = 0; i < m_gaps.size(); ++i) {
    const std::uint64_t n = m_gaps.count(i);
    if (n == 0) continue;
    const double middle_us = (static_cast<double>(m_gaps.lower(i)) + static_cast<double>(m_gaps.upper(i))) / 2e3;
    const double position = middle_us <= 1 ? 0 : std::floor(std::log2(middle_us) * k_picture_bins_per_octave);
    bins[std::min(k_picture_bins - 1, static_cast<std::size_t>(position))] += n;
  }
  return bins;
}

double GapPool::span_between(double lo, double hi) const {
  const auto first = LogHistogram::index_of(static_cast<std::uint64_t>(std::max(1.0, lo)), k_coarse_bits);
  const auto last = LogHistogram::index_of(static_cast<std::uint64_t>(std::max(1.0, hi)), k_coarse_bits);
  double largest = 0;
  for (std::size_t bin = first; bin <= last && bin < m_span.size(); ++bin)
    largest = std::max(largest, static_cast<double>(m_span[bin]));
  return largest;
}

std::vector<const GapSample*> GapPool::samples_between(double lo, double hi, double centre) const {
  std::vector<const GapSample*> found;
  const auto first = LogHistogram::index_of(static_cast<std::uint64_t>(std::max(1.0, lo)), k_coarse_bits);
  const auto last = LogHistogram::index_of(static_cast<std::uint64_t>(std::max(1.0, hi)), k_coarse_bits);
  for (std::size_t bin = first; bin <= last && bin < m_samples.size(); ++bin) {
    for (const GapSample& sample : m_samples[bin].items) {
      const auto gap = static_cast<double>(sample.gap);
      if (gap >= lo && gap <= hi) found.push_back(&sample);
    }
  }
  std::sort(found.begin(), found.end(), [centre](const GapSample* a, const GapSample* b) {
    const double da = std::abs(static_cast<double>(a->gap) - centre);
    const double db = std::abs(static_cast<double>(b->gap) - centre);
    return da != db ? da < db : a->hash < b->hash;
  });
  return found;
}

DurationNs GapPool::typical_resolution() const {
  std::uint64_t total = 0;
  for (const auto& [resolution, count] : m_resolutions) total += count;
  std::uint64_t seen = 0;
  for (const auto& [resolution, count] : m_resolutions) {
    seen += count;
    if (2 * seen >= total) return resolution;
  }
  return 1;
}

}  // namespace gapscan::stats
