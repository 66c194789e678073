#pragma once

#include <gapscan/core/location.hpp>
#include <gapscan/core/time.hpp>
#include <gapscan/parse/record.hpp>
#include <gapscan/source/line_text.hpp>
#include <gapscan/stream/buffer_pool.hpp>
#include <gapscan/stream/spill_store.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gapscan::stream {

/// One record as the stream keeps it.
struct Entry {
  TimeNs time = 0;
  LineLocation location;
  std::uint32_t text_offset = 0;  ///< into StreamWindow::text
  std::uint32_t text_length = 0;
  std::uint8_t time_digits = 0;
  bool completion = false;  ///< the line reports a finished request or operation (Record::completion, or a duration)
  std::uint16_t fields_length = 0;            ///< Record::fields, kept in StreamWindow::text right after the line
  std::uint32_t duration_us = k_no_duration;  ///< the duration the line logs, in µs (capped); k_no_duration: none
  std::uint32_t template_id = 0;              ///< its message template (parse::Record::template_id); 0: none
  std::uint8_t flags = 0;                     ///< k_no_text, k_marked, k_screened
  static constexpr std::uint32_t k_no_duration = UINT32_MAX;
  /// The line's text is not kept (only its length): it is read back from the input when a
  /// report needs it (StreamWindow::text_file).
  static constexpr std::uint8_t k_no_text = 1;
  /// The line was marked where it was parsed (LineMarks): k_screened says whether it may be
  /// request evidence (to be tested if it is taken as context); unmarked, its text is kept and
  /// tested when needed.
  static constexpr std::uint8_t k_marked = 2;
  static constexpr std::uint8_t k_screened = 4;

  bool has_text() const { return (flags & k_no_text) == 0; }
  /// Bytes it holds in the window's text: the line (if kept), then its named fields.
  std::uint32_t stored_length() const { return (has_text() ? text_length : 0) + fields_length; }
};

/// A trigger pattern that matched a line of a window, found where the line was parsed.
struct LineMark {
  std::uint32_t entry;  ///< index into the window's entries
  std::uint32_t spec;   ///< the pattern (detect::TriggerAligner's spec index)
};

/// What was found on a line where it was parsed, once for all the streams it joins
/// (detect::LineMarker): the window's analysis then needs no line text.
struct LineMarks {
  bool known = false;  ///< false: nothing was looked for; the text is kept
  /// The line holds what request evidence needs (stats::LineScreen): it may be evidence of its
  /// request (GapPool's context), to be tested if it is taken as context.
  bool screened = false;
  std::span<const std::uint32_t> triggers;  ///< trigger patterns matching it, ascending
};

/// A window of one stream. Views are valid only during the sink call.
struct StreamWindow {
  std::string_view key;            ///< request id; empty for a whole-input stream
  SourceId input = 0;              ///< the input of a whole-input stream (unused when keyed)
  std::uint64_t stream_id = 0;     ///< the same for every window of one stream, unique in the run
  std::uint32_t window_index = 0;  ///< 0 for the first window of the stream
  std::span<const Entry> entries;  ///< arrival order
  std::string_view text;           ///< storage of the entries' line text (of those that keep it) and fields
  /// The trigger patterns matching its lines, in entry order (each line's ascending), when
  /// `marked`: its lines were marked where they were parsed. Unmarked, their text is searched.
  std::span<const LineMark> marks;
  bool marked = false;
  /// Where the text of entries without it (Entry::k_no_text) is read back from; null if none.
  std::shared_ptr<const source::LineText> text_file;

  /// The line's text; empty when it is not kept (Entry::has_text).
  std::string_view line_text(const Entry& entry) const {
    return entry.has_text() ? text.substr(entry.text_offset, entry.text_length) : std::string_view();
  }
  /// The line's text, read back from text_file when it is not kept (for the few lines that
  /// are looked at while the scan goes on: trigger lines, screened context lines).
  std::string read_text(const Entry& entry) const;
  /// The named fields of a positional format (Record::fields); empty for most lines.
  std::string_view line_fields(const Entry& entry) const {
    return text.substr(entry.text_offset + (entry.has_text() ? entry.text_length : 0), entry.fields_length);
  }
};

/// A window that owns its storage: what the stream table hands over. Its buffers come from the
/// table's memory resource (GroupingOptions::memory): it must be destroyed on the table's thread
/// (the window queue does so) and before the resource.
struct OwnedWindow {
  OwnedWindow() = default;
  explicit OwnedWindow(std::pmr::memory_resource* memory) : key(memory), entries(memory), text(memory), marks(memory) {}

  std::pmr::string key;
  SourceId input = 0;
  std::uint64_t stream_id = 0;
  std::uint32_t window_index = 0;
  std::pmr::vector<Entry> entries;
  std::pmr::string text;
  std::pmr::vector<LineMark> marks;
  bool marked = false;
  std::shared_ptr<const source::LineText> text_file;

  StreamWindow view() const {
    return StreamWindow{key, input, stream_id, window_index, entries, text, marks, marked, text_file};
  }
  std::size_t bytes() const {
    return entries.capacity() * sizeof(Entry) + text.capacity() + key.capacity() + marks.capacity() * sizeof(LineMark);
  }
};

using WindowSink = std::function<void(OwnedWindow&&)>;

struct GroupingOptions {
  DurationNs idle_timeout = 600 * k_ns_per_s;  ///< close a stream after this much log time without a line
  std::size_t window_records = 65536;          ///< analyse a stream in windows of at most this many records
  /// Memory for the lines of open streams. Above it, the line text of the least recently used
  /// streams goes to the spill store (when `spill`), and only when their entries alone are
  /// above it are streams handed over early, in windows.
  std::size_t max_buffered_bytes = 16u << 20;
  bool spill = true;            ///< keep line text in temporary files rather than cut requests early
  std::string spill_directory;  ///< where; empty: $TMPDIR, else /tmp
  /// Flushed streams remembered to carry their last line. Beyond this many, those that have
  /// ended (idle for longer than a request pauses) are forgotten, least recently used first;
  /// those still in flight are kept, up to `max_parked_in_flight`, so that a request is not cut
  /// in two because more requests than this are in flight.
  std::size_t max_parked = 4096;
  std::size_t max_parked_in_flight = 131072;
  std::size_t max_line_text = 320;    ///< bytes of each line kept for the report and evidence
  std::size_t max_line_fields = 512;  ///< bytes of each line's named fields kept for evidence
  /// Where the buffers of streams and windows come from (a BufferPool, which must outlive every
  /// window handed over); null: the table's own pool.
  std::pmr::memory_resource* memory = nullptr;
};

struct GroupingStats {
  std::uint64_t streams = 0;            ///< streams opened
  std::uint64_t windows = 0;            ///< windows handed to the sink
  std::uint64_t idle_closed = 0;        ///< streams closed by the idle timeout
  std::uint64_t early_flushes = 0;      ///< windows handed over early because of the memory budget
  std::uint64_t forgotten = 0;          ///< flushed streams dropped because more than max_parked were kept
  std::size_t peak_active = 0;          ///< most streams open at once
  std::size_t peak_buffered_bytes = 0;  ///< most bytes of entries and line text buffered at once
  std::uint64_t spills = 0;             ///< times a stream's line text went to the spill store
  std::uint64_t spilled_bytes = 0;      ///< bytes of line text written to it
  std::uint64_t peak_spill_held = 0;    ///< most bytes of it needed at once
  std::string spill_error;              ///< what went wrong with the spill store and what it cost, if anything did
};

class StreamTable {
 public:
  StreamTable(GroupingOptions options, WindowSink sink);
  ~StreamTable();
  StreamTable(const StreamTable&) = delete;
  StreamTable& operator=(const StreamTable&) = delete;

  /// Adds a record. `raw_line` is the physical line it was parsed from; `marks`, what was found
  /// on it where it was parsed (a marked line of an input with a text file keeps no text).
  void add(const parse::Record& record, std::string_view raw_line, const LineLocation& location,
           const LineMarks& marks = {});

  /// The lines of `input` keep no text but their length when they are marked: it is read back
  /// from `file` when needed (the streams' windows carry it).
  void set_text_file(SourceId input, std::shared_ptr<const source::LineText> file);

  /// Closes every open stream, in order of first appearance.
  void finish();

  /// Shows `f` the lines each open stream holds that were not yet handed over, as a window, in
  /// order of first appearance, without closing anything (gapscan --follow's snapshots).
  void peek(const std::function<void(const StreamWindow&)>& f) const;

  const GroupingStats& stats() const { return m_stats; }

 private:
  struct Stream;
  /// An intrusive list of streams, least recently used first.
  struct List {
    Stream* head = nullptr;
    Stream* tail = nullptr;
    std::size_t size = 0;
    void push_back(Stream& stream);
    void remove(Stream& stream);
  };
  /// The open streams by key: open addressing over (hash, stream) slots, linear probing, at
  /// most half full; a lookup touches one slot line and, on a hash match, the stream's key.
  class Index {
   public:
    Stream* find(std::string_view key, std::uint64_t hash) const;
    void insert(Stream* stream);
    void erase(const Stream* stream);
    std::size_t size() const { return m_size; }
    template <typename F>
    void for_each(F&& f) const {
      for (const Slot& slot : m_slots)
        if (slot.stream) f(slot.stream);
    }

   private:
    struct Slot {
      std::uint64_t hash = 0;
      Stream* stream = nullptr;
    };
    void grow();
    std::vector<Slot> m_slots = std::vector<Slot>(1024);
    std::size_t m_size = 0;
  };
  static std::uint64_t hash_key(std::string_view key) noexcept;
  /// Gaps between consecutive lines of a stream, in quarter-octave bins: how long a request
  /// pauses, to tell one that has ended from one that pauses.
  class PauseScale {
   public:
    void add(DurationNs gap);
    DurationNs quantile(double share) const;  ///< upper edge of the bin holding it; 0 without gaps
    std::uint64_t count() const { return m_count; }

   private:
    std::array<std::uint64_t, 4 * 64> m_bins{};
    std::uint64_t m_count = 0;
    std::size_t m_top = 0;  // one past the highest bin holding a gap
  };
  DurationNs ended_after() const;  // idle this long, a stream is taken to have ended

  Stream& find_or_open(std::string_view key, SourceId input);
  void move_to(Stream& stream, List& list);
  void emit(Stream& stream);  // hands the new entries over, keeps the last one, parks the stream
  void close(Stream& stream);
  void enforce_limits(TimeNs now);
  bool spill(Stream& stream);  // its text to the spill store; false when that fails
  void spill_least_recent();
  std::pmr::string text_of(const Stream& stream) const;  // all of it, the spilled bytes read back
  void release_spilled(Stream& stream);
  std::size_t bytes_of(const Stream& stream) const;
  void count(Stream& stream);             // adds its bytes to the buffered count; relinks it as spillable
  void forget(const Stream& stream);      // takes them away, before a change to the stream
  void link_spillable(Stream& stream);    // at the end of the spillable list
  void unlink_spillable(Stream& stream);  // if it is in it

  BufferPool m_own_memory;  // first: destroyed last, after every stream's buffers
  GroupingOptions m_options;
  std::pmr::memory_resource* m_memory;  // options.memory, else m_own_memory
  WindowSink m_sink;
  Index m_streams;
  std::vector<std::unique_ptr<Stream>> m_spare;  // closed streams, kept for reuse (their buffers stay allocated)
  List m_active;                                 // streams with entries not yet handed over
  List m_parked;                                 // streams holding only the carried last entry
  std::unique_ptr<SpillStore> m_spill;           // null when spilling is off
  std::size_t m_buffered_bytes = 0;              // bytes_of() of every open stream
  std::size_t m_spillable_bytes = 0;             // of which line text of streams holding enough to spill
  // Those streams, least recently changed first (linked through Stream::spill_prev/spill_next):
  // a spill pass walks only them, not the streams whose text is out already or too short.
  Stream* m_spillable_head = nullptr;
  Stream* m_spillable_tail = nullptr;
  PauseScale m_pauses;
  std::vector<std::shared_ptr<const source::LineText>> m_text_files;  // by SourceId (set_text_file)
  std::uint64_t m_next_order = 0;
  mutable GroupingStats m_stats;  // mutable: a read error of the spill store is noted in const peek()
};

}  // namespace gapscan::stream
