#pragma once
// SQL statements as databases log them: a statement's fingerprint, the key its logged
// durations are grouped by (as pt-query-digest and pgBadger group them).

#include <cstddef>
#include <string>
#include <string_view>

namespace gapscan::parse {

/// The statement with its values masked: quoted strings and numbers become `?`, a list of
/// them `?+` (`IN (1, 2, 3)` -> `IN (?+)`, `VALUES (1,'a'),(2,'b')` -> `VALUES (?+)`), blanks
/// one space, a final `;` dropped; names and keywords are kept as written. At most
/// `max_bytes` long (cut at a character boundary).
std::string statement_fingerprint(std::string_view sql, std::size_t max_bytes = 120);

/// The statement a PostgreSQL line times: the text after `duration: … ms  statement: ` (or
/// `execute NAME: `, `bind …`, `parse …`); empty when the line has none.
std::string_view postgres_statement(std::string_view message);

}  // namespace gapscan::parse
