#pragma once
// Message templates: a message with its variable parts masked, so that the lines one log
// statement writes share a key ("Lowered set() TTL for <*> due to replication lag.").
// Masked: quoted strings, and every token (a run of letters, digits and _ . - : / @) that
// holds a digit (numbers, ids, hex, times, addresses, versions) or a ':' inside it (cache keys such
// as WANCache:v:global:page, URLs, host:port); the rest stays. Whitespace
// runs become one space; the template stops after 160 characters.

#include <cstdint>
#include <string>
#include <string_view>

namespace gapscan::parse {

/// The template of `message`, written into `out` (cleared first). A token equal to `also_mask`
/// (the line's request id, which need not hold a digit) is masked too.
void message_template(std::string_view message, std::string& out, std::string_view also_mask = {});

/// FNV-1a of a template (stable across runs and machines).
std::uint64_t template_hash(std::string_view text);

}  // namespace gapscan::parse
