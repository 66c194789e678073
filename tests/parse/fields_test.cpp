#include <gapscan/parse/fields.hpp>

#include <catch2/catch.hpp>

using namespace gapscan::parse;

TEST_CASE("Request ids from key=value pairs", "[parse][fields]") {
  CHECK(find_request_id_pair("level=info reqId=abc123 msg=x") == "abc123");
  CHECK(find_request_id_pair("level=info request_id=\"r 1\" msg=x") == "r 1");
  CHECK(find_request_id_pair("msg=\"a=b\" RID=zz,other") == "zz");
  CHECK(find_request_id_pair("user=bob id=7") == "");
  CHECK(find_request_id_pair("trace_id=") == "");
}

TEST_CASE("Trailing JSON objects and their string fields", "[parse][fields]") {
  const std::string_view line = R"(msg {"a":"}"} {"host":"w","reqId":"9c1f","x":"q\"}"}  )";
  const std::string_view extra = trailing_json_object(line);
  CHECK(extra == R"({"host":"w","reqId":"9c1f","x":"q\"}"})");
  CHECK(json_string_field(extra, "reqId") == "9c1f");
  CHECK(json_string_field(extra, "missing") == "");
  CHECK(trailing_json_object("no object here") == "");
  CHECK(json_string_field(R"({"notreqId":"a","reqId" : "b"})", "reqId") == "b");
}
