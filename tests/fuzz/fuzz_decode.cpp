// libFuzzer target for one decompressor (GAPSCAN_FUZZ_ENCODING: gzip, zstd, bzip2 or xz): the
// input, given that encoding's magic bytes when it lacks them, is decoded and split into lines
// to the end or to the first error. A damaged archive must end in an error, never a crash or
// a hang.

#include <gapscan/source/decode.hpp>
#include <gapscan/source/line_reader.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#ifndef GAPSCAN_FUZZ_ENCODING
#error "GAPSCAN_FUZZ_ENCODING must name an encoding"
#endif

namespace {

std::string_view magic() {
  const std::string_view encoding = GAPSCAN_FUZZ_ENCODING;
  if (encoding == "gzip") return std::string_view("\x1f\x8b", 2);
  if (encoding == "zstd") return std::string_view("\x28\xb5\x2f\xfd", 4);
  if (encoding == "bzip2") return "BZh";
  if (encoding == "xz")
    return std::string_view(
        "\xfd"
        "7zXZ\0",
        6);
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (!bytes.starts_with(magic())) bytes.insert(0, magic());
  gapscan::source::Encoding encoding{};
  auto decoded =
      gapscan::source::open_decoded(gapscan::source::make_string_source(std::move(bytes)), "fuzz", &encoding);
  // Small chunks so that lines straddle refills.
  gapscan::source::LineReader reader(std::move(decoded), 4096);
  std::uint64_t lines = 0;
  while (auto line = reader.next()) {
    if (line->number != ++lines) __builtin_trap();
  }
  (void)reader.error();
  return 0;
}
