#include <gapscan/stream/spill_store.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gapscan::stream;

namespace {

std::string bytes_of(std::size_t n, char seed) {
  std::string s(n, ' ');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (static_cast<std::size_t>(seed) + i * 7) % 26);
  return s;
}

std::string read_back(const SpillStore& store, const SpillStore::Chunk& chunk) {
  std::string out = "<";
  REQUIRE(store.read(chunk, out));
  REQUIRE(out.size() == chunk.length + 1);
  return out.substr(1);
}

}  // namespace

TEST_CASE("Spilled bytes read back the same, whether still buffered, written or written in part", "[stream][spill]") {
  SpillStore store;
  std::vector<std::string> texts;
  std::vector<SpillStore::Chunk> chunks;
  // Small pieces fill the 1 MiB buffer and spill over it; a 3 MiB piece goes straight to the file.
  for (std::size_t i = 0; i < 600; ++i) texts.push_back(bytes_of(1000 + i * 13, static_cast<char>(i)));
  texts.push_back(bytes_of(3u << 20, 'x'));
  for (std::size_t i = 0; i < 50; ++i) texts.push_back(bytes_of(333, static_cast<char>(i)));
  for (const std::string& text : texts) {
    SpillStore::Chunk chunk;
    REQUIRE(store.append(text, chunk));
    chunks.push_back(chunk);
    CHECK(read_back(store, chunk) == text);  // at once, from the buffer or the file
  }
  for (std::size_t i = 0; i < texts.size(); ++i) CHECK(read_back(store, chunks[i]) == texts[i]);
  std::uint64_t total = 0;
  for (const std::string& text : texts) total += text.size();
  CHECK(store.bytes_written() == total);
  CHECK(store.bytes_held() == total);
  for (const SpillStore::Chunk& chunk : chunks) store.release(chunk);
  CHECK(store.bytes_held() == 0);
  CHECK_FALSE(store.failed());
}

TEST_CASE("A spill file is started again when all of it is released, and old files close", "[stream][spill]") {
  SpillStore store({}, 4096);  // a new file once one holds 4 KiB
  SpillStore::Chunk a, b, c;
  REQUIRE(store.append(bytes_of(3000, 'a'), a));
  REQUIRE(store.append(bytes_of(3000, 'b'), b));  // the first file is not yet full
  REQUIRE(store.append(bytes_of(100, 'c'), c));   // it is now: a second file
  CHECK(a.file == 0);
  CHECK(b.file == 0);
  CHECK(c.file == 1);
  store.release(a);
  CHECK(read_back(store, b) == bytes_of(3000, 'b'));  // the rest of the old file stays readable
  store.release(b);                                   // ... until released: the file is closed
  CHECK(read_back(store, c) == bytes_of(100, 'c'));
  store.release(c);  // the current file is emptied and written from its start again
  SpillStore::Chunk d;
  REQUIRE(store.append(bytes_of(10, 'd'), d));
  CHECK(d.file == 1);
  CHECK(d.offset == 0);
  CHECK(read_back(store, d) == bytes_of(10, 'd'));
  CHECK(store.bytes_held() == 10);
}

TEST_CASE("Without a place to write, spilling fails once and says where", "[stream][spill]") {
  SpillStore store("/nonexistent/gapscan-spill-test");
  SpillStore::Chunk chunk;
  CHECK_FALSE(store.append("text", chunk));
  CHECK(store.failed());
  CHECK_THAT(store.error(), Catch::Contains("/nonexistent/gapscan-spill-test"));
  CHECK_FALSE(store.append("more", chunk));
  CHECK(store.bytes_written() == 0);
}
