// Nonces (docs/fairness.md): the format the parser accepts in `join` and `nonce`, and the stable
// code of a refusal.
#include <doctest/doctest.h>

#include <string>

#include "carcassonne/protocol/messages.hpp"

using namespace carcassonne::protocol;

TEST_CASE("nonces: hex or base64, 1 to 64 characters, at most two '=' of padding") {
  for (const char* ok : {
           "0",
           "a1b2c3d4",
           "Zm9vYmFy+/==",
           "Zm9vYg=",
           "A-_z",
       })
    CHECK_MESSAGE(valid_nonce(ok), ok);
  CHECK(valid_nonce(std::string(64, 'f')));
  CHECK(valid_nonce(std::string(62, 'f') + "=="));
  CHECK_FALSE(valid_nonce(std::string(65, 'f')));
  for (const char* bad : {"", "=", "a b", "abc===", "é", "a=b", "{}"})
    CHECK_FALSE_MESSAGE(valid_nonce(bad), bad);
}

TEST_CASE("nonces in messages: join carries one, the nonce message one, bad ones are bad_nonce") {
  auto j = parse_request(R"({"type":"join","room":"r","name":"Ann","nonce":"a1b2"})");
  REQUIRE(j.value);
  CHECK(std::get<join_msg>(j.value->message).nonce == "a1b2");
  j = parse_request(R"({"type":"join","room":"r","name":"Ann"})");
  REQUIRE(j.value);
  CHECK_FALSE(std::get<join_msg>(j.value->message).nonce.has_value());
  auto n = parse_request(R"({"type":"nonce","id":4,"nonce":"Zm9v"})");
  REQUIRE(n.value);
  CHECK(std::get<nonce_msg>(n.value->message).nonce == "Zm9v");
  for (const char* bad : {R"({"type":"nonce","id":5,"nonce":"a b"})", R"({"type":"nonce","id":5})",
                          R"({"type":"nonce","id":5,"nonce":12})",
                          R"({"type":"join","id":5,"room":"r","name":"A","nonce":"é"})"}) {
    const auto p = parse_request(bad);
    CHECK_FALSE(p.value);
    CHECK(p.error.code == "bad_nonce");
    CHECK(p.id == 5);
  }
}
