// Decoders for compressed inputs. DecoderBase keeps the input buffer and the compressed
// offset, delivers decoded bytes before reporting damage, and knows whether the input ended
// inside a member (truncated) or between members; each format only implements decode().

#include <gapscan/source/decode.hpp>

#include <bzlib.h>
#include <fmt/format.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#ifdef GAPSCAN_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace gapscan::source {
namespace {

constexpr std::size_t k_input_chunk = 1u << 18;

/// Serves `head` (bytes already read to detect the encoding) before the rest of `source`.
/// A read error met while reading those bytes is reported once they have been served.
class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string head, std::unique_ptr<ByteSource> rest, std::optional<Diagnostic> error)
      : m_head(std::move(head)), m_rest(std::move(rest)), m_error(std::move(error)) {}
  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    if (m_position < m_head.size()) {
      const std::size_t n = std::min(capacity, m_head.size() - m_position);
      std::memcpy(buffer, m_head.data() + m_position, n);
      m_position += n;
      return n;
    }
    if (m_error) return unexpected(*m_error);
    return m_rest->read(buffer, capacity);
  }

 private:
  std::string m_head;
  std::size_t m_position = 0;
  std::unique_ptr<ByteSource> m_rest;
  std::optional<Diagnostic> m_error;
};

/// What one decode() call did.
struct Step {
  std::size_t consumed = 0;     ///< compressed bytes used
  std::size_t produced = 0;     ///< decoded bytes written
  bool member_end = false;      ///< a member/stream/frame ended exactly here
  const char* error = nullptr;  ///< the data is damaged: why
};

class DecoderBase : public ByteSource {
 public:
  DecoderBase(std::unique_ptr<ByteSource> raw, std::string name, std::string format)
      : m_raw(std::move(raw)), m_name(std::move(name)), m_format(std::move(format)), m_input(k_input_chunk) {}

  Expected<std::size_t> read(char* buffer, std::size_t capacity) override {
    if (m_error) {
      Diagnostic error = std::move(*m_error);
      m_error.reset();
      m_finished = true;
      return unexpected(std::move(error));
    }
    while (!m_finished) {
      if (m_in_used == m_in_size && !refill()) {
        m_finished = true;
        if (m_raw_error) return unexpected(*m_raw_error);
        if (m_in_member && !finish_at_end()) return truncated();
        return std::size_t{0};
      }
      const Step step = decode(m_input.data() + m_in_used, m_in_size - m_in_used, buffer, capacity);
      m_in_used += step.consumed;
      if (step.consumed > 0 || step.produced > 0) m_in_member = true;
      if (step.member_end) m_in_member = false;
      if (step.error != nullptr) {
        m_error = damaged(step.error);
        if (step.produced > 0) return step.produced;  // deliver what was decoded, then the error
        return read(buffer, capacity);
      }
      if (step.produced > 0) return step.produced;
    }
    return std::size_t{0};
  }

 protected:
  /// Decodes from `in`; called with at least one input byte.
  virtual Step decode(const char* in, std::size_t in_size, char* out, std::size_t out_size) = 0;
  /// Called at the end of the input while inside a member: true if the decoder can still
  /// complete it (e.g. xz needs an explicit finish), false if the data is truncated.
  virtual bool finish_at_end() { return false; }

 private:
  bool refill() {
    if (m_raw_eof) return false;
    m_consumed += m_in_size;
    m_in_used = m_in_size = 0;
    auto n = m_raw->read(m_input.data(), m_input.size());
    if (!n) {
      m_raw_error = n.error();
      m_raw_eof = true;
      return false;
    }
    m_in_size = *n;
    if (m_in_size == 0) m_raw_eof = true;
    return m_in_size > 0;
  }

  std::uint64_t offset() const { return m_consumed + m_in_used; }

  Diagnostic damaged(std::string_view why) const {
    return make_error(m_name,
                      fmt::format("{} data is damaged at compressed byte offset {}: {}", m_format, offset(), why),
                      "the lines before the damage were read");
  }

  Unexpected truncated() const {
    return unexpected(make_error(
        m_name, fmt::format("{} data ends early (truncated) at compressed byte offset {}", m_format, offset()),
        "the lines before the end were read"));
  }

  std::unique_ptr<ByteSource> m_raw;
  std::string m_name;
  std::string m_format;
  std::vector<char> m_input;
  std::size_t m_in_size = 0;
  std::size_t m_in_used = 0;
  std::uint64_t m_consumed = 0;
  bool m_raw_eof = false;
  bool m_in_member = false;
  bool m_finished = false;
  std::optional<Diagnostic> m_raw_error;
  std::optional<Diagnostic> m_error;
};

#ifdef GAPSCAN_HAVE_ISAL
/// gzip with ISA-L's igzip (about twice zlib's speed), including multi-member files: a member
/// is complete when its trailer is checked (ISAL_BLOCK_FINISH); the bytes after it, which
/// isal_inflate hands back, start the next one.
class IsalGzipDecoder final : public DecoderBase {
 public:
  IsalGzipDecoder(std::unique_ptr<ByteSource> raw, std::string name)
      : DecoderBase(std::move(raw), std::move(name), "gzip"), m_state(std::make_unique<inflate_state>()) {
    start();
  }

 private:
  void start() {
    isal_inflate_init(m_state.get());
    m_state->crc_flag = ISAL_GZIP;
  }

  Step decode(const char* in, std::size_t in_size, char* out, std::size_t out_size) override {
    Step step;
    m_state->next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in));
    m_state->avail_in = static_cast<std::uint32_t>(std::min<std::size_t>(in_size, 1u << 30));
    m_state->next_out = reinterpret_cast<std::uint8_t*>(out);
    m_state->avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(out_size, 1u << 30));
    const std::uint32_t in_before = m_state->avail_in, out_before = m_state->avail_out;
    const int status = isal_inflate(m_state.get());
    step.consumed = in_before - m_state->avail_in;
    step.produced = out_before - m_state->avail_out;
    if (status < 0) {
      step.error = status == ISAL_INCORRECT_CHECKSUM   ? "incorrect data check"
                   : status == ISAL_INVALID_WRAPPER    ? "incorrect header"
                   : status == ISAL_UNSUPPORTED_METHOD ? "unknown compression method"
                                                       : "invalid compressed data";
    } else if (status == ISAL_NEED_DICT) {
      step.error = "needs a dictionary";
    } else if (m_state->block_state == ISAL_BLOCK_FINISH) {
      step.member_end = true;
      start();
    }
    return step;
  }

  std::unique_ptr<inflate_state> m_state;  // large (tens of KiB): on the heap
};
#endif

/// gzip, including multi-member files (each member ends with Z_STREAM_END; the next one
/// starts right after).
class GzipDecoder final : public DecoderBase {
 public:
  GzipDecoder(std::unique_ptr<ByteSource> raw, std::string name)
      : DecoderBase(std::move(raw), std::move(name), "gzip") {
    m_ok = inflateInit2(&m_stream, 15 + 16) == Z_OK;
  }
  ~GzipDecoder() override { inflateEnd(&m_stream); }
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;

 private:
  Step decode(const char* in, std::size_t in_size, char* out, std::size_t out_size) override {
    Step step;
    if (!m_ok) {
      step.error = "cannot start the decoder";
      return step;
    }
    m_stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    m_stream.avail_in = static_cast<uInt>(std::min<std::size_t>(in_size, 1u << 30));
    m_stream.next_out = reinterpret_cast<Bytef*>(out);
    m_stream.avail_out = static_cast<uInt>(std::min<std::size_t>(out_size, 1u << 30));
    const uInt in_before = m_stream.avail_in, out_before = m_stream.avail_out;
    const int status = inflate(&m_stream, Z_NO_FLUSH);
    step.consumed = in_before - m_stream.avail_in;
    step.produced = out_before - m_stream.avail_out;
    if (status == Z_STREAM_END) {
      step.member_end = true;
      inflateReset(&m_stream);
    } else if (status != Z_OK && status != Z_BUF_ERROR) {
      step.error = m_stream.msg != nullptr ? m_stream.msg : "invalid data";
    }
    return step;
  }

  z_stream m_stream{};
  bool m_ok = false;
};

/// zstd; the decompression context continues across concatenated frames by itself.
class ZstdDecoder final : public DecoderBase {
 public:
  ZstdDecoder(std::unique_ptr<ByteSource> raw, std::string name)
      : DecoderBase(std::move(raw), std::move(name), "zstd"), m_context(ZSTD_createDStream()) {}
  ~ZstdDecoder() override { ZSTD_freeDStream(m_context); }
  ZstdDecoder(const ZstdDecoder&) = delete;
  ZstdDecoder& operator=(const ZstdDecoder&) = delete;

 private:
  Step decode(const char* in, std::size_t in_size, char* out, std::size_t out_size) override {
    Step step;
    ZSTD_inBuffer input{in, in_size, 0};
    ZSTD_outBuffer output{out, out_size, 0};
    const std::size_t status = ZSTD_decompressStream(m_context, &output, &input);
    step.consumed = input.pos;
    step.produced = output.pos;
    if (ZSTD_isError(status)) {
      step.error = ZSTD_getErrorName(status);
    } else if (status == 0) {
      step.member_end = true;  // a frame is complete
    }
    return step;
  }

  ZSTD_DStream* m_context;
};

/// bzip2, including concatenated streams (as pbzip2 writes them).
class Bzip2Decoder final : public DecoderBase {
 public:
  Bzip2Decoder(std::unique_ptr<ByteSource> raw, std::string name)
      : DecoderBase(std::move(raw), std::move(name), "bzip2") {
    m_ok = BZ2_bzDecompressInit(&m_stream, 0, 0) == BZ_OK;
  }
  ~Bzip2Decoder() override { BZ2_bzDecompressEnd(&m_stream); }
  Bzip2Decoder(const Bzip2Decoder&) = delete;
  Bzip2Decoder& operator=(const Bzip2Decoder&) = delete;

 private:
  Step decode(const char* in, std::size_t in_size, char* out, std::size_t out_size) override {
    Step step;
    if (!m_ok) {
      step.error = "cannot start the decoder";
      return step;
    }
    m_stream.next_in = const_cast<char*>(in);
    m_stream.avail_in = static_cast<unsigned>(std::min<std::size_t>(in_size, 1u << 30));
    m_stream.next_out = out;
    m_stream.avail_out = static_cast<unsigned>(std::min<std::size_t>(out_size, 1u << 30));
    const unsigned in_before = m_stream.avail_in, out_before = m_stream.avail_out;
    const int status = BZ2_bzDecompress(&m_stream);
    step.consumed = in_before - m_stream.avail_in;
    step.produced = out_before - m_stream.avail_out;
    if (status == BZ_STREAM_END) {
      step.member_end = true;
      BZ2_bzDecompressEnd(&m_stream);
      m_stream = bz_stream{};
      m_ok = BZ2_bzDecompressInit(&m_stream, 0, 0) == BZ_OK;
    } else if (status != BZ_OK) {
      step.error = status == BZ_DATA_ERROR_MAGIC ? "not bzip2 data" : "invalid data";
    }
    return step;
  }

  bz_stream m_stream{};
  bool m_ok = false;
};

/// xz, including concatenated streams.
class XzDecoder final : public DecoderBase {
 public:
  XzDecoder(std::unique_ptr<ByteSource> raw, std::string name) : DecoderBase(std::move(raw), std::move(name), "xz") {
    m_ok = lzma_stream_decoder(&m_stream, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
  }
  ~XzDecoder() override { lzma_end(&m_stream); }
  XzDecoder(const XzDecoder&) = delete;
  XzDecoder& operator=(const XzDecoder&) = delete;

 private:
  Step decode(const char* in, std::size_t in_size, char* out, std::size_t out_size) override {
    return run(in, in_size, out, out_size, LZMA_RUN);
  }

  bool finish_at_end() override {
    // With LZMA_CONCATENATED the decoder only knows the last stream is complete when told
    // that no input follows.
    char unused[1];
    const Step step = run(unused, 0, unused, 0, LZMA_FINISH);
    return step.member_end;
  }

  Step run(const char* in, std::size_t in_size, char* out, std::size_t out_size, lzma_action action) {
    Step step;
    if (!m_ok) {
      step.error = "cannot start the decoder";
      return step;
    }
    m_stream.next_in = reinterpret_cast<const std::uint8_t*>(in);
    m_stream.avail_in = in_size;
    m_stream.next_out = reinterpret_cast<std::uint8_t*>(out);
    m_stream.avail_out = out_size;
    const lzma_ret status = lzma_code(&m_stream, action);
    step.consumed = in_size - m_stream.avail_in;
    step.produced = out_size - m_stream.avail_out;
    if (status == LZMA_STREAM_END) {
      step.member_end = true;
    } else if (status != LZMA_OK && !(status == LZMA_BUF_ERROR && action == LZMA_RUN)) {
      step.error = status == LZMA_DATA_ERROR     ? "invalid data"
                   : status == LZMA_FORMAT_ERROR ? "not xz data"
                   : status == LZMA_BUF_ERROR    ? "unexpected end"
                                                 : "decoder error";
    }
    return step;
  }

  lzma_stream m_stream = LZMA_STREAM_INIT;
  bool m_ok = false;
};

}  // namespace

std::string_view to_string(Encoding encoding) {
  switch (encoding) {
    case Encoding::plain:
      return "plain";
    case Encoding::gzip:
      return "gzip";
    case Encoding::zstd:
      return "zstd";
    case Encoding::bzip2:
      return "bzip2";
    case Encoding::xz:
      return "xz";
  }
  return "plain";
}

Encoding detect_encoding(std::string_view head) {
  auto starts = [&](std::string_view magic) { return head.substr(0, magic.size()) == magic; };
  if (starts("\x1f\x8b")) return Encoding::gzip;
  if (starts("\x28\xb5\x2f\xfd")) return Encoding::zstd;
  if (starts("BZh") && head.size() >= 4 && head[3] >= '1' && head[3] <= '9') return Encoding::bzip2;
  if (starts(std::string_view("\xfd"
                              "7zXZ\0",
                              6)))
    return Encoding::xz;
  return Encoding::plain;
}

std::unique_ptr<ByteSource> open_decoded(std::unique_ptr<ByteSource> raw, const std::string& name, Encoding* encoding) {
  // Read up to 6 bytes (the longest magic); a short first read of a pipe is completed.
  std::string head(6, '\0');
  std::size_t have = 0;
  std::optional<Diagnostic> error;
  while (have < head.size()) {
    auto n = raw->read(head.data() + have, head.size() - have);
    if (!n) {
      error = n.error();
      break;
    }
    if (*n == 0) break;
    have += *n;
  }
  head.resize(have);
  const Encoding found = detect_encoding(head);
  if (encoding != nullptr) *encoding = found;
  auto source = std::make_unique<PrefixedSource>(std::move(head), std::move(raw), std::move(error));
  switch (found) {
    case Encoding::gzip:
#ifdef GAPSCAN_HAVE_ISAL
      return std::make_unique<IsalGzipDecoder>(std::move(source), name);
#else
      return std::make_unique<GzipDecoder>(std::move(source), name);
#endif
    case Encoding::zstd:
      return std::make_unique<ZstdDecoder>(std::move(source), name);
    case Encoding::bzip2:
      return std::make_unique<Bzip2Decoder>(std::move(source), name);
    case Encoding::xz:
      return std::make_unique<XzDecoder>(std::move(source), name);
    case Encoding::plain:
      break;
  }
  return source;
}

}  // namespace gapscan::source
