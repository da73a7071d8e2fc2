// The web page over real HTTP: every file of server/web/ is served from the binary, byte for
// byte, with its content type, an ETag and Cache-Control: no-cache; If-None-Match gives 304;
// HEAD gives the headers alone; nothing outside the web folder can be named; /api/tiles is the
// engine's catalogue; --web-root serves a folder from disk instead.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "carcassonne/engine/tile_data.hpp"
#include "carcassonne/engine/tiles.hpp"
#include "carcassonne/protocol/options_doc.hpp"
#include "e2e_client.hpp"

using namespace e2e;
namespace fs = std::filesystem;

namespace {

std::string header(const http_reply& r, const std::string& name) {
  const auto it = r.headers.find(name);
  return it == r.headers.end() ? std::string() : it->second;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const fs::path web_dir = fs::path(CARCASSONNE_SOURCE_DIR) / "server" / "web";

}  // namespace

TEST_CASE(
    "web page: / and every file of server/web/ are served from the binary, as they are on disk") {
  test_server server;
  const auto port = server.port();
  const auto index = http_get(port, "/");
  CHECK(index.status == 200);
  CHECK(header(index, "content-type") == "text/html; charset=utf-8");
  CHECK(header(index, "cache-control") == "no-cache");
  CHECK(header(index, "etag").size() == 18);  // "16 hex digits"
  CHECK(header(index, "x-content-type-options") == "nosniff");
  CHECK(header(index, "content-security-policy").find("default-src 'self'") != std::string::npos);
  CHECK(index.body == read_file(web_dir / "index.html"));

  const std::map<std::string, std::string> types{{".html", "text/html; charset=utf-8"},
                                                 {".css", "text/css; charset=utf-8"},
                                                 {".js", "text/javascript; charset=utf-8"},
                                                 {".svg", "image/svg+xml"},
                                                 {".webmanifest", "application/manifest+json"}};
  int files = 0;
  std::set<std::string> served;
  // js/client links to the client package (clients/typescript/src), which the page imports.
  for (const auto& entry :
       fs::recursive_directory_iterator(web_dir, fs::directory_options::follow_directory_symlink)) {
    if (!entry.is_regular_file() || !types.count(entry.path().extension().string())) continue;
    const auto rel =
        entry.path().lexically_relative(web_dir).generic_string();  // not through the link
    CAPTURE(rel);
    const auto r = http_get(port, "/static/" + rel);
    CHECK(r.status == 200);
    CHECK(header(r, "content-type") == types.at(entry.path().extension().string()));
    CHECK(header(r, "cache-control") == "no-cache");
    CHECK(r.body == read_file(entry.path()));
    served.insert(rel);
    ++files;
  }
  CHECK(files >= 10);
  // The service worker and the manifest at the root too: a worker's scope is its folder.
  for (const std::string rel : {"sw.js", "manifest.webmanifest"}) {
    CAPTURE(rel);
    const auto r = http_get(port, "/" + rel);
    CHECK(r.status == 200);
    CHECK(header(r, "content-type") == types.at(fs::path(rel).extension().string()));
    CHECK(r.body == read_file(web_dir / rel));
  }
  CHECK(json::parse(read_file(web_dir / "manifest.webmanifest"))["start_url"] == "/");

  CHECK(served.count("js/client/index.js") == 1);
  // Every module a script imports is served too (a wrong path would break the page), relative
  // to the importing file's folder.
  const std::regex import_re(R"(from '(\./[a-z_/]+\.js)')");
  for (const auto& rel : served) {
    if (!rel.starts_with("js/")) continue;
    const auto text = read_file(web_dir / rel);
    for (std::sregex_iterator it(text.begin(), text.end(), import_re), end; it != end; ++it) {
      const auto target =
          (fs::path(rel).parent_path() / (*it)[1].str()).lexically_normal().generic_string();
      CAPTURE(rel);
      CAPTURE(target);
      CHECK(served.count(target) == 1);
    }
  }
}

TEST_CASE("web page: ETag and If-None-Match, HEAD, query strings, and nothing outside the folder") {
  test_server server;
  const auto port = server.port();
  const auto first = http_get(port, "/static/js/main.js");
  REQUIRE(first.status == 200);
  const auto etag = header(first, "etag");
  const auto again = http_get(port, "/static/js/main.js", {{"If-None-Match", etag}});
  CHECK(again.status == 304);
  CHECK(again.body.empty());
  CHECK(header(again, "etag") == etag);
  CHECK(http_get(port, "/static/js/main.js", {{"If-None-Match", "\"0000000000000000\", " + etag}})
            .status == 304);
  CHECK(http_get(port, "/static/js/main.js", {{"If-None-Match", "\"0000000000000000\""}}).status ==
        200);
  CHECK(http_get(port, "/static/js/board.js", {{"If-None-Match", etag}}).status ==
        200);  // another file

  const auto head = http_request(port, http::verb::head, "/");
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(header(head, "content-length") == std::to_string(http_get(port, "/").body.size()));

  CHECK(http_get(port, "/static/js/main.js?v=123").body == first.body);
  for (const char* bad :
       {"/static/../CMakeLists.txt", "/static/js/../../CMakeLists.txt", "/static/.hidden",
        "/static/js//main.js", "/static/", "/static/js/nothing.js", "/static/%2e%2e/x",
        "/index.htm", "/static/js/main.js/"}) {
    CAPTURE(bad);
    CHECK(http_get(port, bad).status == 404);
  }
  CHECK(http_request(port, http::verb::post, "/").status == 405);
  // The other endpoints are unchanged.
  CHECK(http_get(port, "/healthz").body == "ok\n");
  CHECK(header(http_get(port, "/api/rooms"), "cache-control") == "no-store");
}

TEST_CASE("web page: /api/options is the registry's vocabulary, cached like the catalogue") {
  test_server server;
  const auto r = http_get(server.port(), "/api/options");
  REQUIRE(r.status == 200);
  CHECK(header(r, "content-type") == "application/json");
  CHECK(!header(r, "etag").empty());
  const auto doc = json::parse(r.body);
  CHECK(doc == carcassonne::protocol::options_catalogue());
  CHECK(doc["expansions"].size() == 5);
  CHECK(http_get(server.port(), "/api/options", {{"If-None-Match", header(r, "etag")}}).status ==
        304);
}

TEST_CASE("web page: /api/tiles is the engine's own catalogue") {
  test_server server;
  const auto r = http_get(server.port(), "/api/tiles");
  REQUIRE(r.status == 200);
  CHECK(header(r, "content-type") == "application/json");
  CHECK(!header(r, "etag").empty());
  const auto doc = json::parse(r.body);
  CHECK(doc["format"] == "carcassonne-tiles/1");
  const auto& engine = carcassonne::tiles().types();
  // Every tile of engine/data/tiles (those sets come first); a test's expansion adds none here.
  std::size_t embedded = 0;
  for (const auto& t : engine) embedded += t.set < carcassonne::data::embedded_tile_sets().size();
  REQUIRE(doc["tiles"].size() == embedded);
  for (std::size_t i = 0; i < embedded; ++i) {
    const auto& t = doc["tiles"][i];
    CAPTURE(engine[i].id);
    CHECK(t["id"] == engine[i].id);
    CHECK(t["count"] == engine[i].count);
    CHECK(t["features"].size() == engine[i].segments.size());
    CHECK(t["set"] == carcassonne::tiles().set_names()[engine[i].set]);
  }
}

TEST_CASE("web page: --web-root serves the page from a folder, read at each request") {
  const auto dir =
      fs::temp_directory_path() / ("carcassonne-web-root-" + std::to_string(::getpid()));
  fs::create_directories(dir / "js");
  std::ofstream(dir / "index.html") << "<p>one</p>";
  std::ofstream(dir / "js" / "app.js") << "export {};";
  auto c = test_config();
  c.web_root = dir.string();
  test_server server(c);
  const auto port = server.port();
  CHECK(http_get(port, "/").body == "<p>one</p>");
  const auto etag = header(http_get(port, "/"), "etag");
  std::ofstream(dir / "index.html") << "<p>two</p>";  // edited: served at once, with a new ETag
  const auto edited = http_get(port, "/", {{"If-None-Match", etag}});
  CHECK(edited.status == 200);
  CHECK(edited.body == "<p>two</p>");
  CHECK(header(http_get(port, "/static/js/app.js"), "content-type") ==
        "text/javascript; charset=utf-8");
  CHECK(http_get(port, "/static/js/main.js").status ==
        404);  // only the folder, not the built-in copy
  CHECK(http_get(port, "/api/tiles").status == 200);
  fs::remove_all(dir);

  std::string message;
  bool help = false;
  const std::vector<std::string> args{"--web-root", "/srv/web"};
  const auto parsed = carcassonne::server::parse_config(args, false, message, help);
  REQUIRE(parsed);
  CHECK(parsed->web_root == "/srv/web");
  CHECK(carcassonne::server::config_help().find("CARCASSONNE_WEB_ROOT") != std::string::npos);
}
