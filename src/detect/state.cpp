// The analysis state as CBOR (nlohmann::json's encoder): arrays for the long lists, so that a
// state of 65 536 stalls stays a few MiB. Ids of inputs and streams are shifted by the offsets
// given when loading, so that states of separate scans merge as the inputs of one scan would.

#include <gapscan/detect/state.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace gapscan::detect {

using Json = nlohmann::json;

/// Saves and loads the private state of the analysis classes (their friend).
struct StateCodec {
  StateOffsets offsets;

  static void seal(Analyzer& analyzer) { analyzer.seal_clusters(); }

  // --- shared pieces -------------------------------------------------------------------------

  static Json location(const LineLocation& l) { return Json::array({l.source, l.salt, l.line, l.offset}); }
  LineLocation location(const Json& j) const {
    LineLocation l;
    l.source = j.at(0).get<SourceId>() + offsets.sources;
    l.salt = j.at(1).get<std::uint32_t>();
    l.line = j.at(2).get<std::uint64_t>();
    l.offset = j.at(3).get<std::uint64_t>();
    return l;
  }
  // Evidence lines are kept once each, in a table, and named by their index: one line is often
  // an example's context, another's line before and a run's first line at once.
  mutable std::map<std::pair<SourceId, std::uint64_t>, std::size_t> line_index;
  mutable Json line_table = Json::array();
  std::vector<stats::EvidenceLine> loaded_lines;

  Json line(const stats::EvidenceLine& e) const {
    const auto [found, added] = line_index.try_emplace({e.location.source, e.location.line}, line_table.size());
    if (added) line_table.push_back(Json::array({location(e.location), e.text(), e.fields(), e.template_id}));
    return found->second;
  }
  stats::EvidenceLine line(const Json& j) const { return loaded_lines.at(j.get<std::size_t>()); }
  void load_lines(const Json& table) {
    loaded_lines.reserve(table.size());
    for (const Json& j : table) {
      loaded_lines.emplace_back(location(j.at(0)), j.at(1).get<std::string>(), j.at(2).get<std::string>());
      loaded_lines.back().template_id = j.at(3).get<std::uint32_t>();
    }
  }
  template <typename T, typename F>
  static Json list(const std::vector<T>& items, F&& f) {
    Json out = Json::array();
    for (const T& item : items) out.push_back(f(item));
    return out;
  }
  template <typename T, typename F>
  static std::vector<T> list_of(const Json& j, F&& f) {
    std::vector<T> out;
    out.reserve(j.size());
    for (const Json& item : j) out.push_back(f(item));
    return out;
  }
  Json lines(const std::vector<stats::EvidenceLine>& items) const {
    return list(items, [&](const stats::EvidenceLine& e) { return line(e); });
  }
  std::vector<stats::EvidenceLine> lines(const Json& j) const {
    return list_of<stats::EvidenceLine>(j, [&](const Json& e) { return line(e); });
  }

  Json sample(const stats::GapSample& s) const {
    return Json::array({s.hash, s.gap, s.end, s.stream, lines(s.before), line(s.after), lines(s.context)});
  }
  stats::GapSample sample(const Json& j) const {
    stats::GapSample s;
    s.hash = j.at(0).get<std::uint64_t>();
    s.gap = j.at(1).get<DurationNs>();
    s.end = j.at(2).get<TimeNs>();
    s.stream = j.at(3).get<std::string>();
    s.before = lines(j.at(4));
    s.after = line(j.at(5));
    s.context = lines(j.at(6));
    return s;
  }
  Json samples(const std::vector<stats::GapSample>& items) const {
    return list(items, [&](const stats::GapSample& s) { return sample(s); });
  }
  std::vector<stats::GapSample> samples(const Json& j) const {
    return list_of<stats::GapSample>(j, [&](const Json& s) { return sample(s); });
  }

  // A timeline's points as columns of differences (they share one input): about 6 bytes a point.
  Json timeline(const Timeline& t) const {
    Json times = Json::array(), lines_ = Json::array(), bytes = Json::array();
    DurationNs last_offset = 0;
    std::int64_t last_line = 0, last_byte = 0;
    for (const Timeline::Point& p : t.points) {
      times.push_back(p.offset - last_offset);
      lines_.push_back(static_cast<std::int64_t>(p.location.line) - last_line);
      bytes.push_back(static_cast<std::int64_t>(p.location.offset) - last_byte);
      last_offset = p.offset;
      last_line = static_cast<std::int64_t>(p.location.line);
      last_byte = static_cast<std::int64_t>(p.location.offset);
    }
    const LineLocation where = t.points.empty() ? LineLocation{} : t.points.front().location;
    return Json::array({t.stream, t.window_lines, t.first_index, Json::array({where.source, where.salt}), times, lines_,
                        bytes, line(t.first), line(t.last), t.lo_ns, t.hi_ns});
  }
  Timeline timeline(const Json& j) const {
    Timeline t;
    t.stream = j.at(0).get<std::string>();
    t.window_lines = j.at(1).get<std::uint64_t>();
    t.first_index = j.at(2).get<std::uint64_t>();
    const auto source = j.at(3).at(0).get<SourceId>() + offsets.sources;
    const auto salt = j.at(3).at(1).get<std::uint32_t>();
    const Json &times = j.at(4), &lines_ = j.at(5), &bytes = j.at(6);
    if (lines_.size() != times.size() || bytes.size() != times.size())
      throw std::invalid_argument("a timeline's columns differ in length");
    DurationNs offset = 0;
    std::int64_t number = 0, byte = 0;
    for (std::size_t i = 0; i < times.size(); ++i) {
      offset += times[i].get<DurationNs>();
      number += lines_[i].get<std::int64_t>();
      byte += bytes[i].get<std::int64_t>();
      t.points.push_back(
          {offset, LineLocation{source, salt, static_cast<std::uint64_t>(number), static_cast<std::uint64_t>(byte)}});
    }
    t.first = line(j.at(7));
    t.last = line(j.at(8));
    t.lo_ns = j.at(9).get<double>();
    t.hi_ns = j.at(10).get<double>();
    return t;
  }
  // Timelines shared by several bins or cells are kept once, in a table.
  mutable std::map<const Timeline*, std::size_t> timeline_index;
  mutable Json timeline_table = Json::array();
  std::vector<std::shared_ptr<const Timeline>> loaded_timelines;

  Json shared_timeline(const std::shared_ptr<const Timeline>& t) const {
    if (!t) return Json();
    const auto [found, added] = timeline_index.try_emplace(t.get(), timeline_table.size());
    if (added) timeline_table.push_back(timeline(*t));
    return found->second;
  }
  std::shared_ptr<const Timeline> shared_timeline(const Json& j) const {
    return j.is_null() ? nullptr : loaded_timelines.at(j.get<std::size_t>());
  }
  void load_timelines(const Json& table) {
    for (const Json& t : table) loaded_timelines.push_back(std::make_shared<const Timeline>(timeline(t)));
  }

  Json run(const RunFinding& r) const {
    return Json::array({r.stream, line(r.first_line), line(r.last_line), r.length, r.centre_ns, r.spread, r.sum_ns,
                        r.time_share, r.log10_p});
  }
  RunFinding run(const Json& j) const {
    RunFinding r;
    r.stream = j.at(0).get<std::string>();
    r.first_line = line(j.at(1));
    r.last_line = line(j.at(2));
    r.length = j.at(3).get<std::size_t>();
    r.centre_ns = j.at(4).get<double>();
    r.spread = j.at(5).get<double>();
    r.sum_ns = j.at(6).get<double>();
    r.time_share = j.at(7).get<double>();
    r.log10_p = j.at(8).get<double>();
    return r;
  }
  Json runs(const std::vector<RunFinding>& items) const {
    return list(items, [&](const RunFinding& r) { return run(r); });
  }
  std::vector<RunFinding> runs(const Json& j) const {
    return list_of<RunFinding>(j, [&](const Json& r) { return run(r); });
  }

  static Json renewal(const Renewal& r) {
    return Json::array(
        {r.period_ns, r.jitter_ns, r.periodic_fraction, r.beats, r.missing_beat_ratio, r.onsets, r.comb_z, r.log10_p});
  }
  static Renewal renewal(const Json& j) {
    Renewal r;
    r.period_ns = j.at(0).get<double>();
    r.jitter_ns = j.at(1).get<double>();
    r.periodic_fraction = j.at(2).get<double>();
    r.beats = j.at(3).get<std::size_t>();
    r.missing_beat_ratio = j.at(4).get<double>();
    r.onsets = j.at(5).get<std::size_t>();
    r.comb_z = j.at(6).get<double>();
    r.log10_p = j.at(7).get<double>();
    return r;
  }
  static Json periodicity(const Periodicity& p) {
    return Json::array({p.period_ns, p.phase_ns, p.reference, p.on_beat_share, p.jitter_ns, p.onsets, p.beats,
                        p.missing_beat_ratio, p.z2, p.log10_p_locked, p.log10_p, p.from_catalog});
  }
  static Periodicity periodicity(const Json& j) {
    Periodicity p;
    p.period_ns = j.at(0).get<double>();
    p.phase_ns = j.at(1).get<double>();
    p.reference = j.at(2).get<TimeNs>();
    p.on_beat_share = j.at(3).get<double>();
    p.jitter_ns = j.at(4).get<double>();
    p.onsets = j.at(5).get<std::size_t>();
    p.beats = j.at(6).get<std::size_t>();
    p.missing_beat_ratio = j.at(7).get<double>();
    p.z2 = j.at(8).get<double>();
    p.log10_p_locked = j.at(9).get<double>();
    p.log10_p = j.at(10).get<double>();
    p.from_catalog = j.at(11).get<bool>();
    return p;
  }
  static Json quantisation(const Quantisation& q) {
    return Json::array(
        {q.base_ns, q.offset_ns, q.coherence, q.noise_rel, q.share, q.log10_p, q.gaps, q.also_consistent_ns});
  }
  static Quantisation quantisation(const Json& j) {
    Quantisation q;
    q.base_ns = j.at(0).get<double>();
    q.offset_ns = j.at(1).get<double>();
    q.coherence = j.at(2).get<double>();
    q.noise_rel = j.at(3).get<double>();
    q.share = j.at(4).get<double>();
    q.log10_p = j.at(5).get<double>();
    q.gaps = j.at(6).get<std::size_t>();
    q.also_consistent_ns = j.at(7).get<std::vector<double>>();
    return q;
  }

  Json detections(const StreamDetections& d) const {
    Json modes = Json::array();
    for (const StreamMode& m : d.modes)
      modes.push_back(Json::array({m.centre_ns, m.lo_ns, m.hi_ns, m.count, m.expected, m.log10_p}));
    Json stalls = Json::array();
    for (const StreamStall& s : d.stalls)
      stalls.push_back(Json::array({line(s.after), s.gap_ns, s.median_ratio, s.log10_p}));
    return Json::array({d.stream, d.kind, d.template_hash, d.input, d.lines, d.span, d.resolution, d.zero_gap_share,
                        d.out_of_order, modes, runs(d.runs), stalls, d.renewal ? renewal(*d.renewal) : Json(),
                        list(d.periodicity, [](const Periodicity& p) { return periodicity(p); }),
                        d.quantisation ? quantisation(*d.quantisation) : Json(), d.best_log10_p});
  }
  StreamDetections detections(const Json& j) const {
    StreamDetections d;
    d.stream = j.at(0).get<std::string>();
    d.kind = j.at(1).get<std::string>();
    d.template_hash = j.at(2).get<std::uint64_t>();
    d.input = j.at(3).get<SourceId>();
    // Only these kinds name an input (stream_facts); the others keep 0.
    if (d.kind == "input" || d.kind == "log" || d.kind == "pacing") d.input += offsets.sources;
    d.lines = j.at(4).get<std::uint64_t>();
    d.span = j.at(5).get<DurationNs>();
    d.resolution = j.at(6).get<DurationNs>();
    d.zero_gap_share = j.at(7).get<double>();
    d.out_of_order = j.at(8).get<std::uint64_t>();
    for (const Json& m : j.at(9)) {
      d.modes.push_back({m.at(0).get<double>(), m.at(1).get<double>(), m.at(2).get<double>(),
                         m.at(3).get<std::size_t>(), m.at(4).get<double>(), m.at(5).get<double>()});
    }
    d.runs = runs(j.at(10));
    for (const Json& s : j.at(11))
      d.stalls.push_back({line(s.at(0)), s.at(1).get<double>(), s.at(2).get<double>(), s.at(3).get<double>()});
    if (!j.at(12).is_null()) d.renewal = renewal(j.at(12));
    d.periodicity = list_of<Periodicity>(j.at(13), [](const Json& p) { return periodicity(p); });
    if (!j.at(14).is_null()) d.quantisation = quantisation(j.at(14));
    d.best_log10_p = j.at(15).get<double>();
    return d;
  }

  /// Non-zero counts as [index, count] pairs.
  template <typename Counts>
  static Json sparse(const Counts& counts) {
    Json out = Json::array();
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i] != 0) out.push_back(Json::array({i, counts[i]}));
    return out;
  }
  template <typename T>
  static void sparse(const Json& j, std::vector<T>& counts) {
    for (const Json& pair : j) counts.at(pair.at(0).get<std::size_t>()) += pair.at(1).get<T>();
  }
  static Json histogram(const stats::LogHistogram& h) {
    Json out = Json::array();
    for (std::size_t i = 0; i < h.size(); ++i)
      if (h.count(i) != 0) out.push_back(Json::array({i, h.count(i)}));
    return out;
  }
  static void histogram(const Json& j, stats::LogHistogram& h) {
    for (const Json& pair : j) {
      const auto index = pair.at(0).get<std::size_t>();
      if (index >= h.size()) throw std::out_of_range("histogram bin out of range");
      h.add_at(index, pair.at(1).get<std::uint64_t>());
    }
  }

  // --- the classes -----------------------------------------------------------------------------

  Json pool(const stats::GapPool& p) const {
    Json reservoirs = Json::array();
    for (std::size_t bin = 0; bin < p.m_samples.size(); ++bin) {
      if (!p.m_samples[bin].items.empty())
        reservoirs.push_back(Json::array({bin, p.m_samples[bin].largest_hash, samples(p.m_samples[bin].items)}));
    }
    Json resolutions = Json::array();
    for (const auto& [resolution, count] : p.m_resolutions) resolutions.push_back(Json::array({resolution, count}));
    return Json::array({histogram(p.m_gaps), histogram(p.m_support), reservoirs, sparse(p.m_span), resolutions,
                        p.m_windows, p.m_largest ? sample(*p.m_largest) : Json(), p.m_gap_count, p.m_zero_gaps,
                        p.m_out_of_order, p.m_clock_steps, p.m_largest_clock_step,
                        location(p.m_largest_clock_step_at)});
  }
  void pool(const Json& j, stats::GapPool& p) const {
    histogram(j.at(0), p.m_gaps);
    histogram(j.at(1), p.m_support);
    for (const Json& r : j.at(2)) {
      stats::GapPool::Reservoir& reservoir = p.m_samples.at(r.at(0).get<std::size_t>());
      reservoir.largest_hash = r.at(1).get<std::uint64_t>();
      reservoir.items = samples(r.at(2));
    }
    sparse(j.at(3), p.m_span);
    for (const Json& r : j.at(4)) p.m_resolutions[r.at(0).get<DurationNs>()] += r.at(1).get<std::uint64_t>();
    p.m_windows = j.at(5).get<std::uint64_t>();
    if (!j.at(6).is_null()) p.m_largest = sample(j.at(6));
    p.m_gap_count = j.at(7).get<std::uint64_t>();
    p.m_zero_gaps = j.at(8).get<std::uint64_t>();
    p.m_out_of_order = j.at(9).get<std::uint64_t>();
    p.m_clock_steps = j.at(10).get<std::uint64_t>();
    p.m_largest_clock_step = j.at(11).get<DurationNs>();
    p.m_largest_clock_step_at = location(j.at(12));
  }

  Json triggers(const TriggerAligner& t) const {
    Json spans = Json::array();
    for (const TriggerAligner::Span& s : t.m_spans)
      spans.push_back(Json::array({s.first, s.last, s.stream_hash, s.stream_id, s.median}));
    Json stalls = Json::array();
    for (const TriggerAligner::Stall& s : t.m_stalls) {
      stalls.push_back(Json::array(
          {s.start, s.end, s.stream_hash, s.stream_id, s.score, s.tail, s.lead, s.ratio_bin, location(s.end_line)}));
    }
    Json lines_found = Json::array();
    for (const TriggerAligner::Trigger& s : t.m_triggers)
      lines_found.push_back(Json::array({s.time, location(s.location), s.stream_id, s.spec, s.text, s.stream}));
    Json markers = Json::array();
    for (const MarkerHit& m : t.m_markers)
      markers.push_back(Json::array({m.pattern, m.lines, location(m.first), m.first_text}));
    Json own = Json::array();
    for (const auto& [id, reference] : t.m_trigger_windows) own.push_back(Json::array({id, reference}));
    Json names = Json::array();
    for (const auto& [id, name] : t.m_names) names.push_back(Json::array({id, name}));
    return Json::array(
        {t.m_specs.size(), spans, stalls, lines_found, t.m_lines, markers, t.m_reference, own, t.m_hash_limit, names});
  }
  void triggers(const Json& j, TriggerAligner& t) const {
    if (j.at(0).get<std::size_t>() != t.m_specs.size())
      throw std::invalid_argument("its trigger patterns are not this scan's (another catalog or --trigger?)");
    for (const Json& s : j.at(1)) {
      t.m_spans.push_back({s.at(0).get<TimeNs>(), s.at(1).get<TimeNs>(), s.at(2).get<std::uint64_t>(),
                           s.at(3).get<std::uint64_t>() + offsets.streams, s.at(4).get<float>()});
    }
    for (const Json& s : j.at(2)) {
      t.m_stalls.push_back({s.at(0).get<TimeNs>(), s.at(1).get<TimeNs>(), s.at(2).get<std::uint64_t>(),
                            s.at(3).get<std::uint64_t>() + offsets.streams, s.at(4).get<float>(), s.at(5).get<float>(),
                            s.at(6).get<float>(), s.at(7).get<std::uint32_t>(), location(s.at(8))});
    }
    for (const Json& s : j.at(3)) {
      const auto spec = s.at(3).get<std::size_t>();
      if (spec >= t.m_specs.size()) throw std::out_of_range("trigger pattern out of range");
      t.m_triggers.push_back({s.at(0).get<TimeNs>(), location(s.at(1)), s.at(2).get<std::uint64_t>() + offsets.streams,
                              spec, s.at(4).get<std::string>(), s.at(5).get<std::string>()});
    }
    t.m_lines = j.at(4).get<std::vector<std::size_t>>();
    t.m_markers.clear();
    for (const Json& m : j.at(5)) {
      t.m_markers.push_back(
          {m.at(0).get<std::string>(), m.at(1).get<std::size_t>(), location(m.at(2)), m.at(3).get<std::string>()});
    }
    if (t.m_lines.size() != t.m_specs.size() || t.m_markers.size() != t.m_specs.size())
      throw std::invalid_argument("its trigger counts do not match its patterns");
    t.m_reference = j.at(6).get<std::vector<double>>();
    for (const Json& o : j.at(7))
      t.m_trigger_windows.emplace(o.at(0).get<std::uint64_t>() + offsets.streams, o.at(1).get<std::vector<double>>());
    t.m_hash_limit = j.at(8).get<std::uint64_t>();
    for (const Json& n : j.at(9))
      t.m_names.emplace(n.at(0).get<std::uint64_t>() + offsets.streams, n.at(1).get<std::string>());
  }

  Json timelines(const TimelineKeeper& k) const {
    Json out = Json::array();
    for (std::size_t bin = 0; bin < k.m_best.size(); ++bin) {
      const auto& best = k.m_best[bin];
      if (best) out.push_back(Json::array({bin, best->count, best->time, best->hash, shared_timeline(best->timeline)}));
    }
    return out;
  }
  void timelines(const Json& j, TimelineKeeper& k) const {
    for (const Json& c : j) {
      k.m_best.at(c.at(0).get<std::size_t>()) = TimelineKeeper::Candidate{
          c.at(1).get<std::uint32_t>(), c.at(2).get<double>(), c.at(3).get<std::uint64_t>(), shared_timeline(c.at(4))};
    }
  }

  Json analyzer(const Analyzer& a) const {
    Json cells = Json::array();
    for (const auto& [key, c] : a.m_cells) {
      Json bins = Json::array();
      for (const auto& [index, count] : c.bins) bins.push_back(Json::array({index, count}));
      cells.push_back(Json::array({key, c.centre_sum, c.spread_sum, c.weight, c.streams, c.members, c.member_time,
                                   c.span_sum, c.best_log10_p, bins, c.top_key, c.top_members, c.top_gaps, c.top_share,
                                   shared_timeline(c.top_timeline)}));
    }
    Json stalls = Json::array();
    for (const Analyzer::Stall& s : a.m_stalls)
      stalls.push_back(Json::array({s.hash, s.time, s.gap, s.stream_id, s.offset}));
    Json examples = Json::array();
    for (const Analyzer::StallExample& e : a.m_stall_examples)
      examples.push_back(Json::array({e.hash, e.time, sample(e.sample)}));
    Json lattice = Json::array();
    for (const auto& [hash, gap] : a.m_lattice_sample) lattice.push_back(Json::array({hash, gap}));
    Json renewals = Json::array();
    for (const Analyzer::RenewalHit& r : a.m_renewals)
      renewals.push_back(Json::array({renewal(r.renewal), r.stream, samples(r.samples)}));
    const DetectionSummary& s = a.m_summary;
    return Json::array({pool(a.m_pool),
                        runs(a.m_runs),
                        list(a.m_streams, [&](const StreamDetections& d) { return detections(d); }),
                        cells,
                        a.m_long_streams_tested,
                        stalls,
                        a.m_stall_threshold,
                        examples,
                        a.m_example_threshold,
                        lattice,
                        a.m_lattice_threshold,
                        triggers(a.m_triggers),
                        timelines(a.m_timelines),
                        renewals,
                        a.m_renewal_tested,
                        Json::array({s.windows, s.keyed_windows, s.windows_scanned, s.derived_windows,
                                     s.derived_windows_scanned, s.pacing_windows, s.pacing_gaps}),
                        wait_points(a.m_wait_points),
                        Json::array({a.m_first_time, a.m_last_time}),
                        list(a.m_arrivals, [&](const ArrivalSummary& r) { return arrival(r); }),
                        wall_clock(a.m_wall_clock)});
  }
  Json wall_clock(const WallClock& w) const {
    Json parts = Json::array();
    for (const WallClock::Part& p : w.m_parts) {
      std::vector<std::uint64_t> keys;
      for (const auto& [key, cells] : p.records) keys.push_back(key);
      std::sort(keys.begin(), keys.end());
      Json records = Json::array();
      for (const std::uint64_t key : keys) {
        const WallClock::Cells& cells = p.records.at(key);
        Json bins = Json::array();
        for (std::size_t b = 0; b < cells.n.size(); ++b)
          if (cells.n[b] != 0) bins.push_back(Json::array({b, cells.n[b], cells.sum[b], cells.squares[b]}));
        records.push_back(Json::array({key, bins}));
      }
      Json examples = Json::array();
      for (std::size_t b = 0; b < p.examples.size(); ++b)
        if (p.examples[b].gap > 0) examples.push_back(Json::array({b, sample(p.examples[b])}));
      parts.push_back(Json::array({p.cycle_limit, records, examples}));
    }
    std::vector<std::uint32_t> ids;
    for (const auto& [id, t] : w.m_lines) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    Json lines_ = Json::array();
    for (const std::uint32_t id : ids) {
      const WallClock::LineTemplate& t = w.m_lines.at(id);
      Json bins = Json::array();
      for (std::size_t f = 0; f < t.bins.size(); ++f)
        for (std::size_t b = 0; b < t.bins[f].size(); ++b)
          if (t.bins[f][b] != 0) bins.push_back(Json::array({f, b, t.bins[f][b]}));
      lines_.push_back(Json::array({id, t.lines, bins, t.first_time, line(t.first)}));
    }
    return Json::array({w.m_folded, w.m_unfolded, parts, lines_});
  }
  void wall_clock(const Json& j, WallClock& w) const {
    w.m_folded = j.at(0).get<std::uint64_t>();
    w.m_unfolded = j.at(1).get<std::uint64_t>();
    const Json& parts = j.at(2);
    for (std::size_t i = 0; i < w.m_parts.size() && i < parts.size(); ++i) {
      WallClock::Part& p = w.m_parts[i];
      p.cycle_limit = parts.at(i).at(0).get<std::int64_t>();
      for (const Json& r : parts.at(i).at(1)) {
        WallClock::Cells& cells = p.records[r.at(0).get<std::uint64_t>()];
        for (const Json& bin : r.at(1)) {
          const auto b = bin.at(0).get<std::size_t>();
          cells.n.at(b) += bin.at(1).get<std::uint32_t>();
          cells.sum.at(b) += bin.at(2).get<float>();
          cells.squares.at(b) += bin.at(3).get<float>();
        }
      }
      for (const Json& e : parts.at(i).at(2)) p.examples.at(e.at(0).get<std::size_t>()) = sample(e.at(1));
    }
    for (const Json& l : j.at(3)) {
      WallClock::LineTemplate& t = w.m_lines[l.at(0).get<std::uint32_t>()];
      t.lines = l.at(1).get<std::uint64_t>();
      for (const Json& bin : l.at(2))
        t.bins.at(bin.at(0).get<std::size_t>()).at(bin.at(1).get<std::size_t>()) += bin.at(2).get<std::uint32_t>();
      t.first_time = l.at(3).get<TimeNs>();
      t.first = line(l.at(4));
    }
  }
  Json time_profile(const TimeProfile& p) const {
    Json bins = Json::array();
    for (std::size_t b = 0; b < p.m_bins.size(); ++b) {
      const TimeProfile::Bin& bin = p.m_bins[b];
      if (bin.gaps == 0) continue;
      Json octaves = Json::array();
      for (const std::uint32_t count : bin.long_gaps) octaves.push_back(count);
      bins.push_back(Json::array({b, bin.gaps, std::move(octaves)}));
    }
    return Json::array({p.m_level, p.m_block, p.m_total, std::move(bins)});
  }
  void time_profile(const Json& j, TimeProfile& p) const {
    p.m_level = j.at(0).get<int>();
    p.m_block = j.at(1).get<std::int64_t>();
    p.m_total = j.at(2).get<std::uint64_t>();
    if (p.m_total > 0) p.m_bins.assign(TimeProfile::k_bins, TimeProfile::Bin{});
    for (const Json& bin : j.at(3)) {
      TimeProfile::Bin& into = p.m_bins.at(bin.at(0).get<std::size_t>());
      into.gaps = bin.at(1).get<std::uint32_t>();
      for (std::size_t o = 0; o < TimeProfile::k_octaves && o < bin.at(2).size(); ++o)
        into.long_gaps[o] = bin.at(2).at(o).get<std::uint32_t>();
    }
  }
  Json wait_points(const WaitPoints& w) const {
    Json templates = Json::array();
    std::vector<std::uint64_t> keys;
    for (const auto& [key, t] : w.m_templates) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    for (const std::uint64_t key : keys) {
      const WaitPoints::Template& t = w.m_templates.at(key);
      templates.push_back(
          Json::array({key, t.input, sparse(t.bins), t.gaps, t.windows, t.stall_windows, t.stall_span_ns,
                       samples(t.examples), t.reported.empty() ? Json() : sparse(t.reported), time_profile(t.times)}));
    }
    Json backgrounds = Json::array();
    std::vector<SourceId> inputs;
    for (const auto& [input, b] : w.m_all) inputs.push_back(input);
    std::sort(inputs.begin(), inputs.end());
    for (const SourceId input : inputs) {
      const WaitPoints::Background& b = w.m_all.at(input);
      backgrounds.push_back(Json::array({input, sparse(b.bins), b.gaps, b.timed, b.early, b.early_us}));
    }
    return Json::array({backgrounds, w.m_gaps, w.m_untracked, templates});
  }
  void wait_points(const Json& j, WaitPoints& w) const {
    for (const Json& b : j.at(0)) {
      WaitPoints::Background& background = w.m_all[b.at(0).get<SourceId>() + offsets.sources];
      background.bins.assign(WaitPoints::k_bins, 0);
      sparse(b.at(1), background.bins);
      background.gaps = b.at(2).get<std::uint64_t>();
      if (b.size() > 5) {
        background.timed = b.at(3).get<std::uint64_t>();
        background.early = b.at(4).get<std::uint64_t>();
        background.early_us = b.at(5).get<std::uint64_t>();
      }
    }
    w.m_gaps = j.at(1).get<std::uint64_t>();
    w.m_untracked = j.at(2).get<std::uint64_t>();
    for (const Json& t : j.at(3)) {
      WaitPoints::Template entry;
      entry.input = t.at(1).get<SourceId>() + offsets.sources;
      entry.bins.assign(WaitPoints::k_bins, 0);
      sparse(t.at(2), entry.bins);
      entry.gaps = t.at(3).get<std::uint64_t>();
      entry.windows = t.at(4).get<std::uint64_t>();
      entry.stall_windows = t.at(5).get<std::uint64_t>();
      entry.stall_span_ns = t.at(6).get<double>();
      entry.examples = samples(t.at(7));
      if (!t.at(8).is_null()) {
        entry.reported.assign(WaitPoints::k_bins, 0);
        sparse(t.at(8), entry.reported);
      }
      time_profile(t.at(9), entry.times);
      const auto id = static_cast<std::uint32_t>(t.at(0).get<std::uint64_t>());
      w.m_templates[WaitPoints::key_of(entry.input, id)] = std::move(entry);
    }
  }
  void analyzer(const Json& j, Analyzer& a) const {
    pool(j.at(0), a.m_pool);
    a.m_runs = runs(j.at(1));
    a.m_streams = list_of<StreamDetections>(j.at(2), [&](const Json& d) { return detections(d); });
    for (const Json& c : j.at(3)) {
      Analyzer::Cell cell;
      cell.centre_sum = c.at(1).get<std::int64_t>();
      cell.spread_sum = c.at(2).get<std::int64_t>();
      cell.weight = c.at(3).get<std::uint64_t>();
      cell.streams = c.at(4).get<std::uint64_t>();
      cell.members = c.at(5).get<std::uint64_t>();
      cell.member_time = c.at(6).get<std::uint64_t>();
      cell.span_sum = c.at(7).get<std::uint64_t>();
      cell.best_log10_p = c.at(8).get<double>();
      for (const Json& bin : c.at(9)) cell.bins[bin.at(0).get<std::size_t>()] += bin.at(1).get<std::uint64_t>();
      cell.top_key = c.at(10).get<std::string>();
      cell.top_members = c.at(11).get<std::uint64_t>();
      cell.top_gaps = c.at(12).get<std::uint64_t>();
      cell.top_share = c.at(13).get<double>();
      cell.top_timeline = shared_timeline(c.at(14));
      a.m_cells[c.at(0).get<std::int64_t>()].add(std::move(cell));
    }
    a.m_long_streams_tested = j.at(4).get<std::size_t>();
    for (const Json& s : j.at(5))
      a.m_stalls.push_back({s.at(0).get<std::uint64_t>(), s.at(1).get<TimeNs>(), s.at(2).get<DurationNs>(),
                            s.at(3).get<std::uint64_t>() + offsets.streams, s.at(4).get<DurationNs>()});
    a.m_stall_threshold = j.at(6).get<std::uint64_t>();
    for (const Json& e : j.at(7))
      a.m_stall_examples.push_back({e.at(0).get<std::uint64_t>(), e.at(1).get<TimeNs>(), sample(e.at(2))});
    a.m_example_threshold = j.at(8).get<std::uint64_t>();
    for (const Json& l : j.at(9)) a.m_lattice_sample.emplace_back(l.at(0).get<std::uint64_t>(), l.at(1).get<double>());
    a.m_lattice_threshold = j.at(10).get<std::uint64_t>();
    triggers(j.at(11), a.m_triggers);
    timelines(j.at(12), a.m_timelines);
    for (const Json& r : j.at(13))
      a.m_renewals.push_back({renewal(r.at(0)), r.at(1).get<std::string>(), samples(r.at(2))});
    a.m_renewal_tested = j.at(14).get<std::uint64_t>();
    const Json& s = j.at(15);
    DetectionSummary& summary = a.m_summary;
    summary.windows = s.at(0).get<std::uint64_t>();
    summary.keyed_windows = s.at(1).get<std::uint64_t>();
    summary.windows_scanned = s.at(2).get<std::uint64_t>();
    summary.derived_windows = s.at(3).get<std::uint64_t>();
    summary.derived_windows_scanned = s.at(4).get<std::uint64_t>();
    summary.pacing_windows = s.at(5).get<std::uint64_t>();
    summary.pacing_gaps = s.at(6).get<std::uint64_t>();
    wait_points(j.at(16), a.m_wait_points);
    a.m_first_time = j.at(17).at(0).get<TimeNs>();
    a.m_last_time = j.at(17).at(1).get<TimeNs>();
    if (j.size() > 18)
      for (const Json& r : j.at(18)) a.m_arrivals.push_back(arrival(r));
    if (j.size() > 19) wall_clock(j.at(19), a.m_wall_clock);
  }
  Json arrival(const ArrivalSummary& r) const {
    Json levels = Json::array();
    for (const ArrivalSummary::Level& l : r.levels)
      levels.push_back(Json::array(
          {l.bursts, l.burst_lines, sparse(l.sizes), sparse(l.lengths), sparse(l.silences), samples(l.examples)}));
    return Json::array({r.input, r.lines, r.whole_ms, r.first, r.last, levels, r.whole_s});
  }
  ArrivalSummary arrival(const Json& j) const {
    ArrivalSummary r;
    r.input = j.at(0).get<SourceId>() + offsets.sources;
    r.lines = j.at(1).get<std::uint64_t>();
    r.whole_ms = j.at(2).get<std::uint64_t>();
    r.first = j.at(3).get<TimeNs>();
    r.last = j.at(4).get<TimeNs>();
    if (j.size() > 6) r.whole_s = j.at(6).get<std::uint64_t>();
    for (std::size_t k = 0; k < r.levels.size() && k < j.at(5).size(); ++k) {
      const Json& l = j.at(5).at(k);
      ArrivalSummary::Level& level = r.levels[k];
      level.bursts = l.at(0).get<std::uint64_t>();
      level.burst_lines = l.at(1).get<std::uint64_t>();
      if (level.bursts > 0) {
        level.sizes.assign(ArrivalSummary::k_size_bins, 0);
        level.lengths.assign(ArrivalSummary::k_bins, 0);
        level.silences.assign(ArrivalSummary::k_bins, 0);
        sparse(l.at(2), level.sizes);
        sparse(l.at(3), level.lengths);
        sparse(l.at(4), level.silences);
      }
      level.examples = samples(l.at(5));
    }
    return r;
  }

  Json durations(const DurationAnalyzer& d) const {
    Json groups = Json::array();
    for (const auto& [key, g] : d.m_groups) {
      Json values = Json::array();
      for (const DurationAnalyzer::Value& v : g.values)
        values.push_back(Json::array({v.hash, v.value, v.spread, v.time}));
      Json examples = Json::array();
      for (const DurationAnalyzer::Example& e : g.examples)
        examples.push_back(Json::array({e.hash, e.value, location(e.where), e.line, e.fields}));
      groups.push_back(Json::array({key, values, g.threshold, examples, g.example_threshold, g.seen, g.digits}));
    }
    return Json::array({groups, d.m_values, d.m_dropped_values, phase_profile(d.m_profile)});
  }
  Json phase_profile(const PhaseProfile& profile) const {
    Json phases = Json::array();
    for (const PhaseProfile::Phase& p : profile.m_phases) {
      Json bins = Json::array();
      for (std::size_t b = 0; b < p.bins.size(); ++b) {
        if (p.bins[b] != 0) bins.push_back(Json::array({b, p.bins[b]}));
      }
      phases.push_back(Json::array({p.requests, p.spent, p.total_ns, p.longest, bins}));
    }
    return Json::array({phases, profile.m_records, profile.m_total_ns});
  }
  void phase_profile(const Json& j, PhaseProfile& profile) const {
    for (std::size_t i = 0; i < profile.m_phases.size() && i < j.at(0).size(); ++i) {
      const Json& p = j.at(0).at(i);
      PhaseProfile::Phase& phase = profile.m_phases[i];
      phase.requests = p.at(0).get<std::uint64_t>();
      phase.spent = p.at(1).get<std::uint64_t>();
      phase.total_ns = p.at(2).get<double>();
      phase.longest = p.at(3).get<DurationNs>();
      for (const Json& bin : p.at(4)) phase.bins.at(bin.at(0).get<std::size_t>()) = bin.at(1).get<std::uint64_t>();
    }
    profile.m_records = j.at(1).get<std::uint64_t>();
    profile.m_total_ns = j.at(2).get<double>();
  }
  void durations(const Json& j, DurationAnalyzer& d) const {
    for (const Json& g : j.at(0)) {
      DurationAnalyzer::Group group;
      for (const Json& v : g.at(1))
        group.values.push_back(
            {v.at(0).get<std::uint64_t>(), v.at(1).get<DurationNs>(), v.at(2).get<double>(), v.at(3).get<TimeNs>()});
      group.threshold = g.at(2).get<std::uint64_t>();
      for (const Json& e : g.at(3)) {
        group.examples.push_back({e.at(0).get<std::uint64_t>(), e.at(1).get<DurationNs>(), location(e.at(2)),
                                  e.at(3).get<std::string>(), e.at(4).get<std::string>()});
      }
      group.example_threshold = g.at(4).get<std::uint64_t>();
      group.seen = g.at(5).get<std::uint64_t>();
      group.digits = g.at(6).get<std::uint8_t>();
      d.m_groups.emplace(g.at(0).get<std::string>(), std::move(group));
    }
    d.m_values = j.at(1).get<std::uint64_t>();
    d.m_dropped_values = j.at(2).get<std::uint64_t>();
    phase_profile(j.at(3), d.m_profile);
  }
};

std::string encode_state(Analyzer& analyzer, const DurationAnalyzer& durations) {
  StateCodec::seal(analyzer);
  const StateCodec codec;
  Json analysis = codec.analyzer(analyzer);
  Json durations_state = codec.durations(durations);
  // The tables last: every line and timeline is named by then. Timelines name lines: theirs first.
  Json timelines = std::move(codec.timeline_table);
  const Json state =
      Json::array({std::move(analysis), std::move(durations_state), std::move(codec.line_table), std::move(timelines)});
  std::string out;
  Json::to_cbor(state, out);
  return out;
}

Expected<void> decode_state(std::string_view cbor, const StateOffsets& offsets, Analyzer& analyzer,
                            DurationAnalyzer& durations) {
  try {
    const Json state = Json::from_cbor(cbor.begin(), cbor.end());
    StateCodec codec;
    codec.offsets = offsets;
    codec.load_lines(state.at(2));
    codec.load_timelines(state.at(3));
    codec.analyzer(state.at(0), analyzer);
    codec.durations(state.at(1), durations);
  } catch (const std::exception& error) {
    return unexpected(make_error("", fmt::format("the analysis state cannot be read: {}", error.what()), ""));
  }
  return {};
}

}  // namespace gapscan::detect
