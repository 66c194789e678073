#include <gapscan/parse/message_template.hpp>

#include <catch2/catch.hpp>

#include <string>

using namespace gapscan::parse;

TEST_CASE("Templates mask what varies between the lines of one statement", "[parse][template]") {
  std::string a, b;
  message_template("Lowered set() TTL for mywiki:page-restrictions:4711 due to replication lag.", a);
  message_template("Lowered set() TTL for mywiki:page-props:12 due to replication lag.", b);
  CHECK(a == "Lowered set() TTL for <*> due to replication lag.");
  CHECK(a == b);
  CHECK(template_hash(a) == template_hash(b));

  message_template(R"(GET /w/index.php?title="Main Page" took=12ms   rows=500 id=9c1f0d3e8a2b47c5)", a);
  CHECK(a == "GET /w/index.php?title=<*> took=<*> rows=<*> id=<*>");
  message_template("MemcachedPeclBagOStuff debug: get(enwiki:page-restrictions:4711)", a);
  CHECK(a == "MemcachedPeclBagOStuff debug: get(<*>)");
  message_template("connect 203.0.113.40:443 host=api.partner.example", a);
  CHECK(a == "connect <*> host=api.partner.example");

  std::string other;
  message_template("Memcached error: timeout reading line", other);
  CHECK(template_hash(other) != template_hash(a));
  message_template(std::string(500, 'x') + " tail", a);
  CHECK(a.size() <= 160 + 3);
}

TEST_CASE("The line's own request id is masked even without a digit", "[parse][template]") {
  std::string a, b;
  message_template("reqId=alpha heartbeat ok", a, "alpha");
  message_template("reqId=beta heartbeat ok", b, "beta");
  CHECK(a == "reqId=<*> heartbeat ok");
  CHECK(a == b);
}

TEST_CASE("A logfmt message's quoted words are the template, other quoted values are masked", "[parse][template]") {
  std::string a, b;
  message_template(R"(level=info msg="pool status for shard 3" open_conns=5 note="x y")", a);
  message_template(R"(level=info msg="pool status for shard 12" open_conns=9 note="z")", b);
  CHECK(a == R"(level=info msg="pool status for shard <*>" open_conns=<*> note=<*>)");
  CHECK(a == b);
  message_template(R"(message="no pending jobs, sleeping" submsg="q")", a);
  CHECK(a == R"(message="no pending jobs, sleeping" submsg=<*>)");
}
