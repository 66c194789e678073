#include <gapscan/parse/layouts.hpp>

#include <array>

namespace gapscan::parse {
namespace {

constexpr TimeNs k_noon = 1796472000LL * k_ns_per_s;  // 2026-12-05 12:00:00 UTC
constexpr TimeNs k_ms = k_ns_per_ms;

constexpr std::array k_layouts = {
    GenericLayout{"ymd", "2026-12-05 12:00:00.123 INFO request started", k_noon + 123 * k_ms},
    GenericLayout{"ymd (ISO 8601, an offset)", "2026-12-05T13:00:00.123+01:00 INFO request started",
                  k_noon + 123 * k_ms},
    GenericLayout{"ymd (day of the year)", "2026-339 12:00:00.123 job started", k_noon + 123 * k_ms},
    GenericLayout{"month-name (syslog)", "Dec  5 12:00:00 web1 sshd[77]: Accepted publickey for deploy", k_noon},
    GenericLayout{"month-name (ctime, Apache error log)",
                  "[Sat Dec 05 12:00:00.123456 2026] [php:error] [pid 4242] PHP Fatal error", k_noon + 123456000},
    GenericLayout{"month-name (RFC 1123)", "Sat, 05 Dec 2026 12:00:00 GMT upstream answered", k_noon},
    GenericLayout{"month-name (Redis)", "1234:M 05 Dec 2026 12:00:00.123 * Ready to accept connections",
                  k_noon + 123 * k_ms},
    GenericLayout{"month-name (uWSGI's own messages)", "Sat Dec  5 12:00:00 2026 - *** Starting uWSGI 2.0.21 ***",
                  k_noon},
    GenericLayout{"clf (PHP, BIND)", "05-Dec-2026 12:00:00.425 client @0x7f65 10.0.0.2#3076: query 'a/A/IN'",
                  k_noon + 425 * k_ms},
    GenericLayout{"month-name (Redis 3 and older)", "98738:M 05 Dec 12:00:00.442 * Saving the final RDB snapshot",
                  k_noon + 442 * k_ms},
    GenericLayout{"month-name (java.util.logging, the locale's month)",
                  "gru 05, 2026 12:00:00 PM org.apache.catalina.startup.HostConfig deployDirectory", k_noon},
    GenericLayout{"clf (Erlang SASL reports)", "=INFO REPORT==== 5-Dec-2026::12:00:00 ===", k_noon},
    GenericLayout{"month-day (Android logcat)", "12-05 12:00:00.123  1234  1250 I ActivityManager: Start proc",
                  k_noon + 123 * k_ms},
    GenericLayout{"month-day (Snort alerts)", "12/05-12:00:00.670923  [**] [1:2009952:7] ET WEB_SERVER Tilde in URI",
                  k_noon + 670923000},
    GenericLayout{"month-day (glog, absl)", "I1205 12:00:00.123456  1234 server.cc:12] Starting", k_noon + 123456000},
    GenericLayout{"time (a time of day)", "12:00:00.123 [main] INFO Server started", k_noon + 123 * k_ms},
    GenericLayout{"time (strace -f -tt)", "4242  12:00:00.100000 poll([{fd=3, events=POLLIN}], 1, 1000) = 1 <0.044050>",
                  k_noon + 100 * k_ms},
    GenericLayout{"time (a date in another field)", "date=2026-12-05 time=12:00:00 devname=fw1 logid=0100000001",
                  k_noon},
    GenericLayout{"compact (HDFS)", "261205 120000 143 INFO dfs.DataNode: Receiving block", k_noon},
    GenericLayout{"numeric", "12/05/2026 12:00:00 PM Service started", k_noon},
    GenericLayout{"numeric (after a label; ms after a colon)",
                  "amAuthentication:12/05/2026 12:00:00:100 PM UTC: Thread[http-8080-1,5,main]", k_noon + 100 * k_ms},
    GenericLayout{"epoch (JSON)", R"({"ts": 1796472000.123, "level": "info", "msg": "started"})", k_noon + 123 * k_ms},
    GenericLayout{"epoch (Linux audit)", "type=SYSCALL msg=audit(1796472000.123:42): arch=c000003e syscall=59",
                  k_noon + 123 * k_ms},
    GenericLayout{"epoch (zsh extended history)", ": 1796472000:0;make test", k_noon},
    GenericLayout{"epoch (bash and tcsh history)", "#1796472000\nmake test", k_noon},
    GenericLayout{"epoch-long (journalctl -o json)", R"({"__REALTIME_TIMESTAMP": "1796472000123456", "MESSAGE": "x"})",
                  k_noon + 123456000},
    GenericLayout{"tai64n (daemontools)", "@400000006b13fcc000000000 sshd: started", 1796472000LL * k_ns_per_s},
    GenericLayout{"uptime (dmesg)", "[   12.345678] e1000e: eth0 NIC Link is Up", 12345678000},
    GenericLayout{"uptime (JVM unified logging)", "[0.512s][info][gc] Using G1", 512 * k_ms},
    GenericLayout{"uptime (JDK 8 GC log)",
                  "0.486: [GC (Allocation Failure)  245362K->234628K(993280K), 0.1909734 secs]", 486 * k_ms},
    GenericLayout{"uptime (perf script)", "perf  4242 [000] 12345.678901:     250000 cpu-clock:  ffffffff81 halt",
                  12345678901000},
    GenericLayout{"after ( (sssd)", "(2026-12-05 12:00:00): [sssd] [monitor] (0x0100): ping", k_noon},
    GenericLayout{"RFC 5424", "<134>1 2026-12-05T12:00:00.123Z web1 app 1234 - - request started", k_noon + 123 * k_ms},
    GenericLayout{"key= (logfmt)", "level=info ts=2026-12-05T12:00:00.123Z msg=started", k_noon + 123 * k_ms},
    GenericLayout{"docker compose prefix", "web-1  | 2026-12-05 12:00:00.100 INFO request started",
                  k_noon + 100 * k_ms},
    GenericLayout{"syslog envelope around a finer stamp",
                  "Dec  5 12:00:00 web1 app[123]: 2026-12-05 12:00:00.144 INFO req=a1 got", k_noon + 144 * k_ms},
    GenericLayout{"terminal colours", "\x1b[32m2026-12-05 12:00:00.100\x1b[0m INFO request started",
                  k_noon + 100 * k_ms},
};

}  // namespace

std::span<const GenericLayout> generic_layouts() { return k_layouts; }

}  // namespace gapscan::parse
