#pragma once
// Compressed inputs, recognised by their magic bytes (never by their names): gzip
// (multi-member, as logrotate and `cat a.gz b.gz` make them), zstd (concatenated frames),
// bzip2 (concatenated streams) and xz (concatenated streams). Anything else is passed
// through unchanged.

#include <gapscan/source/byte_source.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace gapscan::source {

enum class Encoding { plain, gzip, zstd, bzip2, xz };

std::string_view to_string(Encoding encoding);

/// The encoding announced by the first bytes of a stream.
Encoding detect_encoding(std::string_view head);

/// Reads the first bytes of `raw`, and returns a source that yields the decoded bytes
/// (including those first bytes). A damaged or truncated archive makes read() fail with a
/// diagnostic naming `name` and the compressed byte offset; the bytes decoded before the
/// damage are delivered first. `encoding` receives what was detected.
std::unique_ptr<ByteSource> open_decoded(std::unique_ptr<ByteSource> raw, const std::string& name,
                                         Encoding* encoding = nullptr);

}  // namespace gapscan::source
