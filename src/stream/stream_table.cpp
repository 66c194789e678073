#include <gapscan/stream/stream_table.hpp>

#include <algorithm>
#include <cstring>

namespace gapscan::stream {

struct StreamTable::Stream {
  std::string key;  // map key: the group key, or "\x01<input>" for a whole-input stream
  bool keyed = true;
  SourceId input = 0;
  std::uint64_t order = 0;  // first appearance, for a deterministic finish()
  std::uint32_t window_index = 0;
  bool only_carried = false;  // the single entry is the last one of the previous window
  TimeNs last_time = 0;
  std::vector<Entry> entries;
  std::string text;
  Stream* prev = nullptr;
  Stream* next = nullptr;
};

std::size_t StreamTable::KeyHash::operator()(std::string_view key) const noexcept {
  // FNV-1a: request ids are short; this is cheaper than std::hash on a temporary string.
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : key) hash = (hash ^ c) * 1099511628211ull;
  return static_cast<std::size_t>(hash);
}

StreamTable::StreamTable(GroupingOptions options, WindowSink sink) : m_options(options), m_sink(std::move(sink)) {}

StreamTable::~StreamTable() = default;

StreamTable::Stream& StreamTable::find_or_open(std::string_view key, SourceId input) {
  std::string_view map_key = key;
  if (key.empty()) {
    m_scratch_key.assign(1, '\x01');
    m_scratch_key += std::to_string(input);
    map_key = m_scratch_key;
  }
  if (auto it = m_streams.find(map_key); it != m_streams.end()) return *it->second;
  auto stream = std::make_unique<Stream>();
  stream->key = std::string(map_key);
  stream->keyed = !key.empty();
  stream->input = input;
  stream->order = m_next_order++;
  Stream& ref = *stream;
  m_streams.emplace(ref.key, std::move(stream));
  ++m_stats.streams;
  m_stats.peak_active = std::max(m_stats.peak_active, m_streams.size());
  return ref;
}

void StreamTable::unlink(Stream& stream) {
  if (stream.prev)
    stream.prev->next = stream.next;
  else if (m_lru_head == &stream)
    m_lru_head = stream.next;
  if (stream.next)
    stream.next->prev = stream.prev;
  else if (m_lru_tail == &stream)
    m_lru_tail = stream.prev;
  stream.prev = stream.next = nullptr;
}

void StreamTable::touch(Stream& stream) {
  if (m_lru_tail == &stream) return;
  unlink(stream);
  stream.prev = m_lru_tail;
  if (m_lru_tail) m_lru_tail->next = &stream;
  m_lru_tail = &stream;
  if (!m_lru_head) m_lru_head = &stream;
}

void StreamTable::add(const parse::Record& record, std::string_view raw_line, const LineLocation& location) {
  Stream& stream = find_or_open(record.group, location.source);
  const std::string_view kept = raw_line.substr(0, m_options.max_line_text);
  Entry entry;
  entry.time = record.time;
  entry.location = location;
  entry.text_offset = static_cast<std::uint32_t>(stream.text.size());
  entry.text_length = static_cast<std::uint32_t>(kept.size());
  entry.time_digits = record.time_digits;
  stream.text.append(kept);
  stream.entries.push_back(entry);
  stream.only_carried = false;
  stream.last_time = record.time;
  ++m_buffered;
  m_stats.peak_buffered = std::max(m_stats.peak_buffered, m_buffered);
  touch(stream);
  if (stream.entries.size() >= m_options.window_records) emit(stream, false);
  enforce_limits(record.time);
}

void StreamTable::emit(Stream& stream, bool last) {
  if (stream.entries.empty()) return;
  if (stream.only_carried) {  // nothing new since the last window
    m_buffered -= last ? stream.entries.size() : 0;
    return;
  }
  StreamWindow window;
  window.key = stream.keyed ? std::string_view(stream.key) : std::string_view();
  window.input = stream.input;
  window.window_index = stream.window_index++;
  window.entries = stream.entries;
  window.text = stream.text;
  ++m_stats.windows;
  m_sink(window);
  m_buffered -= stream.entries.size();
  if (last) return;
  // Keep the last entry so that the next window starts with the gap across the cut.
  Entry carried = stream.entries.back();
  std::string carried_text = stream.text.substr(carried.text_offset, carried.text_length);
  stream.entries.clear();
  stream.text.clear();
  carried.text_offset = 0;
  stream.text = std::move(carried_text);
  stream.entries.push_back(carried);
  stream.only_carried = true;
  ++m_buffered;
}

void StreamTable::close(Stream& stream) {
  emit(stream, true);
  unlink(stream);
  m_streams.erase(stream.key);  // destroys the stream
}

void StreamTable::enforce_limits(TimeNs now) {
  while (m_lru_head && m_lru_head != m_lru_tail && m_lru_head->last_time + m_options.idle_timeout < now) {
    ++m_stats.idle_closed;
    close(*m_lru_head);
  }
  while (m_buffered > m_options.max_buffered_records && m_lru_head) {
    Stream& oldest = *m_lru_head;
    ++m_stats.early_flushes;
    const bool single = oldest.entries.size() <= 1;
    if (single) {
      close(oldest);
    } else {
      emit(oldest, false);
      touch(oldest);  // move it to the back so that another stream is flushed next
    }
  }
}

void StreamTable::finish() {
  std::vector<Stream*> open;
  open.reserve(m_streams.size());
  for (auto& [key, stream] : m_streams) open.push_back(stream.get());
  std::sort(open.begin(), open.end(), [](const Stream* a, const Stream* b) { return a->order < b->order; });
  for (Stream* stream : open) close(*stream);
}

}  // namespace gapscan::stream
