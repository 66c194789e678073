#include <gapscan/source/line_reader.hpp>

#include <algorithm>
#include <cstring>

namespace gapscan::source {

LineReader::LineReader(std::unique_ptr<ByteSource> source, std::size_t chunk_size)
    : m_source(std::move(source)),
      m_buffer(std::make_shared<std::vector<char>>(2 * chunk_size + k_padding)),
      m_chunk(chunk_size) {
  m_pool.push_back(m_buffer);
}

bool LineReader::fill() {
  if (m_eof) return false;
  // Move the unfinished line to the front (of another buffer if this one is pinned), then
  // make room for one more chunk.
  const std::size_t pending = m_end - m_begin;
  if (m_buffer.use_count() > 2) {  // pinned: more handles than the pool's and m_buffer
    std::shared_ptr<std::vector<char>> next;
    for (const auto& buffer : m_pool) {
      if (buffer.use_count() == 1) {
        next = buffer;
        break;
      }
    }
    if (!next) {
      next = std::make_shared<std::vector<char>>(m_buffer->size());
      m_pool.push_back(next);
    }
    if (next->size() < pending + m_chunk + k_padding) next->resize(pending + m_chunk + k_padding);
    std::memcpy(next->data(), m_buffer->data() + m_begin, pending);
    m_buffer = std::move(next);
    m_consumed_offset += m_begin;
    m_begin = 0;
    m_end = pending;
  } else if (m_begin > 0) {
    std::memmove(m_buffer->data(), m_buffer->data() + m_begin, pending);
    m_consumed_offset += m_begin;
    m_begin = 0;
    m_end = pending;
  }
  std::vector<char>& buffer = *m_buffer;
  if (buffer.size() < m_end + m_chunk + k_padding) buffer.resize(m_end + m_chunk + k_padding);
  auto n = m_source->read(buffer.data() + m_end, m_chunk);
  if (!n) {
    m_error = n.error();
    m_eof = true;
    return false;
  }
  if (*n == 0) {
    m_eof = true;
    return false;
  }
  m_end += *n;
  return true;
}

bool LineReader::skip_rest() {
  // The rest of a truncated line: dropped chunk by chunk up to and including its newline.
  for (;;) {
    const char* start = m_buffer->data() + m_begin;
    const void* newline = std::memchr(start, '\n', m_end - m_begin);
    if (newline != nullptr) {
      m_begin += static_cast<std::size_t>(static_cast<const char*>(newline) - start) + 1;
      m_skipping = false;
      return true;
    }
    m_begin = m_end;
    if (!fill()) {
      m_skipping = false;
      return false;
    }
  }
}

std::optional<Line> LineReader::next() {
  for (;;) {
    if (m_skipping && !skip_rest()) return std::nullopt;
    const char* start = m_buffer->data() + m_begin;
    const std::size_t available = m_end - m_begin;
    const void* newline = std::memchr(start, '\n', available);
    std::size_t length = 0;
    std::size_t consumed = 0;
    bool truncated = false;
    if (newline != nullptr) {
      length = static_cast<std::size_t>(static_cast<const char*>(newline) - start);
      consumed = length + 1;
    } else if (available >= k_max_line) {
      length = consumed = k_max_line;
      truncated = true;
      m_skipping = true;
    } else if (fill()) {
      continue;
    } else if (available > 0) {
      length = consumed = available;  // last line without a newline
    } else {
      return std::nullopt;
    }
    start = m_buffer->data() + m_begin;  // fill() may have moved the data
    Line line;
    line.offset = m_consumed_offset + m_begin;
    line.number = ++m_line_number;
    line.truncated = truncated;
    if (length > 0 && start[length - 1] == '\r' && !truncated) --length;
    line.text = std::string_view(start, length);
    m_begin += consumed;
    return line;
  }
}

}  // namespace gapscan::source
