#include <gapscan/source/decode.hpp>
#include <gapscan/source/line_reader.hpp>

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>
#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan;
using namespace gapscan::source;

namespace {

std::string gzip(const std::string& text) {
  z_stream stream{};
  REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  std::string out(deflateBound(&stream, static_cast<uLong>(text.size())) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

std::string zstd(const std::string& text) {
  std::string out(ZSTD_compressBound(text.size()), '\0');
  const std::size_t n = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
  REQUIRE_FALSE(ZSTD_isError(n));
  out.resize(n);
  return out;
}

std::string bzip2(const std::string& text) {
  std::string out(text.size() * 2 + 600, '\0');
  auto size = static_cast<unsigned>(out.size());
  // 100 kB blocks: bzip2 decodes whole blocks, so a truncated file keeps the blocks before the cut.
  REQUIRE(BZ2_bzBuffToBuffCompress(out.data(), &size, const_cast<char*>(text.data()),
                                   static_cast<unsigned>(text.size()), 1, 0, 0) == BZ_OK);
  out.resize(size);
  return out;
}

std::string xz(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t position = 0;
  REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                                  text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &position,
                                  out.size()) == LZMA_OK);
  out.resize(position);
  return out;
}

struct Decoded {
  std::vector<std::string> lines;
  std::optional<Diagnostic> error;
  Encoding encoding = Encoding::plain;
};

Decoded decode(const std::string& bytes) {
  Decoded result;
  LineReader reader(open_decoded(make_string_source(bytes), "test.log.x", &result.encoding), 4096);
  while (auto line = reader.next()) result.lines.emplace_back(line->text);
  result.error = reader.error();
  return result;
}

std::string numbered_lines(int first, int count) {
  std::string text;
  for (int i = first; i < first + count; ++i) text += "2026-11-29T10:00:00Z line " + std::to_string(i) + "\n";
  return text;
}

}  // namespace

TEST_CASE("Archives are recognised by their magic bytes and decoded, members concatenated", "[source][decode]") {
  const std::string part1 = numbered_lines(0, 3000);
  const std::string part2 = numbered_lines(3000, 2000);
  using Compressor = std::string (*)(const std::string&);
  const std::vector<std::pair<Encoding, Compressor>> cases = {
      {Encoding::gzip, gzip}, {Encoding::zstd, zstd}, {Encoding::bzip2, bzip2}, {Encoding::xz, xz}};
  for (const auto& [encoding, compress] : cases) {
    INFO(to_string(encoding));
    const Decoded result = decode(compress(part1) + compress(part2));  // two members, as `cat a.gz b.gz`
    CHECK(result.encoding == encoding);
    CHECK_FALSE(result.error.has_value());
    REQUIRE(result.lines.size() == 5000);
    CHECK(result.lines.front() == "2026-11-29T10:00:00Z line 0");
    CHECK(result.lines.back() == "2026-11-29T10:00:00Z line 4999");
  }
  const Decoded plain = decode(part1);
  CHECK(plain.encoding == Encoding::plain);
  CHECK(plain.lines.size() == 3000);
}

TEST_CASE("A truncated archive keeps the lines before the end and names the offset", "[source][decode]") {
  using Compressor = std::string (*)(const std::string&);
  for (Compressor compress : {gzip, zstd, bzip2, xz}) {
    const std::string whole = compress(numbered_lines(0, 20000));
    const Decoded result = decode(whole.substr(0, whole.size() * 2 / 3));
    REQUIRE(result.error.has_value());
    INFO(result.error->message);
    CHECK(result.error->where == "test.log.x");
    CHECK(result.error->message.find("compressed byte offset") != std::string::npos);
    CHECK(result.lines.size() > 1000);
    CHECK(result.lines.size() < 20000);
  }
}

TEST_CASE("A damaged archive is reported as damaged, with the lines before the damage", "[source][decode]") {
  std::string whole = gzip(numbered_lines(0, 20000));
  for (std::size_t i = whole.size() / 2; i < whole.size() / 2 + 64; ++i) whole[i] = static_cast<char>(whole[i] ^ 0x5a);
  const Decoded result = decode(whole);
  REQUIRE(result.error.has_value());
  CHECK(result.error->message.rfind("gzip data is damaged at compressed byte offset", 0) == 0);
  CHECK(result.error->hint == "the lines before the damage were read");
  CHECK_FALSE(result.lines.empty());
}

TEST_CASE("Magic bytes, not names, decide the encoding", "[source][decode]") {
  CHECK(detect_encoding("\x1f\x8b\x08") == Encoding::gzip);
  CHECK(detect_encoding("\x28\xb5\x2f\xfd") == Encoding::zstd);
  CHECK(detect_encoding("BZh9") == Encoding::bzip2);
  CHECK(detect_encoding(std::string_view("\xfd"
                                         "7zXZ\0",
                                         6)) == Encoding::xz);
  CHECK(detect_encoding("BZh") == Encoding::plain);
  CHECK(detect_encoding("2026-11-29") == Encoding::plain);
}
