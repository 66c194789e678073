#include <gapscan/stream/stream_table.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

namespace gapscan::stream {

struct StreamTable::Stream {
  explicit Stream(std::pmr::memory_resource* memory) : entries(memory), text(memory), marks(memory) {}
  std::string key;         // map key: the group key, or "\x01<input>" for a whole-input stream
  std::uint64_t hash = 0;  // of key
  bool keyed = true;
  SourceId input = 0;
  std::uint64_t order = 0;  // first appearance: the stream id, and the order of finish()
  std::uint32_t window_index = 0;
  bool only_carried = false;  // the single entry is the last one of the previous window
  TimeNs last_time = 0;
  std::pmr::vector<Entry> entries;
  // The entries' text: its first `spilled` bytes are in the spill store (in `chunks`, in
  // order), the rest in `text`. Entry::text_offset counts from the first byte of all of it.
  std::pmr::string text;
  std::pmr::vector<LineMark> marks;  // of the entries since the last window
  bool marked = true;                // every entry since the last window was marked
  // The text file of its input (StreamTable::set_text_file), if any: its entries from that
  // input keep no text.
  std::shared_ptr<const source::LineText> text_file;
  std::uint32_t spilled = 0;
  std::vector<SpillStore::Chunk> chunks;
  List* list = nullptr;
  Stream* prev = nullptr;
  Stream* next = nullptr;
  bool spillable = false;  // in the spillable list
  Stream* spill_prev = nullptr;
  Stream* spill_next = nullptr;
};

namespace {

// An intrusive list of streams, through the links `Prev` and `Next` of each: a stream is on the
// LRU list of its state (StreamTable::List) and, with enough text, on the spillable list.
template <auto Prev, auto Next, typename Stream>
void link_last(Stream*& head, Stream*& tail, Stream& stream) {
  stream.*Prev = tail;
  stream.*Next = nullptr;
  if (tail)
    tail->*Next = &stream;
  else
    head = &stream;
  tail = &stream;
}

template <auto Prev, auto Next, typename Stream>
void unlink(Stream*& head, Stream*& tail, Stream& stream) {
  if (stream.*Prev)
    stream.*Prev->*Next = stream.*Next;
  else
    head = stream.*Next;
  if (stream.*Next)
    stream.*Next->*Prev = stream.*Prev;
  else
    tail = stream.*Prev;
  stream.*Prev = stream.*Next = nullptr;
}

}  // namespace

void StreamTable::List::push_back(Stream& stream) {
  link_last<&Stream::prev, &Stream::next>(head, tail, stream);
  ++size;
}

void StreamTable::List::remove(Stream& stream) {
  unlink<&Stream::prev, &Stream::next>(head, tail, stream);
  --size;
}

std::uint64_t StreamTable::hash_key(std::string_view key) noexcept {
  // Eight bytes at a time with a multiply-xorshift mix: request ids are 8-40 bytes, hashed
  // once per line.
  std::uint64_t hash = 0x9e3779b97f4a7c15ull ^ key.size();
  std::size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, key.data() + i, 8);
    hash = (hash ^ word) * 0xbf58476d1ce4e5b9ull;
    hash ^= hash >> 31;
  }
  std::uint64_t tail = 0;
  std::memcpy(&tail, key.data() + i, key.size() - i);
  hash = (hash ^ tail) * 0x94d049bb133111ebull;
  return hash ^ (hash >> 29);
}

StreamTable::Stream* StreamTable::Index::find(std::string_view key, std::uint64_t hash) const {
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = m_slots[i];
    if (slot.stream == nullptr) return nullptr;
    if (slot.hash == hash && slot.stream->key == key) return slot.stream;
  }
}

void StreamTable::Index::insert(Stream* stream) {
  if (2 * (m_size + 1) > m_slots.size()) grow();
  const std::size_t mask = m_slots.size() - 1;
  std::size_t i = stream->hash & mask;
  while (m_slots[i].stream != nullptr) i = (i + 1) & mask;
  m_slots[i] = {stream->hash, stream};
  ++m_size;
}

void StreamTable::Index::erase(const Stream* stream) {
  const std::size_t mask = m_slots.size() - 1;
  std::size_t i = stream->hash & mask;
  while (m_slots[i].stream != stream) i = (i + 1) & mask;
  // Backward-shift deletion: later slots of the probe run move up, so no tombstones are needed.
  for (std::size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
    if (m_slots[j].stream == nullptr) break;
    const std::size_t home = m_slots[j].hash & mask;
    // The slot at j may fill the hole at i when its home is not cyclically within (i, j].
    if (((j - home) & mask) >= ((j - i) & mask)) {
      m_slots[i] = m_slots[j];
      i = j;
    }
  }
  m_slots[i] = {};
  --m_size;
}

void StreamTable::Index::grow() {
  std::vector<Slot> old(m_slots.size() * 2);
  old.swap(m_slots);
  m_size = 0;
  for (const Slot& slot : old)
    if (slot.stream) insert(slot.stream);
}

namespace {
constexpr std::size_t k_max_spare = 4096;  // closed streams kept for reuse
constexpr std::size_t k_min_spill = 1024;  // bytes of text a stream needs to have it spilled
}  // namespace

StreamTable::StreamTable(GroupingOptions options, WindowSink sink)
    : m_options(std::move(options)),
      m_memory(m_options.memory ? m_options.memory : &m_own_memory),
      m_sink(std::move(sink)) {
  if (m_options.spill) m_spill = std::make_unique<SpillStore>(m_options.spill_directory);
}

StreamTable::~StreamTable() {
  m_streams.for_each([](Stream* stream) { delete stream; });
}

std::size_t StreamTable::bytes_of(const Stream& stream) const {
  return stream.entries.capacity() * sizeof(Entry) + stream.text.capacity() +
         stream.chunks.capacity() * sizeof(SpillStore::Chunk) + stream.marks.capacity() * sizeof(LineMark);
}

void StreamTable::count(Stream& stream) {
  m_buffered_bytes += bytes_of(stream);
  unlink_spillable(stream);
  if (stream.text.size() >= k_min_spill) {
    m_spillable_bytes += stream.text.capacity();
    link_spillable(stream);  // last: the most recently changed
  }
}

void StreamTable::link_spillable(Stream& stream) {
  stream.spillable = true;
  link_last<&Stream::spill_prev, &Stream::spill_next>(m_spillable_head, m_spillable_tail, stream);
}

void StreamTable::unlink_spillable(Stream& stream) {
  if (!stream.spillable) return;
  unlink<&Stream::spill_prev, &Stream::spill_next>(m_spillable_head, m_spillable_tail, stream);
  stream.spillable = false;
}

void StreamTable::forget(const Stream& stream) {
  m_buffered_bytes -= bytes_of(stream);
  if (stream.text.size() >= k_min_spill) m_spillable_bytes -= stream.text.capacity();
}

StreamTable::Stream& StreamTable::find_or_open(std::string_view key, SourceId input) {
  std::string_view map_key = key;
  char whole_input[16];  // "\x01<input>": cannot collide with a request id, which is printable
  if (key.empty()) {
    whole_input[0] = '\x01';
    const auto end = std::to_chars(whole_input + 1, whole_input + sizeof whole_input, input).ptr;
    map_key = std::string_view(whole_input, static_cast<std::size_t>(end - whole_input));
  }
  const std::uint64_t hash = hash_key(map_key);
  if (Stream* found = m_streams.find(map_key, hash)) return *found;
  std::unique_ptr<Stream> stream;
  if (m_spare.empty()) {
    stream = std::make_unique<Stream>(m_memory);
  } else {
    stream = std::move(m_spare.back());
    m_spare.pop_back();
  }
  stream->key.assign(map_key);
  stream->hash = hash;
  stream->keyed = !key.empty();
  stream->input = input;
  stream->order = m_next_order++;
  stream->window_index = 0;
  stream->only_carried = false;
  stream->last_time = 0;
  stream->marked = true;
  stream->text_file = input < m_text_files.size() ? m_text_files[input] : nullptr;
  // Counted from the start (an empty string's inline buffer is capacity too): close() takes
  // away all of bytes_of(), so the count returns to zero when every stream is closed.
  count(*stream);
  Stream& ref = *stream;
  m_streams.insert(stream.release());
  ref.list = &m_active;
  m_active.push_back(ref);
  ++m_stats.streams;
  m_stats.peak_active = std::max(m_stats.peak_active, m_streams.size());
  return ref;
}

void StreamTable::move_to(Stream& stream, List& list) {
  stream.list->remove(stream);
  stream.list = &list;
  list.push_back(stream);
}

std::string StreamWindow::read_text(const Entry& entry) const {
  if (entry.has_text() || !text_file) return std::string(line_text(entry));
  std::string out;
  text_file->read(entry.location.offset, entry.text_length, out);
  return out;
}

void StreamTable::set_text_file(SourceId input, std::shared_ptr<const source::LineText> file) {
  if (m_text_files.size() <= input) m_text_files.resize(input + 1);
  m_text_files[input] = std::move(file);
}

void StreamTable::add(const parse::Record& record, std::string_view raw_line, const LineLocation& location,
                      const LineMarks& marks) {
  Stream& stream = find_or_open(record.group, location.source);
  const std::string_view kept = raw_line.substr(0, m_options.max_line_text);
  const std::string_view fields = record.fields.substr(0, m_options.max_line_fields);
  if (!stream.entries.empty()) m_pauses.add(record.time - stream.last_time);
  forget(stream);
  Entry entry;
  entry.time = record.time;
  entry.location = location;
  entry.text_offset = static_cast<std::uint32_t>(stream.spilled + stream.text.size());
  entry.text_length = static_cast<std::uint32_t>(kept.size());
  entry.time_digits = record.time_digits;
  entry.completion = record.completion || record.duration >= 0;
  entry.fields_length = static_cast<std::uint16_t>(fields.size());
  entry.template_id = record.template_id;
  // A marked line needs no text in the stream: the few lines that are read (trigger lines,
  // screened context, the examples of a report) are read back from the file of its input.
  const bool text_free = marks.known && stream.text_file != nullptr && location.source == stream.input;
  if (marks.known) entry.flags |= Entry::k_marked;
  if (marks.screened) entry.flags |= Entry::k_screened;
  if (text_free) entry.flags |= Entry::k_no_text;
  stream.marked = stream.marked && marks.known;
  for (const std::uint32_t spec : marks.triggers)
    stream.marks.push_back({static_cast<std::uint32_t>(stream.entries.size()), spec});
  if (record.duration >= 0) {
    entry.duration_us = static_cast<std::uint32_t>(
        std::min<DurationNs>(record.duration / k_ns_per_us, static_cast<DurationNs>(Entry::k_no_duration) - 1));
  }
  if (!text_free) stream.text.append(kept);
  stream.text.append(fields);
  stream.entries.push_back(entry);
  count(stream);
  m_stats.peak_buffered_bytes = std::max(m_stats.peak_buffered_bytes, m_buffered_bytes);
  stream.only_carried = false;
  stream.last_time = record.time;
  if (stream.list != &m_active || m_active.tail != &stream) move_to(stream, m_active);
  if (stream.entries.size() >= m_options.window_records) emit(stream);
  enforce_limits(record.time);
}

void StreamTable::emit(Stream& stream) {
  if (stream.only_carried || stream.entries.empty()) return;
  // Hand the entries and their text over, then start again from a copy of the last entry so
  // that the next window begins with the gap across the cut.
  forget(stream);
  if (stream.spilled > 0) {
    std::pmr::string all = text_of(stream);
    release_spilled(stream);
    stream.text.swap(all);
  }
  OwnedWindow window(m_memory);
  if (stream.keyed) window.key = stream.key;
  window.input = stream.input;
  window.stream_id = stream.order;
  window.window_index = stream.window_index++;
  Entry carried = stream.entries.back();
  std::pmr::string text(std::string_view(stream.text).substr(carried.text_offset, carried.stored_length()), m_memory);
  carried.text_offset = 0;
  window.entries.swap(stream.entries);
  window.text.swap(stream.text);
  window.marks.swap(stream.marks);
  window.marked = stream.marked;
  window.text_file = stream.text_file;
  stream.marked = true;
  stream.entries.push_back(carried);
  stream.text.swap(text);
  stream.only_carried = true;
  count(stream);
  move_to(stream, m_parked);
  ++m_stats.windows;
  m_sink(std::move(window));
}

void StreamTable::close(Stream& stream) {
  emit(stream);  // a stream that only carries its last entry has no spilled text: emit() read it back
  forget(stream);
  unlink_spillable(stream);
  stream.list->remove(stream);
  m_streams.erase(&stream);
  // Kept for the next stream to open, with its key's allocation; its buffers are freed, so that
  // what is buffered stays what bytes_of() counts.
  std::unique_ptr<Stream> spare(&stream);
  std::pmr::vector<Entry>(m_memory).swap(spare->entries);
  std::pmr::string(m_memory).swap(spare->text);  // (assigning an empty string would keep the buffer)
  std::vector<SpillStore::Chunk>().swap(spare->chunks);
  std::pmr::vector<LineMark>(m_memory).swap(spare->marks);
  spare->text_file.reset();
  if (m_spare.size() < k_max_spare) m_spare.push_back(std::move(spare));
}

void StreamTable::enforce_limits(TimeNs now) {
  for (List* list : {&m_active, &m_parked}) {
    while (list->head && list->head->last_time + m_options.idle_timeout < now) {
      ++m_stats.idle_closed;
      close(*list->head);
    }
  }
  // How long a stream must have been idle to count as ended; worked out once, when needed.
  DurationNs ended = -1;
  const auto ended_now = [&] { return ended >= 0 ? ended : (ended = ended_after()); };
  if (m_buffered_bytes > m_options.max_buffered_bytes) {
    // Requests that have ended go first, as they are: none has paused for that long, with no
    // line, while others went on. Then the text of those that pause goes to the spill store.
    ended_now();
    while (m_buffered_bytes > m_options.max_buffered_bytes && m_active.head && m_active.head->last_time + ended < now) {
      ++m_stats.early_flushes;
      emit(*m_active.head);
    }
    if (m_buffered_bytes > m_options.max_buffered_bytes) spill_least_recent();
  }
  while (m_buffered_bytes > m_options.max_buffered_bytes && m_active.head) {
    ++m_stats.early_flushes;
    emit(*m_active.head);
  }
  if (m_parked.size > m_options.max_parked) {
    // Least recently used first, and only those that have ended unless there are more than
    // max_parked_in_flight: one still in flight would go on as a new stream, the gap across
    // the cut lost (with 100 000 requests in flight, most of them).
    ended_now();
    while (m_parked.size > m_options.max_parked &&
           (m_parked.size > m_options.max_parked_in_flight || m_parked.head->last_time + ended < now)) {
      ++m_stats.forgotten;
      close(*m_parked.head);
    }
  }
}

void StreamTable::PauseScale::add(DurationNs gap) {
  std::size_t bin = 0;
  if (gap > 0) {
    const auto value = static_cast<std::uint64_t>(gap);
    const int octave = 63 - std::countl_zero(value);
    const std::uint64_t quarter = octave >= 2 ? (value >> (octave - 2)) & 3 : 0;
    bin = static_cast<std::size_t>(octave) * 4 + quarter;
  }
  ++m_bins[bin];
  ++m_count;
  m_top = std::max(m_top, bin + 1);
}

DurationNs StreamTable::PauseScale::quantile(double share) const {
  // The upper edge of the bin in which the share is reached, counting from the top.
  auto above = static_cast<std::uint64_t>(static_cast<double>(m_count) * (1 - share));
  for (std::size_t bin = m_top; bin-- > 0;) {  // the bins above m_top are empty
    if (m_bins[bin] > above) {
      const std::size_t octave = bin / 4;
      if (octave < 2) return 4;
      return static_cast<DurationNs>(std::min<std::uint64_t>((4 + bin % 4 + 1) << (octave - 2), INT64_MAX / 8));
    }
    above -= m_bins[bin];
  }
  return 0;
}

DurationNs StreamTable::ended_after() const {
  // Four times the pause that 999 of 1 000 gaps inside a stream stay below; until a thousand
  // gaps have been seen, nothing counts as ended before the idle timeout.
  if (m_pauses.count() < 1000) return m_options.idle_timeout;
  return std::min(m_options.idle_timeout, 4 * m_pauses.quantile(0.999));
}

void StreamTable::spill_least_recent() {
  // Text is worth writing out while it is a good part of the budget: down to three quarters of
  // it, least recently used streams first (those are the requests that have ended, or pause).
  // Each pass writes at least an eighth of the budget.
  // Streams with little text are passed over (a request of a few lines has few gaps to test,
  // and many small pieces would cost a read each): only the spillable list is walked. What is
  // still over the budget then is handed over early.
  const std::size_t floor = m_options.max_buffered_bytes / 8;
  if (!m_spill || m_spill->failed() || m_spillable_bytes < floor) return;
  const std::size_t target = m_options.max_buffered_bytes / 4 * 3;
  while (m_spillable_head && m_buffered_bytes > target) {
    if (!spill(*m_spillable_head)) return;  // which takes it out of the spillable list
  }
}

bool StreamTable::spill(Stream& stream) {
  if (stream.text.empty()) return true;
  SpillStore::Chunk chunk;
  if (!m_spill->append(stream.text, chunk)) {
    m_stats.spill_error = "could not keep line text in a temporary file (" + m_spill->error() +
                          "): requests that did not fit in memory were analysed in pieces";
    return false;
  }
  forget(stream);
  stream.chunks.push_back(chunk);
  stream.spilled += chunk.length;
  std::pmr::string(m_memory).swap(stream.text);
  count(stream);
  ++m_stats.spills;
  m_stats.spilled_bytes += chunk.length;
  m_stats.peak_spill_held = std::max(m_stats.peak_spill_held, m_spill->bytes_held());
  return true;
}

std::pmr::string StreamTable::text_of(const Stream& stream) const {
  std::pmr::string all(m_memory);
  all.reserve(stream.spilled + stream.text.size());
  for (const SpillStore::Chunk& chunk : stream.chunks) {
    if (!m_spill->read(chunk, all) && m_stats.spill_error.empty())
      m_stats.spill_error = "could not read line text back from a temporary file: some example lines are blank";
  }
  all.append(stream.text);
  return all;
}

void StreamTable::release_spilled(Stream& stream) {
  for (const SpillStore::Chunk& chunk : stream.chunks) m_spill->release(chunk);
  stream.chunks.clear();
  stream.spilled = 0;
}

void StreamTable::finish() {
  std::vector<Stream*> open;
  open.reserve(m_streams.size());
  m_streams.for_each([&](Stream* stream) { open.push_back(stream); });
  std::sort(open.begin(), open.end(), [](const Stream* a, const Stream* b) { return a->order < b->order; });
  for (Stream* stream : open) close(*stream);
}

void StreamTable::peek(const std::function<void(const StreamWindow&)>& f) const {
  std::vector<const Stream*> open;
  open.reserve(m_streams.size());
  m_streams.for_each([&](const Stream* stream) {
    if (!stream->only_carried && !stream->entries.empty()) open.push_back(stream);
  });
  std::sort(open.begin(), open.end(), [](const Stream* a, const Stream* b) { return a->order < b->order; });
  for (const Stream* stream : open) {
    const std::pmr::string spilled_too = stream->spilled > 0 ? text_of(*stream) : std::pmr::string(m_memory);
    f(StreamWindow{stream->keyed ? std::string_view(stream->key) : std::string_view(), stream->input, stream->order,
                   stream->window_index, stream->entries, stream->spilled > 0 ? spilled_too : stream->text,
                   stream->marks, stream->marked, stream->text_file});
  }
}

}  // namespace gapscan::stream
