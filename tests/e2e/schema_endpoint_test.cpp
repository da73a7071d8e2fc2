// The wire schema over real HTTP: /api/schema is docs/schema/protocol.json and /api/schema/F
// every other file of docs/schema/, served from the binary byte for byte as JSON, with an ETag;
// nothing else can be named there.
#include <filesystem>
#include <fstream>

#include "e2e_client.hpp"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

const fs::path schema_dir = fs::path(CARCASSONNE_SOURCE_DIR) / "docs" / "schema";

std::string schema_source(const std::string& name) {
  std::ifstream in(schema_dir / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string schema_header(const http_reply& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

}  // namespace

TEST_CASE("schema: /api/schema and /api/schema/{file} serve docs/schema/ from the binary") {
  test_server server;
  const auto port = server.port();
  const auto root = http_get(port, "/api/schema");
  REQUIRE(root.status == 200);
  CHECK(schema_header(root, "content-type") == "application/json");
  CHECK(root.body == schema_source("protocol.json"));
  CHECK(json::parse(root.body)["$schema"] == "https://json-schema.org/draft/2020-12/schema");
  CHECK(http_get(port, "/api/schema", {{"If-None-Match", schema_header(root, "etag")}}).status ==
        304);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(schema_dir)) {
    const auto name = entry.path().filename().string();
    CAPTURE(name);
    const auto r = http_get(port, "/api/schema/" + name);
    CHECK(r.status == 200);
    CHECK(r.body == schema_source(name));
    ++files;
  }
  CHECK(files >= 8);  // the root, seven areas and the AsyncAPI document
  CHECK(http_get(port, "/api/schema/nothing.json").status == 404);
  CHECK(http_get(port, "/api/schema/../protocol.md").status == 404);
  CHECK(http_get(port, "/api/schema/sub/protocol.json").status == 404);
}
