// gen_mwlog — synthetic MediaWiki Monolog line log for benchmarking gapscan.
//
// Writes WMF-style MediaWiki lines (log-formats.md §2.3), UTC, microseconds:
//
//   2026-01-01 00:00:00.123456 [<24 hex reqId>] <host> <wiki> 1.39.10 <channel> <LEVEL>: <message> <context>
//
// How it works: `--concurrent N` requests are in flight at once. Each request has its own
// clock; a min-heap picks the request whose next line is due first, so lines of concurrent
// PHP workers interleave in global time order, one line at a time. When a request ends, a new
// one starts in its slot a moment later, so N stays constant.
//
// Gaps between one request's lines are log-normal (median 1 ms, sigma 1.4, floor 2 µs).
// About 10 % of requests are "stall" requests: most of their memcached set() lines (the
// background writes) are followed by a 44.0 ms ± 0.1 ms gap, and 1 in 12 of those by 48 ms,
// the pattern Nagle's algorithm plus delayed ACK leaves on a HZ=250 peer.
// Rarely, a request logs an exception spanning several physical lines (WMF turns
// allowInlineLineBreaks on), so continuation lines without a timestamp occur.
//
// Output is a pure function of (--seed, --size, --concurrent, --start): the generator has its
// own PRNG and normal sampler, and never reads the clock or the locale. The file is cut at the
// last whole line that fits in --size bytes. Lines are assembled in a large buffer with
// hand-written integer and time formatting; no iostreams.
//
// Build: g++ -O2 -std=c++20 -o gen_mwlog bench/gen_mwlog.cpp

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------- random numbers

// xoshiro256** seeded through splitmix64: fast, and identical on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : m_s) {
      seed += 0x9e3779b97f4a7c15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n); n < 2^32.
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32); }

  bool chance(double p) { return uniform() < p; }

  // Standard normal by the Box-Muller transform; the second value of each pair is kept.
  double normal() {
    if (m_have_spare) {
      m_have_spare = false;
      return m_spare;
    }
    double u1 = uniform();
    while (u1 <= 0.0) {
      u1 = uniform();
    }
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double a = 6.283185307179586 * u2;
    m_spare = r * std::sin(a);
    m_have_spare = true;
    return r * std::cos(a);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<std::uint64_t, 4> m_s{};
  double m_spare = 0.0;
  bool m_have_spare = false;
};

// ---------------------------------------------------------------- civil dates (UTC)

// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Civil {
  std::int64_t year;
  unsigned month;
  unsigned day;
};

Civil civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

// ---------------------------------------------------------------- output buffer

constexpr std::size_t k_flush_at = std::size_t{1} << 20;  // flush once 1 MiB is pending
constexpr std::size_t k_max_record = 8192;                // one record never exceeds this
constexpr std::size_t k_line_max = 400;                   // longest physical line, without LF

// Append-only byte buffer with hand-written number formatting. Records are built in place
// and either committed or rolled back, so the size cut never leaves half a line.
class Out {
 public:
  explicit Out(std::FILE* file) : m_file(file), m_buf(k_flush_at + k_max_record) {}

  void put(std::string_view s) {
    std::memcpy(m_buf.data() + m_pos, s.data(), s.size());
    m_pos += s.size();
  }
  void put(char c) { m_buf[m_pos++] = c; }

  // Appends a copy of bytes [begin, end) already written in the current record.
  void put_copy(std::size_t begin, std::size_t end) {
    std::memcpy(m_buf.data() + m_pos, m_buf.data() + begin, end - begin);
    m_pos += end - begin;
  }

  void put_uint(std::uint64_t v) {
    char tmp[20];
    int n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (n > 0) {
      m_buf[m_pos++] = tmp[--n];
    }
  }

  // v zero-padded to exactly `width` digits (v must fit).
  void put_uint_padded(std::uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) {
      m_buf[m_pos + static_cast<std::size_t>(i)] = static_cast<char>('0' + v % 10);
      v /= 10;
    }
    m_pos += static_cast<std::size_t>(width);
  }

  // thousandths / 1000 as a decimal with three places, e.g. 412 -> "0.412".
  void put_milli(std::uint64_t thousandths) {
    put_uint(thousandths / 1000);
    put('.');
    put_uint_padded(thousandths % 1000, 3);
  }

  void put_hex(std::uint64_t v, int digits) {
    static constexpr char k_hex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i) {
      m_buf[m_pos + static_cast<std::size_t>(i)] = k_hex[v & 15];
      v >>= 4;
    }
    m_pos += static_cast<std::size_t>(digits);
  }

  std::size_t pos() const { return m_pos; }
  char* at(std::size_t p) { return m_buf.data() + p; }
  void rewind(std::size_t p) { m_pos = p; }

  // Writes the pending bytes once enough have gathered (or always, when forced).
  bool flush(bool force) {
    if (m_pos == 0 || (!force && m_pos < k_flush_at)) {
      return true;
    }
    const bool ok = std::fwrite(m_buf.data(), 1, m_pos, m_file) == m_pos;
    m_pos = 0;
    return ok;
  }

 private:
  std::FILE* m_file;
  std::vector<char> m_buf;
  std::size_t m_pos = 0;
};

// Formats "YYYY-MM-DD HH:MM:SS.uuuuuu"; the part up to the seconds is cached, because the
// output is in time order and many lines share one second.
class TimeFormatter {
 public:
  void put(Out& out, std::int64_t epoch_us) {
    const std::int64_t sec = epoch_us / 1000000;
    if (sec != m_sec) {
      m_sec = sec;
      const std::int64_t days = sec / 86400;
      const std::int64_t sod = sec % 86400;
      const Civil c = civil_from_days(days);
      format_2(m_prefix + 0, static_cast<unsigned>(c.year / 100));
      format_2(m_prefix + 2, static_cast<unsigned>(c.year % 100));
      m_prefix[4] = '-';
      format_2(m_prefix + 5, c.month);
      m_prefix[7] = '-';
      format_2(m_prefix + 8, c.day);
      m_prefix[10] = ' ';
      format_2(m_prefix + 11, static_cast<unsigned>(sod / 3600));
      m_prefix[13] = ':';
      format_2(m_prefix + 14, static_cast<unsigned>(sod / 60 % 60));
      m_prefix[16] = ':';
      format_2(m_prefix + 17, static_cast<unsigned>(sod % 60));
      m_prefix[19] = '.';
    }
    out.put(std::string_view(m_prefix, sizeof m_prefix));
    out.put_uint_padded(static_cast<std::uint64_t>(epoch_us % 1000000), 6);
  }

 private:
  static void format_2(char* p, unsigned v) {
    p[0] = static_cast<char>('0' + v / 10 % 10);
    p[1] = static_cast<char>('0' + v % 10);
  }

  std::int64_t m_sec = -1;
  char m_prefix[20] = {};
};

// ---------------------------------------------------------------- vocabulary

constexpr std::string_view k_mw_version = "1.39.10";

constexpr std::array<std::string_view, 12> k_wikis = {"enwiki", "enwiki", "enwiki",      "dewiki",
                                                      "frwiki", "jawiki", "commonswiki", "wikidatawiki",
                                                      "eswiki", "ruwiki", "itwiki",      "metawiki"};

constexpr std::array<std::string_view, 24> k_titles = {"Main_Page",
                                                       "Albert_Einstein",
                                                       "Special:RecentChanges",
                                                       "Climate_change",
                                                       "List_of_sovereign_states",
                                                       "Python_(programming_language)",
                                                       "World_War_II",
                                                       "Special:Search",
                                                       "United_States",
                                                       "COVID-19_pandemic",
                                                       "Help:Contents",
                                                       "Wikipedia:Village_pump_(technical)",
                                                       "Category:Living_people",
                                                       "Marie_Curie",
                                                       "Template:Infobox_person",
                                                       "Module:Citation/CS1",
                                                       "Special:Watchlist",
                                                       "Tokyo",
                                                       "Photosynthesis",
                                                       "The_Beatles",
                                                       "Special:Contributions/Example",
                                                       "Linux_kernel",
                                                       "Talk:Memcached",
                                                       "User:Example/sandbox"};

constexpr std::array<std::string_view, 6> k_langs = {"en", "de", "fr", "ja", "es", "ru"};

constexpr std::array<std::string_view, 8> k_db_hosts = {"db1157", "db1163", "db1170", "db1184",
                                                        "db1196", "db1206", "db1211", "db1223"};

struct SqlTemplate {
  std::string_view method;
  std::string_view head;  // SQL up to the id
  std::string_view tail;  // SQL after the id
  bool by_rev = false;    // the id is a revision id, not a page id
};

constexpr std::array<SqlTemplate, 10> k_sql = {{
    {"WikiPage::pageData",
     "SELECT page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_touched,"
     "page_links_updated,page_latest,page_len,page_content_model FROM page WHERE page_id = ",
     " LIMIT 1"},
    {"MediaWiki\\Revision\\RevisionStore::fetchRevisionRowFromConds",
     "SELECT rev_id,rev_page,rev_timestamp,rev_minor_edit,rev_deleted,rev_len,rev_parent_id,"
     "rev_sha1,comment_rev_comment.comment_text AS rev_comment_text FROM revision JOIN comment "
     "comment_rev_comment ON ((comment_rev_comment.comment_id = rev_comment_id)) WHERE rev_id = ",
     " LIMIT 1", true},
    {"PageProps::getProperties", "SELECT pp_page,pp_propname,pp_value FROM page_props WHERE pp_page = ",
     " AND pp_propname IN ('wikibase_item','disambiguation','notoc','defaultsort')"},
    {"MediaWiki\\Permissions\\RestrictionStore::loadRestrictions",
     "SELECT pr_type,pr_expiry,pr_level,pr_cascade FROM page_restrictions WHERE pr_page = ", ""},
    {"User::loadFromDatabase",
     "SELECT user_id,user_name,user_real_name,user_email,user_touched,user_token,"
     "user_email_authenticated,user_registration,user_editcount FROM user WHERE user_id = ",
     " LIMIT 1"},
    {"MediaWiki\\Deferred\\LinksUpdate\\LinksUpdate::fetchExistingRows",
     "SELECT tl_target_id FROM templatelinks WHERE tl_from = ", ""},
    {"Wikimedia\\Rdbms\\Database::beginIfImplied",
     "BEGIN /* Wikimedia\\Rdbms\\Database::beginIfImplied (LinksUpdate::doUpdate) page=", " */"},
    {"WikiPage::updateTouched",
     "UPDATE page SET page_touched = '20260101000000' WHERE page_id = ", " AND (page_touched < '20260101000000')"},
    {"MediaWiki\\Storage\\SqlBlobStore::fetchBlobs", "SELECT old_id,old_text,old_flags FROM text WHERE old_id = ", "",
     true},
    {"Wikimedia\\Rdbms\\Database::commit",
     "COMMIT /* Wikimedia\\Rdbms\\Database::commit (MediaWiki::preOutputCommit) rev=", " */", true},
}};

constexpr std::array<std::string_view, 12> k_debug_msgs = {
    "[caches] cluster: MemcachedPeclBagOStuff, WAN: mediawiki-main-default, stash: "
    "db-replicated, message: MemcachedPeclBagOStuff, session: MemcachedPeclBagOStuff",
    "[caches] LocalisationCache: using store LCStoreCDB",
    "OutputPage::haveCacheVaryCookies: no cache-varying cookies found",
    "MessageCache::loadUnguarded: Loading en... got from local cache",
    "[ContentHandler] Created handler for wikitext: WikitextContentHandler",
    "Parser: using preprocessor: Preprocessor_Hash, title cache primed for this request",
    "MediaWiki::preOutputCommit: primary transaction round committed",
    "MediaWiki::preOutputCommit: pre-send deferred updates completed",
    "MediaWiki::preOutputCommit: session changes committed",
    "OutputPage::sendCacheControl: private caching (config); ** no s-maxage, Vary: Cookie",
    "User::getBlockedStatus: checking blocked status for 198.51.100.23",
    "Unstubbing $wgLang on call of $wgLang::getCode from ParserOptions->initialiseFromUser",
};

struct ChannelMsg {
  std::string_view channel;
  std::string_view level;
  std::string_view text;
};

constexpr std::array<ChannelMsg, 8> k_other_msgs = {{
    {"session", "DEBUG", "SessionManager using store MemcachedPeclBagOStuff for session backends"},
    {"session", "DEBUG", "SessionBackend is unsaved, marking dirty in constructor (persist=0)"},
    {"rdbms", "DEBUG", "Wikimedia\\Rdbms\\LoadBalancer::getReaderIndex: using server db1184 for group ''"},
    {"rdbms", "DEBUG", "Wikimedia\\Rdbms\\LoadBalancer::reallyOpenConnection: opened new connection for 1/enwiki"},
    {"DeferredUpdates", "DEBUG",
     "DeferredUpdates::run: started MediaWiki\\Deferred\\LinksUpdate\\LinksUpdate (POSTSEND)"},
    {"DeferredUpdates", "DEBUG", "DeferredUpdates::run: ended MediaWiki\\Deferred\\SiteStatsUpdate, ok (PRESEND)"},
    {"ParserCache", "DEBUG", "ParserOutputAccess::getCachedParserOutput: parser cache hit for canonical options"},
    {"MessageCache", "DEBUG", "MessageCache::loadUnguarded: Loading en... local cache is empty, got from global cache"},
}};

constexpr std::array<std::string_view, 4> k_lowered_reasons = {
    "replication lag.", "snapshot lag (high generation time).", "read lag (high generation time).", "replication lag."};

struct ExceptionKind {
  std::string_view channel;
  std::string_view level;
  std::string_view cls;
  std::string_view text;
  std::string_view file_line;
};

constexpr std::array<ExceptionKind, 3> k_exceptions = {{
    {"exception", "ERROR", "Wikimedia\\Rdbms\\DBQueryError",
     "Error 1205: Lock wait timeout exceeded; try restarting transaction",
     "/srv/mediawiki/php-1.39.10/includes/libs/rdbms/database/Database.php:1618"},
    {"error", "WARNING", "ErrorException", "PHP Warning: Undefined array key \"title\"",
     "/srv/mediawiki/php-1.39.10/includes/parser/Parser.php:742"},
    {"exception", "ERROR", "Wikimedia\\Rdbms\\DBReadOnlyError",
     "Database is read-only: The database has been automatically locked while the replica "
     "database servers catch up to the primary.",
     "/srv/mediawiki/php-1.39.10/includes/libs/rdbms/database/Database.php:1402"},
}};

constexpr std::array<std::string_view, 9> k_trace = {
    "/srv/mediawiki/php-1.39.10/includes/libs/rdbms/database/Database.php(1602): "
    "Wikimedia\\Rdbms\\Database->getQueryException(string, integer, string, string)",
    "/srv/mediawiki/php-1.39.10/includes/libs/rdbms/database/Database.php(1576): "
    "Wikimedia\\Rdbms\\Database->reportQueryError(string, integer, string, string, boolean)",
    "/srv/mediawiki/php-1.39.10/includes/libs/rdbms/database/Database.php(2221): "
    "Wikimedia\\Rdbms\\Database->query(string, string, integer)",
    "/srv/mediawiki/php-1.39.10/includes/deferred/LinksUpdate/LinksTable.php(346): "
    "Wikimedia\\Rdbms\\Database->delete(string, array, string)",
    "/srv/mediawiki/php-1.39.10/includes/deferred/LinksUpdate/LinksUpdate.php(210): "
    "MediaWiki\\Deferred\\LinksUpdate\\LinksTable->update()",
    "/srv/mediawiki/php-1.39.10/includes/deferred/DeferredUpdates.php(536): "
    "MediaWiki\\Deferred\\LinksUpdate\\LinksUpdate->doUpdate()",
    "/srv/mediawiki/php-1.39.10/includes/MediaWiki.php(1134): "
    "DeferredUpdates::doUpdates(string)",
    "/srv/mediawiki/php-1.39.10/includes/MediaWiki.php(565): MediaWiki->restInPeace()",
    "/srv/mediawiki/w/index.php(50): MediaWiki->run()",
};

// ---------------------------------------------------------------- line kinds

enum class Kind : std::uint8_t {
  mc_get,
  mc_set,  // the background write that stall requests follow with a 44 ms gap
  mc_result,
  mc_get_multi,
  mc_other_op,
  db_query,
  lowered_ttl,
  wf_debug,
  other,
  mc_error,
  exception,
};

struct Weighted {
  Kind kind;
  double weight;
};

// Relative frequency of each line kind in the body of an ordinary request.
constexpr std::array<Weighted, 11> k_mix_normal = {{
    {Kind::mc_get, 24.0},
    {Kind::mc_set, 7.0},
    {Kind::mc_result, 5.0},
    {Kind::mc_get_multi, 3.0},
    {Kind::mc_other_op, 3.0},
    {Kind::db_query, 24.0},
    {Kind::lowered_ttl, 2.0},
    {Kind::wf_debug, 17.0},
    {Kind::other, 15.0},
    {Kind::mc_error, 0.05},
    {Kind::exception, 0.02},
}};

// Stall requests write to the cache far more (a loop regenerating values).
constexpr std::array<Weighted, 11> k_mix_stall = {{
    {Kind::mc_get, 18.0},
    {Kind::mc_set, 30.0},
    {Kind::mc_result, 4.0},
    {Kind::mc_get_multi, 2.0},
    {Kind::mc_other_op, 2.0},
    {Kind::db_query, 18.0},
    {Kind::lowered_ttl, 4.0},
    {Kind::wf_debug, 11.0},
    {Kind::other, 11.0},
    {Kind::mc_error, 0.05},
    {Kind::exception, 0.02},
}};

// Cumulative table for sampling a Kind with one uniform draw.
class KindSampler {
 public:
  template <std::size_t N>
  explicit KindSampler(const std::array<Weighted, N>& mix) {
    double total = 0.0;
    for (const auto& w : mix) {
      total += w.weight;
    }
    double acc = 0.0;
    for (const auto& w : mix) {
      acc += w.weight / total;
      m_table.emplace_back(acc, w.kind);
    }
    m_table.back().first = 2.0;  // rounding can never fall off the end
  }

  Kind sample(Rng& rng) const {
    const double u = rng.uniform();
    for (const auto& [edge, kind] : m_table) {
      if (u < edge) {
        return kind;
      }
    }
    return m_table.back().second;
  }

 private:
  std::vector<std::pair<double, Kind>> m_table;
};

// ---------------------------------------------------------------- requests

constexpr double k_gap_median_s = 0.001;
constexpr double k_gap_sigma = 1.4;
constexpr std::int64_t k_gap_floor_us = 2;
constexpr std::int64_t k_gap_cap_us = 5'000'000;
constexpr double k_stall_request_share = 0.10;
constexpr double k_stall_after_set = 0.92;  // share of set() lines followed by a stall
constexpr double k_stall_48_share = 1.0 / 12;
constexpr double k_lines_median = 60.0;
constexpr double k_lines_sigma = 0.75;
constexpr int k_lines_min = 20;
constexpr int k_lines_max = 400;

struct Request {
  std::int64_t next_us = 0;
  std::uint64_t id_hi = 0;  // 64 + 32 bits -> 24 hex digits
  std::uint32_t id_lo = 0;
  std::uint32_t page_id = 0;
  std::uint32_t rev_id = 0;
  std::uint16_t host = 0;
  std::uint8_t wiki = 0;
  std::uint8_t title = 0;
  std::uint8_t route = 0;  // 0 view, 1 edit, 2 api
  std::uint32_t lines_left = 0;
  std::uint32_t line_no = 0;
  bool stall = false;
};

struct Options {
  std::uint64_t size = 100ULL << 20;
  std::uint32_t concurrent = 64;
  std::uint64_t seed = 1;
  std::int64_t start_us = 0;
  std::uint32_t request_lines = 0;  // median lines per request; 0: the usual 60 (20 to 400)
  std::string output;               // empty: stdout
};

class Generator {
 public:
  Generator(const Options& opt, Out& out)
      : m_opt(opt), m_out(out), m_rng(opt.seed), m_normal(k_mix_normal), m_stalling(k_mix_stall) {}

  // Writes lines until the next one would pass opt.size; returns false on a write error.
  bool run() {
    m_requests.resize(m_opt.concurrent);
    for (std::uint32_t slot = 0; slot < m_opt.concurrent; ++slot) {
      start_request(slot, m_opt.start_us + m_rng.below(50'000));
    }
    std::uint64_t written = 0;
    while (true) {
      const auto [due, slot] = m_queue.top();
      m_queue.pop();
      const std::size_t begin = m_out.pos();
      std::int64_t gap_us = write_record(m_requests[slot], due);
      const std::size_t len = m_out.pos() - begin;
      if (written + len > m_opt.size) {
        m_out.rewind(begin);
        break;
      }
      written += len;
      if (!m_out.flush(false)) {
        return false;
      }
      Request& r = m_requests[slot];
      if (r.lines_left == 0) {
        // A new worker request takes the slot 0.1-3 ms later.
        start_request(slot, due + 100 + m_rng.below(2900));
      } else {
        r.next_us = due + gap_us;
        m_queue.emplace(r.next_us, slot);
      }
    }
    return m_out.flush(true);
  }

 private:
  void start_request(std::uint32_t slot, std::int64_t at_us) {
    Request& r = m_requests[slot];
    r.next_us = at_us;
    r.id_hi = m_rng.next();
    r.id_lo = static_cast<std::uint32_t>(m_rng.next());
    r.host = static_cast<std::uint16_t>(1300 + m_rng.below(200));
    r.wiki = static_cast<std::uint8_t>(m_rng.below(k_wikis.size()));
    r.title = static_cast<std::uint8_t>(m_rng.below(k_titles.size()));
    r.route = static_cast<std::uint8_t>(m_rng.chance(0.8) ? 0 : (m_rng.chance(0.5) ? 1 : 2));
    r.page_id = 1000 + m_rng.below(60'000'000);
    r.rev_id = 900'000'000 + m_rng.below(300'000'000);
    if (m_opt.request_lines == 0) {
      const double n = k_lines_median * std::exp(k_lines_sigma * m_rng.normal());
      r.lines_left = static_cast<std::uint32_t>(std::clamp(static_cast<int>(n), k_lines_min, k_lines_max));
    } else {  // long requests (--request-lines): a job, a worker's whole life
      const double median = m_opt.request_lines;
      const double n = median * std::exp(0.25 * m_rng.normal());
      r.lines_left = static_cast<std::uint32_t>(std::clamp(n, std::max(1.0, median / 3), median * 3));
    }
    r.line_no = 0;
    r.stall = m_rng.chance(k_stall_request_share);
    m_queue.emplace(r.next_us, slot);
  }

  // Log-normal gap in µs, median 1 ms.
  std::int64_t ordinary_gap_us() {
    const double s = k_gap_median_s * std::exp(k_gap_sigma * m_rng.normal());
    const auto us = static_cast<std::int64_t>(s * 1e6 + 0.5);
    return std::clamp(us, k_gap_floor_us, k_gap_cap_us);
  }

  // 44.0 ms (or, 1 in 12, 48.0 ms) with a jitter of at most ±0.1 ms.
  std::int64_t stall_gap_us() {
    const double base = m_rng.chance(k_stall_48_share) ? 48'000.0 : 44'000.0;
    const double jitter = std::clamp(35.0 * m_rng.normal(), -100.0, 100.0);
    return static_cast<std::int64_t>(base + jitter + 0.5);
  }

  void put_prefix(const Request& r, std::int64_t t_us, std::string_view channel, std::string_view level) {
    m_time.put(m_out, t_us);
    m_out.put(" [");
    m_out.put_hex(r.id_hi, 16);
    m_out.put_hex(r.id_lo, 8);
    m_out.put("] mw");
    m_out.put_uint(r.host);
    m_out.put(' ');
    m_out.put(k_wikis[r.wiki]);
    m_out.put(' ');
    m_out.put(k_mw_version);
    m_out.put(' ');
    m_out.put(channel);
    m_out.put(' ');
    m_out.put(level);
    m_out.put(": ");
  }

  void put_url(const Request& r) {
    switch (r.route) {
      case 0:
        m_out.put("/wiki/");
        m_out.put(k_titles[r.title]);
        break;
      case 1:
        m_out.put("/w/index.php?title=");
        m_out.put(k_titles[r.title]);
        m_out.put("&action=edit");
        break;
      default:
        m_out.put("/w/api.php?action=query&prop=info&titles=");
        m_out.put(k_titles[r.title]);
        break;
    }
  }

  // A cache key of one of the shapes MediaWiki 1.39 uses; varies with the draw.
  void put_cache_key(const Request& r) {
    const std::string_view wiki = k_wikis[r.wiki];
    switch (m_rng.below(9)) {
      case 0:
        m_out.put(wiki);
        m_out.put(":page-restrictions:");
        m_out.put_uint(r.page_id);
        break;
      case 1:
        m_out.put("WANCache:");
        m_out.put(wiki);
        m_out.put(":revision-row-1.29:");
        m_out.put_uint(r.page_id);
        m_out.put(':');
        m_out.put_uint(r.rev_id);
        m_out.put("|#|v");
        break;
      case 2:
        m_out.put("WANCache:");
        m_out.put(wiki);
        m_out.put(":messages:");
        m_out.put(k_langs[m_rng.below(k_langs.size())]);
        m_out.put(":hash:v1|#|v");
        break;
      case 3:
        m_out.put("global:user-quicktouched:id:");
        m_out.put_uint(1 + m_rng.below(45'000'000));
        break;
      case 4:
        m_out.put(wiki);
        m_out.put(":pcache:idhash:");
        m_out.put_uint(r.page_id);
        m_out.put("-0!canonical");
        break;
      case 5:
        m_out.put("WANCache:global:centralauth-user:");
        m_out.put_hex(m_rng.next(), 16);
        m_out.put_hex(m_rng.next(), 16);
        m_out.put("|#|v");
        break;
      case 6:
        m_out.put(wiki);
        m_out.put(":preprocess-hash:");
        m_out.put_hex(m_rng.next(), 16);
        m_out.put_hex(m_rng.next(), 16);
        m_out.put(":0");
        break;
      case 7:
        m_out.put("WANCache:");
        m_out.put(wiki);
        m_out.put(":page-content-model:");
        m_out.put_uint(r.rev_id);
        m_out.put("|#|v");
        break;
      default:
        m_out.put("WANCache:");
        m_out.put(wiki);
        m_out.put(":interwiki:");
        m_out.put(m_rng.chance(0.5) ? "wikt" : "commons");
        m_out.put("|#|v");
        break;
    }
  }

  void put_memcached_debug(const Request& r, std::int64_t t_us, std::string_view op) {
    put_prefix(r, t_us, "memcached", "DEBUG");
    m_out.put("MemcachedPeclBagOStuff debug: ");
    m_out.put(op);
    m_out.put('(');
    put_cache_key(r);
    m_out.put(") {\"class\":\"MemcachedPeclBagOStuff\"}");
  }

  void put_db_query(const Request& r, std::int64_t t_us) {
    const std::size_t line_start = m_out.pos();
    const SqlTemplate& q = k_sql[m_rng.below(k_sql.size())];
    const std::uint64_t runtime = 80 + static_cast<std::uint64_t>(400.0 * std::exp(1.2 * m_rng.normal()));
    const std::string_view host = k_db_hosts[m_rng.below(k_db_hosts.size())];
    put_prefix(r, t_us, "DBQuery", "DEBUG");
    m_out.put(q.method);
    m_out.put(" [");
    m_out.put_milli(runtime);
    m_out.put("ms] ");
    m_out.put(host);
    m_out.put(": ");
    const std::size_t sql_begin = m_out.pos();
    m_out.put(q.head);
    m_out.put_uint(q.by_rev ? r.rev_id : r.page_id);
    m_out.put(q.tail);
    const std::size_t sql_end = m_out.pos();
    m_out.put(" {\"db_server\":\"");
    m_out.put(host);
    m_out.put("\",\"db_name\":\"");
    m_out.put(k_wikis[r.wiki]);
    m_out.put("\",\"runtime\":");
    m_out.put_milli(runtime);
    m_out.put('}');
    // Cut the SQL (marking the cut with "...") so the line stays within k_line_max.
    const std::size_t line_len = m_out.pos() - line_start;
    if (line_len > k_line_max) {
      const std::size_t keep = sql_end - sql_begin - std::min(sql_end - sql_begin, line_len - k_line_max + 3);
      const std::size_t context_len = m_out.pos() - sql_end;
      char* cut = m_out.at(sql_begin + keep);
      std::memcpy(cut, "...", 3);
      std::memmove(cut + 3, m_out.at(sql_end), context_len);
      m_out.rewind(sql_begin + keep + 3 + context_len);
    }
  }

  void put_lowered_ttl(const Request& r, std::int64_t t_us) {
    put_prefix(r, t_us, "objectcache", "WARNING");
    const bool rejected = m_rng.chance(0.15);
    m_out.put(rejected ? "Rejected set() for " : "Lowered set() TTL for ");
    const std::size_t key_begin = m_out.pos();
    put_cache_key(r);
    const std::size_t key_end = m_out.pos();
    m_out.put(" due to ");
    m_out.put(rejected ? std::string_view("pending writes.")
                       : k_lowered_reasons[m_rng.below(k_lowered_reasons.size())]);
    m_out.put(" {\"cachekey\":\"");
    m_out.put_copy(key_begin, key_end);
    m_out.put("\",\"lag\":");
    if (m_rng.chance(0.3)) {
      m_out.put("false");
    } else {
      m_out.put_uint(m_rng.below(12));
    }
    m_out.put(",\"age\":");
    m_out.put_milli(m_rng.below(9000));
    m_out.put(",\"walltime\":");
    m_out.put_milli(m_rng.below(800));
    m_out.put('}');
  }

  void put_exception(const Request& r, std::int64_t t_us) {
    const ExceptionKind& e = k_exceptions[m_rng.below(k_exceptions.size())];
    put_prefix(r, t_us, e.channel, e.level);
    m_out.put('[');
    m_out.put_hex(r.id_hi, 16);
    m_out.put_hex(r.id_lo, 8);
    m_out.put("] ");
    put_url(r);
    m_out.put("   ");
    m_out.put(e.cls);
    m_out.put(": ");
    m_out.put(e.text);
    m_out.put(" {\"caught_by\":\"mwe_handler\"}");
    // allowInlineLineBreaks: the %exception% part follows on lines of its own.
    m_out.put("\n[Exception ");
    m_out.put(e.cls);
    m_out.put("] (");
    m_out.put(e.file_line);
    m_out.put(") ");
    m_out.put(e.text);
    const std::uint32_t frames = 3 + m_rng.below(k_trace.size() - 3);
    const std::uint32_t first = static_cast<std::uint32_t>(k_trace.size()) - frames;
    for (std::uint32_t i = 0; i < frames; ++i) {
      m_out.put("\n#");
      m_out.put_uint(i);
      m_out.put(' ');
      m_out.put(k_trace[first + i]);
    }
    m_out.put("\n#");
    m_out.put_uint(frames);
    m_out.put(" {main}");
  }

  // Writes the request's next line (or multi-line record) and returns the gap to its next.
  std::int64_t write_record(Request& r, std::int64_t t_us) {
    const bool first = r.line_no == 0;
    ++r.line_no;
    --r.lines_left;
    const bool last = r.lines_left == 0;
    bool stall_next = false;

    if (first) {
      put_prefix(r, t_us, "wfDebug", "DEBUG");
      m_out.put("Start request ");
      m_out.put(r.route == 1 && m_rng.chance(0.5) ? "POST " : "GET ");
      put_url(r);
      m_out.put(" {\"method\":\"MediaWiki::run\"}");
    } else if (last) {
      put_prefix(r, t_us, "wfDebug", "DEBUG");
      m_out.put("Request ended normally {\"method\":\"MediaWiki::doPostOutputShutdown\"}");
    } else {
      const Kind kind = (r.stall ? m_stalling : m_normal).sample(m_rng);
      switch (kind) {
        case Kind::mc_get:
          put_memcached_debug(r, t_us, "get");
          break;
        case Kind::mc_set:
          put_memcached_debug(r, t_us, "set");
          stall_next = r.stall && m_rng.chance(k_stall_after_set);
          break;
        case Kind::mc_result: {
          static constexpr std::array<std::string_view, 4> k_results = {"result: NOT FOUND", "result: NOT FOUND",
                                                                        "result: NOT STORED", "result: DATA EXISTS"};
          put_prefix(r, t_us, "memcached", "DEBUG");
          m_out.put("MemcachedPeclBagOStuff debug: ");
          m_out.put(k_results[m_rng.below(k_results.size())]);
          m_out.put(" {\"class\":\"MemcachedPeclBagOStuff\",\"memcached-server\":\"10.64.0.");
          m_out.put_uint(80 + m_rng.below(20));
          m_out.put(":11211\"}");
          break;
        }
        case Kind::mc_get_multi: {
          put_prefix(r, t_us, "memcached", "DEBUG");
          m_out.put("MemcachedPeclBagOStuff debug: getMulti(");
          put_cache_key(r);
          m_out.put(", ");
          put_cache_key(r);
          m_out.put(")");
          break;
        }
        case Kind::mc_other_op: {
          static constexpr std::array<std::string_view, 4> k_ops = {"add", "delete", "touch", "incrWithInit"};
          put_memcached_debug(r, t_us, k_ops[m_rng.below(k_ops.size())]);
          break;
        }
        case Kind::db_query:
          put_db_query(r, t_us);
          break;
        case Kind::lowered_ttl:
          put_lowered_ttl(r, t_us);
          break;
        case Kind::wf_debug:
          put_prefix(r, t_us, "wfDebug", "DEBUG");
          m_out.put(k_debug_msgs[m_rng.below(k_debug_msgs.size())]);
          break;
        case Kind::other: {
          const ChannelMsg& m = k_other_msgs[m_rng.below(k_other_msgs.size())];
          put_prefix(r, t_us, m.channel, m.level);
          m_out.put(m.text);
          break;
        }
        case Kind::mc_error: {
          put_prefix(r, t_us, "memcached", "ERROR");
          m_out.put("Memcached error for key \"");
          const std::size_t key_begin = m_out.pos();
          put_cache_key(r);
          const std::size_t key_end = m_out.pos();
          const std::uint32_t server = 80 + m_rng.below(20);
          m_out.put("\" on server \"10.64.0.");
          m_out.put_uint(server);
          m_out.put(":11211\": A TIMEOUT OCCURRED {\"memcached-server\":\"10.64.0.");
          m_out.put_uint(server);
          m_out.put(":11211\",\"memcached-key\":\"");
          m_out.put_copy(key_begin, key_end);
          m_out.put("\"}");
          break;
        }
        case Kind::exception:
          put_exception(r, t_us);
          break;
      }
    }
    m_out.put('\n');
    return stall_next ? stall_gap_us() : ordinary_gap_us();
  }

  using Due = std::pair<std::int64_t, std::uint32_t>;  // (time, slot): ties go to the lower slot

  const Options& m_opt;
  Out& m_out;
  Rng m_rng;
  KindSampler m_normal;
  KindSampler m_stalling;
  TimeFormatter m_time;
  std::vector<Request> m_requests;
  std::priority_queue<Due, std::vector<Due>, std::greater<>> m_queue;
};

// ---------------------------------------------------------------- command line

constexpr std::string_view k_usage =
    "usage: gen_mwlog [--size BYTES] [--concurrent N] [--seed S] [--start \"Y-m-d H:M:S\"]\n"
    "                 [--request-lines N] [--output FILE]\n"
    "\n"
    "Writes a synthetic MediaWiki Monolog line log (WMF line format, UTC, microseconds).\n"
    "  --size BYTES       stop at the last whole line within BYTES; suffixes K, M, G\n"
    "                     (powers of 1024). Default 100M.\n"
    "  --concurrent N     requests in flight at once, interleaved line by line. Default 64.\n"
    "  --seed S           PRNG seed; the same options give the same bytes. Default 1.\n"
    "  --start TIME       time of the first request, \"2026-01-01 00:00:00\" (the default).\n"
    "  --request-lines N  lines per request, median (log-normal, N/3 to 3N); default: a\n"
    "                     median of 60, from 20 to 400 (web requests). Long requests are jobs.\n"
    "  --output FILE, -o  write to FILE instead of standard output.\n";

bool parse_uint(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 19) {
    return false;
  }
  std::uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') {
      return false;
    }
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = v;
  return true;
}

// "512", "64K", "200M", "1G" (also "1GB", "1GiB"); powers of 1024.
bool parse_size(std::string_view s, std::uint64_t& out) {
  std::size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') {
    ++digits;
  }
  std::uint64_t v = 0;
  if (!parse_uint(s.substr(0, digits), v)) {
    return false;
  }
  std::string_view suffix = s.substr(digits);
  if (suffix.ends_with("iB") || suffix.ends_with("ib")) {
    suffix.remove_suffix(2);
  } else if (suffix.size() == 2 && (suffix[1] == 'B' || suffix[1] == 'b')) {
    suffix.remove_suffix(1);
  }
  int shift = 0;
  if (suffix.size() == 1) {
    switch (suffix[0]) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      case 'T':
      case 't':
        shift = 40;
        break;
      default:
        return false;
    }
  } else if (!suffix.empty()) {
    return false;
  }
  if (shift > 0 && v > (~std::uint64_t{0} >> shift)) {
    return false;
  }
  out = v << shift;
  return true;
}

// "YYYY-MM-DD HH:MM:SS" (or with 'T'), UTC, to microseconds since the epoch.
bool parse_start(std::string_view s, std::int64_t& out_us) {
  if (s.size() != 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':') {
    return false;
  }
  std::uint64_t y, mo, d, h, mi, se;
  if (!parse_uint(s.substr(0, 4), y) || !parse_uint(s.substr(5, 2), mo) || !parse_uint(s.substr(8, 2), d) ||
      !parse_uint(s.substr(11, 2), h) || !parse_uint(s.substr(14, 2), mi) || !parse_uint(s.substr(17, 2), se)) {
    return false;
  }
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) {
    return false;
  }
  const std::int64_t days =
      days_from_civil(static_cast<std::int64_t>(y), static_cast<unsigned>(mo), static_cast<unsigned>(d));
  out_us = ((days * 86400) + static_cast<std::int64_t>(h * 3600 + mi * 60 + se)) * 1000000;
  return true;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "gen_mwlog: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  parse_start("2026-01-01 00:00:00", opt.start_us);
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    if (arg == "-h" || arg == "--help") {
      std::fwrite(k_usage.data(), 1, k_usage.size(), stdout);
      return 0;
    }
    const bool known = arg == "--size" || arg == "--concurrent" || arg == "--seed" || arg == "--start" ||
                       arg == "--request-lines" || arg == "--output" || arg == "-o";
    if (!known) {
      return fail("unknown option '" + std::string(arg) + "' (see --help)");
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        return fail("option '" + std::string(arg) + "' needs a value");
      }
      value = argv[++i];
    }
    std::uint64_t n = 0;
    if (arg == "--size") {
      if (!parse_size(value, opt.size)) {
        return fail("--size: expected a byte count such as 1G, 200M or 4096, got '" + std::string(value) + "'");
      }
    } else if (arg == "--concurrent") {
      if (!parse_uint(value, n) || n < 1 || n > 100000) {
        return fail("--concurrent: expected an integer from 1 to 100000, got '" + std::string(value) + "'");
      }
      opt.concurrent = static_cast<std::uint32_t>(n);
    } else if (arg == "--request-lines") {
      if (!parse_uint(value, n) || n < 1 || n > 10'000'000) {
        return fail("--request-lines: expected an integer from 1 to 10000000, got '" + std::string(value) + "'");
      }
      opt.request_lines = static_cast<std::uint32_t>(n);
    } else if (arg == "--seed") {
      if (!parse_uint(value, opt.seed)) {
        return fail("--seed: expected a non-negative integer, got '" + std::string(value) + "'");
      }
    } else if (arg == "--start") {
      if (!parse_start(value, opt.start_us)) {
        return fail("--start: expected \"YYYY-MM-DD HH:MM:SS\" (UTC, year >= 1970), got '" + std::string(value) + "'");
      }
    } else {
      opt.output = std::string(value);
    }
  }

  std::FILE* file = stdout;
  if (!opt.output.empty() && opt.output != "-") {
    file = std::fopen(opt.output.c_str(), "wb");
    if (file == nullptr) {
      return fail("cannot open '" + opt.output + "' for writing: " + std::strerror(errno));
    }
  }
  std::setvbuf(file, nullptr, _IONBF, 0);  // Out buffers already

  Out out(file);
  Generator gen(opt, out);
  const bool ok = gen.run();
  const bool closed = file == stdout || std::fclose(file) == 0;
  if (!ok || !closed) {
    return fail(std::string("write failed: ") + std::strerror(errno));
  }
  return 0;
}
