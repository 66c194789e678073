// Decoding speed alone: reads a file through gapscan's decoders (chosen by magic bytes, as a
// scan does) and its line splitter, and prints MB/s of decoded text. bench/compressed.sh
// compares it with zcat and zstdcat on the same file.
//
//   decode_speed FILE [--no-lines]

#include <gapscan/source/byte_source.hpp>
#include <gapscan/source/decode.hpp>
#include <gapscan/source/line_reader.hpp>

#include <fcntl.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: decode_speed FILE [--no-lines]\n");
    return 2;
  }
  const bool lines = !(argc > 2 && std::strcmp(argv[2], "--no-lines") == 0);
  const int fd = ::open(argv[1], O_RDONLY);
  if (fd < 0) {
    std::perror(argv[1]);
    return 1;
  }
  const auto start = std::chrono::steady_clock::now();
  gapscan::source::Encoding encoding{};
  auto source = gapscan::source::open_decoded(gapscan::source::make_fd_source(fd, argv[1]), argv[1], &encoding);
  std::uint64_t bytes = 0, count = 0;
  if (lines) {
    gapscan::source::LineReader reader(std::move(source));
    while (auto line = reader.next()) ++count;
    if (reader.error()) std::fprintf(stderr, "%s\n", reader.error()->message.c_str());
    bytes = reader.bytes_read();
  } else {
    std::vector<char> buffer(1u << 20);
    while (true) {
      auto n = source->read(buffer.data(), buffer.size());
      if (!n || *n == 0) break;
      bytes += *n;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s\t%llu bytes\t%llu lines\t%.3f s\t%.0f MB/s\n",
              std::string(gapscan::source::to_string(encoding)).c_str(), static_cast<unsigned long long>(bytes),
              static_cast<unsigned long long>(count), seconds, static_cast<double>(bytes) / 1e6 / seconds);
  return 0;
}
