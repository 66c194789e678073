// Runs, quantisation and per-stream detections through the real binary on generated logs.

#include "../test_random.hpp"
#include "run_binary.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using gapscan::testing::gapscan_command;
using gapscan::testing::Random;
using gapscan::testing::run_command;

namespace {

/// "2026-11-29T21:03:04.123456Z reqId=<id> <message>" for a time in µs since 21:00:00.
std::string line(std::int64_t micros, const std::string& id, const std::string& message) {
  const std::int64_t seconds = micros / 1'000'000;
  char stamp[64];
  std::snprintf(stamp, sizeof stamp, "2026-11-29T21:%02lld:%02lld.%06lldZ", static_cast<long long>(seconds / 60),
                static_cast<long long>(seconds % 60), static_cast<long long>(micros % 1'000'000));
  std::string out = stamp;
  out += " reqId=";
  out += id;
  out += ' ';
  out += message;
  out += '\n';
  return out;
}

}  // namespace

TEST_CASE("A polling loop is reported as a run, with its lines and its stream", "[e2e][detect]") {
  const std::string path = "gapscan_e2e_runs.log";
  {
    Random random(5);
    std::ofstream out(path);
    std::int64_t t = 0;
    for (int r = 0; r < 8; ++r) {  // ordinary requests
      for (int i = 0; i < 40; ++i) {
        t += static_cast<std::int64_t>(random.lognormal(2000, 1.2));
        out << line(t, "req" + std::string(1, static_cast<char>('a' + r)), "work");
      }
    }
    for (int i = 0; i < 12; ++i) {
      t += static_cast<std::int64_t>(random.lognormal(2000, 1.2));
      out << line(t, "poller", "setup");
    }
    for (int i = 0; i < 30; ++i) {  // waits for a lock, retrying every 50 ms
      t += 50'000 + static_cast<std::int64_t>(40 * random.normal());
      out << line(t, "poller", "lock busy, retrying");
    }
    out << line(t + 1500, "poller", "lock acquired");
  }
  const auto result = run_command(gapscan_command("--output json " + path));
  const auto text = run_command(gapscan_command(path));
  std::remove(path.c_str());
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE(json["runs"].size() >= 1);
  const auto& run = json["runs"][0];
  CHECK(run["stream"] == "poller");
  CHECK(run["length"].get<int>() >= 29);
  CHECK(std::abs(run["centre_ms"].get<double>() - 50) < 0.1);
  CHECK(run["first"]["text"].get<std::string>().find("reqId=poller") != std::string::npos);
  CHECK(run["log10_p"].get<double>() < -10);
  bool listed = false;
  for (const auto& stream : json["streams"]) listed = listed || stream["stream"] == "poller";
  CHECK(listed);
  CHECK(text.out.find("Runs of near-equal consecutive gaps") != std::string::npos);
  CHECK(json["quantisation"].is_null());
  if (!json["quantisation"].is_null()) WARN(json["quantisation"].dump());
}

TEST_CASE("Gaps on a 4 ms timer lattice are reported as quantisation", "[e2e][detect]") {
  const std::string path = "gapscan_e2e_lattice.log";
  {
    Random random(6);
    std::ofstream out(path);
    std::int64_t t = 0;
    for (int r = 0; r < 20; ++r) {
      for (int i = 0; i < 40; ++i) {  // sleeps that end on HZ=250 ticks
        t += 4000 * (1 + static_cast<std::int64_t>(random.uniform() * 12)) +
             static_cast<std::int64_t>(30 * random.normal());
        out << line(t, std::string("r") + static_cast<char>('a' + r), "tick");
      }
    }
  }
  const auto result = run_command(gapscan_command("--output json " + path));
  std::remove(path.c_str());
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE_FALSE(json["quantisation"].is_null());
  CHECK(std::abs(json["quantisation"]["base_ms"].get<double>() / 4 - 1) < 0.02);
  CHECK(json["quantisation"]["share"].get<double>() > 0.9);
}

TEST_CASE("Logged request times are analysed, and split by --group-by", "[e2e][detect]") {
  const std::string path = "gapscan_e2e_durations.log";
  {
    Random random(8);
    std::ofstream out(path);
    std::int64_t t = 0;
    for (int i = 0; i < 1200; ++i) {
      t += 5000;
      const bool big = i % 2 == 1;
      double ms = random.lognormal(40, 0.8);
      if (big && i % 20 == 1) ms = 200 + random.uniform();  // a retransmission in the large requests only
      char text[96];
      std::snprintf(text, sizeof text, "payload=%s elapsed_ms=%.1f", big ? "65536" : "512", ms);
      out << line(t, std::string("q") + static_cast<char>('a' + i % 26), text);
    }
  }
  const auto pooled = run_command(gapscan_command("--output json " + path));
  const auto grouped = run_command(gapscan_command("--output json --group-by payload " + path));
  std::remove(path.c_str());
  REQUIRE(pooled.exit_code == 0);
  const auto json = nlohmann::json::parse(pooled.out);
  bool found = false;
  // Reported as a finding of its own, or as another delay of a cause that also explains a gap
  // mode holding more time (other_delays).
  for (const auto& f : json["findings"]) {
    if (f["values"] == "durations" && std::abs(f["interval_ms"].get<double>() - 200.5) < 1) found = true;
    for (const auto& other : f["other_delays"]) {
      if (other["values"] == "durations" && std::abs(other["interval_ms"].get<double>() - 200.5) < 1) found = true;
    }
  }
  CHECK(found);
  const auto by_payload = nlohmann::json::parse(grouped.out);
  bool in_group = false;
  for (const auto& f : by_payload["findings"]) {
    if (f["values"] == "durations") in_group = in_group || f["group"] == "65536";
  }
  CHECK(in_group);
}

TEST_CASE("With --derived-streams a statement on a timer across requests is found by its template", "[e2e][detect]") {
  const std::string path = "gapscan_e2e_templates.log";
  {
    Random random(9);
    std::ofstream out(path);
    std::int64_t t = 0;
    for (int i = 0; i < 200; ++i) {  // each request logs once; one statement repeats every 250 ms
      t += 250'000 + static_cast<std::int64_t>(200 * random.normal());
      char text[80];
      std::snprintf(text, sizeof text, "heartbeat seq=%d queue_depth=%d", i, static_cast<int>(random.uniform() * 50));
      out << line(t, std::string("h") + static_cast<char>('a' + i % 26) + static_cast<char>('a' + i / 26), text);
      out << line(t + 1000 + static_cast<std::int64_t>(random.uniform() * 90'000),
                  std::string("w") + static_cast<char>('a' + i % 26) + static_cast<char>('a' + i / 26), "work done");
    }
  }
  const auto plain = run_command(gapscan_command("--output json " + path));
  const auto derived = run_command(gapscan_command("--output json --derived-streams " + path));
  std::remove(path.c_str());
  REQUIRE(derived.exit_code == 0);
  const auto json = nlohmann::json::parse(derived.out);
  bool found = false;
  for (const auto& stream : json["streams"]) {
    if (stream["kind"] != "template" || stream["modes"].empty()) continue;
    if (stream["label"].get<std::string>().find("heartbeat seq=<*> queue_depth=<*>") != std::string::npos &&
        std::abs(stream["modes"][0]["centre_ms"].get<double>() - 250) < 1) {
      found = true;
    }
  }
  CHECK(found);
  CHECK(json["analysis"]["derived_streams"].get<int>() >= 2);
  const auto without = nlohmann::json::parse(plain.out);
  CHECK(without["analysis"]["derived_streams"] == 0);
}

TEST_CASE("A wait between requests shows in the stream of the thread that serves them", "[e2e][detect]") {
  // Three worker threads serve requests one after another; before each request a worker waits
  // 44 ms for its pooled connection. No request shows that wait (it lies between requests),
  // the thread's own stream does.
  const std::string path = "gapscan_e2e_process.log";
  {
    Random random(9);
    std::ofstream out(path);
    std::vector<std::string> lines;
    std::vector<std::int64_t> times;
    for (int worker = 0; worker < 3; ++worker) {
      std::int64_t t = 1000 * worker;
      for (int request = 0; request < 60; ++request) {
        t += 44'000 + static_cast<std::int64_t>(100 * random.uniform());
        std::string id = "r";
        id += std::to_string(worker);
        id += '_';
        id += std::to_string(request);
        for (int i = 0; i < 5; ++i) {
          std::string message = "thread=worker-";
          message += std::to_string(worker);
          message += " step ";
          message += std::to_string(i);
          times.push_back(t);
          lines.push_back(line(t, id, message));
          if (i < 4) t += static_cast<std::int64_t>(random.lognormal(2000, 0.8));
        }
      }
    }
    std::vector<std::size_t> order(lines.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
    for (std::size_t i : order) out << lines[i];
  }
  const auto result = run_command(gapscan_command("--output json " + path));
  std::remove(path.c_str());
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  int threads = 0;
  for (const auto& stream : json["streams"]) {
    if (stream["kind"] != "process" || stream["modes"].empty()) continue;
    CHECK(stream["label"].get<std::string>().find("worker-") == 0);
    CHECK(stream["modes"][0]["centre_ms"].get<double>() == Approx(44.05).margin(0.5));
    ++threads;
  }
  CHECK(threads == 3);
  CHECK(json["analysis"]["derived_streams"] == 3);
  for (const auto& stream : json["streams"]) {
    if (stream["kind"] != "request") continue;
    for (const auto& mode : stream["modes"]) CHECK(std::abs(mode["centre_ms"].get<double>() - 44) > 2);
  }
  // The wait between requests is reported beside the suspects, never as a confident one.
  for (const auto& finding : json["findings"]) CHECK(finding["confidence"].get<double>() < 0.6);
}

TEST_CASE("Three fork lines among busy clients are enough to tie the clients' stalls to them", "[e2e][detect]") {
  // Four workers log a line every 1.5-4 ms; each stalls 15-22 ms when the server forks, which
  // it does three times in 25 s. One occurrence alone proves little; three do.
  const std::string clients = "gapscan_e2e_forks_clients.log", server = "gapscan_e2e_forks_redis.log";
  const std::vector<std::int64_t> forks = {5'300'000, 12'100'000, 19'700'000};
  {
    Random random(11);
    std::vector<std::pair<std::int64_t, std::string>> lines;
    for (int w = 0; w < 4; ++w) {
      std::int64_t t = static_cast<std::int64_t>(random.uniform() * 10'000);
      int left = 0, request = 0;
      std::string id;
      while (t < 25'000'000) {
        if (left == 0) {
          id = std::to_string(w);
          id += 'r';
          id += std::to_string(request++);
          left = 20 + static_cast<int>(random.uniform() * 40);
          lines.emplace_back(t, line(t, id, "Start request GET /wiki/Page"));
        } else {
          lines.emplace_back(t, line(t, id, "RedisBagOStuff::get key"));
        }
        --left;
        std::int64_t dt = 1'500 + static_cast<std::int64_t>(random.uniform() * 2'500);
        for (std::int64_t fork : forks) {
          if (t < fork && fork <= t + dt) dt = fork - t + 15'000 + static_cast<std::int64_t>(random.uniform() * 7'000);
        }
        t += dt;
      }
    }
    std::sort(lines.begin(), lines.end());
    std::ofstream out(clients);
    for (const auto& [t, text] : lines) out << text;
    std::ofstream redis(server);
    const auto stamp = [](std::int64_t micros) {
      char text[64];
      std::snprintf(text, sizeof text, "900:M 29 Nov 2026 21:%02lld:%02lld.%03lld",
                    static_cast<long long>(micros / 60'000'000), static_cast<long long>(micros / 1'000'000 % 60),
                    static_cast<long long>(micros / 1000 % 1000));
      return std::string(text);
    };
    redis << stamp(0) << " * Ready to accept connections\n";
    for (std::int64_t fork : forks) {
      redis << stamp(fork) << " * Background saving started by pid 912\n";
      redis << stamp(fork + 400'000) << " * Background saving terminated with success\n";
    }
  }
  const auto result = run_command(gapscan_command("--output json " + clients + " " + server));
  std::remove(clients.c_str());
  std::remove(server.c_str());
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  REQUIRE_FALSE(json["findings"].empty());
  const auto& first = json["findings"][0];
  CHECK(first["cause"] == "fork_page_table_copy");
  CHECK(first["confidence"].get<double>() >= 0.6);
  CHECK(first["trigger"]["occurrences"] == 3);
  CHECK(first["trigger"]["aligned"] == 3);
  CHECK(std::abs(first["interval_ms"].get<double>() - 18.5) < 3);
}

namespace {

/// A client's key=value log: `requests` requests in a row, each a connect, a get and a set
/// logged with `req=`, `op=` and `ms=`, 200 ms of its own pacing between requests; with
/// `drop_share` of the connects waiting for a SYN retransmission (1 s and a few ms).
std::string client_log(int requests, double drop_share, std::uint64_t seed) {
  Random random(seed);
  std::string out;
  std::int64_t t = 0;  // µs
  for (int request = 1; request <= requests; ++request) {
    for (const char* op : {"connect", "get", "set"}) {
      double ms = std::string(op) == "connect" ? 0.15 + 0.45 * random.uniform() : 0.3 + 2.2 * random.uniform();
      if (std::string(op) == "connect" && random.uniform() < drop_share) ms += 1000 + 5 + 15 * random.uniform();
      t += static_cast<std::int64_t>(ms * 1000);
      const std::int64_t seconds = t / 1'000'000;
      char text[160];
      std::snprintf(text, sizeof text,
                    "2026-12-02T10:%02lld:%02lld.%06lldZ level=info req=%d op=%s ms=%.3f status=ok\n",
                    static_cast<long long>(seconds / 60), static_cast<long long>(seconds % 60),
                    static_cast<long long>(t % 1'000'000), request, op, ms);
      out += text;
      t += static_cast<std::int64_t>((50 + 150 * random.uniform()));
    }
    t += static_cast<std::int64_t>((200 + 4 * random.uniform() - 2) * 1000);
  }
  return out;
}

}  // namespace

TEST_CASE("A key=value client log: requests by req=, durations by op=, the pacing between requests no cause",
          "[e2e][detect]") {
  const auto scan = [](const std::string& text) {
    const std::string path = "gapscan_e2e_client.log";
    std::ofstream(path) << text;
    const auto result = run_command(gapscan_command("--output json " + path));
    std::remove(path.c_str());
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.out);
  };
  const auto faulty = scan(client_log(300, 0.25, 21));
  CHECK(faulty["analysis"]["keyed_windows"].get<int>() == 300);
  REQUIRE_FALSE(faulty["findings"].empty());
  const auto& f = faulty["findings"][0];
  CHECK(f["cause"] == "tcp_syn_drop_connect_stall");
  CHECK(f["values"] == "durations");
  CHECK(f["group"] == "op=connect");
  CHECK(std::abs(f["interval_ms"].get<double>() - 1012) < 15);
  // The healthy run: its 200 ms pacing between requests is never a finding at 0.6 or more.
  const auto healthy = scan(client_log(300, 0, 22));
  for (const auto& finding : healthy["findings"]) CHECK(finding["confidence"].get<double>() < 0.6);
  // The report says which key grouped the lines; a name gapscan does not know is learnt.
  CHECK(faulty["inputs"][0]["format"].get<std::string>().find("requests by req=") != std::string::npos);
  std::string renamed = client_log(300, 0.25, 21);
  for (std::size_t at = renamed.find(" req="); at != std::string::npos; at = renamed.find(" req=", at + 1))
    renamed.replace(at, 5, " job=");
  const auto learnt = scan(renamed);
  CHECK(learnt["analysis"]["keyed_windows"].get<int>() == 300);
  CHECK(learnt["inputs"][0]["format"].get<std::string>().find("requests by job= (learnt") != std::string::npos);
  REQUIRE_FALSE(learnt["findings"].empty());
  CHECK(learnt["findings"][0]["cause"] == "tcp_syn_drop_connect_stall");
}

TEST_CASE("A client log with no request key: the pacing between its finished operations is reported apart",
          "[e2e][detect]") {
  const auto scan = [](const std::string& text, const std::string& args = "") {
    const std::string path = "gapscan_e2e_unkeyed.log";
    std::ofstream(path) << text;
    const auto result = run_command(gapscan_command("--output json " + args + path));
    std::remove(path.c_str());
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.out);
  };
  // The key=value client of the test above, without req=: one stream, each line an operation
  // that logs its own duration, 200 ms between requests.
  const auto unkeyed = [](double drop_share, std::uint64_t seed) {
    std::string text = client_log(300, drop_share, seed);
    for (std::size_t at = text.find(" req="); at != std::string::npos; at = text.find(" req=", at)) {
      text.erase(at, text.find(' ', at + 1) - at);
    }
    return text;
  };
  const auto healthy = scan(unkeyed(0, 31));
  for (const auto& finding : healthy["findings"]) CHECK(finding["confidence"].get<double>() < 0.6);
  CHECK(healthy["analysis"]["pacing_gaps"].get<int>() == 899);
  CHECK(healthy["analysis"]["gaps"].get<int>() == 0);
  bool reported = false;
  for (const auto& stream : healthy["streams"]) {
    if (stream["kind"] != "pacing" || stream["modes"].empty()) continue;
    reported = std::abs(stream["modes"][0]["centre_ms"].get<double>() - 200) < 10;
  }
  CHECK(reported);
  // With a quarter of the connects waiting for a SYN retransmission, the durations name it.
  const auto faulty = scan(unkeyed(0.25, 32));
  REQUIRE_FALSE(faulty["findings"].empty());
  CHECK(faulty["findings"][0]["cause"] == "tcp_syn_drop_connect_stall");
  CHECK(faulty["findings"][0]["group"] == "op=connect");
  CHECK(faulty["findings"][0]["confidence"].get<double>() >= 0.6);
}

namespace {

/// A varnishncsa log (-F with %D, %{Varnish:handling}x and %{Set-Cookie}o) of a site whose
/// pages start a session: with `cookie_on_pages` every page is a miss at the backend's render
/// time with a fresh PHPSESSID, else pages are hits. Long user agents put the Set-Cookie past
/// the first 320 bytes of the line.
std::string varnish_log(bool cookie_on_pages, std::uint64_t seed) {
  Random random(seed);
  std::string out;
  const std::string agent =
      "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Version/4.0 Chrome/131.0.6778.135 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/490.0.0.60.64;IABMV/1;]";
  for (int i = 0; i < 400; ++i) {
    const int second = i / 3;
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "02/Dec/2026:09:%02d:%02d +0000", second / 60, second % 60);
    const bool page = i % 2 == 0;
    std::string handling = "hit", cookie = "-";
    long micros = 40 + static_cast<long>(400 * random.uniform());
    if (page && cookie_on_pages) {
      handling = "miss";
      micros = static_cast<long>(1000 * (140 + 90 * random.uniform()));
      char id[32];
      std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(random.next()));
      cookie = std::string("PHPSESSID=") + id + "; path=/";
    }
    char text[1024];
    std::snprintf(text, sizeof text,
                  "66.249.66.%d - - [%s] \"GET http://news.example.org/%s/%d HTTP/1.1\" 200 %d "
                  "\"https://www.google.com/\" \"%s\" %ld %s \"%s\"\n",
                  i % 200, stamp, page ? "article" : "static/img", 48000 + i, 20000 + i * 7, agent.c_str(), micros,
                  handling.c_str(), cookie.c_str());
    out += text;
  }
  return out;
}

}  // namespace

TEST_CASE("A cache that misses every page with a session cookie is found from the access log's named fields",
          "[e2e][detect]") {
  const auto scan = [](const std::string& text, const std::string& args) {
    const std::string path = "gapscan_e2e_varnish.log";
    std::ofstream(path) << text;
    const auto result = run_command(gapscan_command("--output json " + args + path));
    std::remove(path.c_str());
    REQUIRE(result.exit_code == 0);
    return nlohmann::json::parse(result.out);
  };
  // By a preset (the fields by name), and read by shape without one.
  for (const std::string args : {"--format-file varnishncsa-cache ", ""}) {
    INFO(args);
    const auto faulty = scan(varnish_log(true, 41), args);
    REQUIRE_FALSE(faulty["findings"].empty());
    const auto& top = faulty["findings"][0];
    INFO(top.dump(1).substr(0, 1500));
    CHECK(top["cause"] == "http_cache_bypass_set_cookie");
    CHECK(top["confidence"].get<double>() >= 0.6);
    CHECK(top["values"] == "durations");
    const auto healthy = scan(varnish_log(false, 42), args);
    for (const auto& finding : healthy["findings"]) CHECK(finding["confidence"].get<double>() < 0.6);
  }
  const auto preset = scan(varnish_log(true, 43), "--format-file varnishncsa-cache ");
  CHECK(preset["inputs"][0]["format"].get<std::string>().find("varnishncsa-cache") != std::string::npos);
}
