// Fair randomness without sockets (docs/fairness.md): OpenSSL's SHA-256, CSPRNG and constant-time
// compare; the documented test vectors, read from the page itself; a whole game through a room
// whose record verifies; and records tampered in one place that fail there, and only there.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "base/crypto.hpp"
#include "carcassonne/app/commands.hpp"
#include "carcassonne/engine/rng.hpp"
#include "fairness/fairness.hpp"
#include "room_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using carcassonne::testing::make_client;
using carcassonne::testing::play_out;
using carcassonne::testing::test_room_settings;
using namespace carcassonne::testing::messages;
using nlohmann::json;

namespace {

constexpr const char* test_secret =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

std::string unquote(std::string cell) {
  const auto a = cell.find_first_not_of(" `"), b = cell.find_last_not_of(" `");
  return a == std::string::npos ? std::string() : cell.substr(a, b - a + 1);
}

// The rows of docs/fairness.md's test-vector tables whose first cell is a 64-digit secret.
std::vector<std::vector<std::string>> doc_vectors() {
  std::ifstream f(std::string(CARCASSONNE_SOURCE_DIR) + "/docs/fairness.md");
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream in(line.substr(1));
    for (std::string cell; std::getline(in, cell, '|');)
      if (!unquote(cell).empty()) cells.push_back(unquote(cell));
    if (!cells.empty() && cells[0].size() == 64) rows.push_back(cells);
  }
  return rows;
}

std::pair<int, json> verify(const json& record, bool partial = false) {
  std::istringstream in(record.dump());
  std::ostringstream out, err;
  const std::vector<std::string> args = partial
                                            ? std::vector<std::string>{"verify", "--partial", "-"}
                                            : std::vector<std::string>{"verify", "-"};
  const int code = app::run_command(args, in, out, err);
  return {code, json::parse(out.str())};
}

// A whole 3-seat game with every expansion through a room (the room's own outcome lists), random
// legal moves from each seat's view.
json fair_record() {
  metrics stats;
  auto s = test_room_settings(
      "fair", 3, "unused",
      {{"expansions", {"hills_and_sheep", "gifts", "peasant_revolts", "easter"}}});
  s.secret = test_secret;
  auto a = make_client(), b = make_client(), c = make_client();
  room r(s, &stats, a);
  auto with_nonce = [](const char* name, const char* nonce) {
    auto m = join_as(name);
    m.nonce = nonce;
    return m;
  };
  r.join(a, with_nonce("Ann", "a1b2c3d4"), nullptr);
  r.join(b, join_as("Bob"), nullptr);
  r.join(c, with_nonce("Cid", "Zm9vYmFy"), nullptr);
  r.start(a, nullptr);
  std::vector<std::shared_ptr<fake_client>> seats{a, b, c};
  play_out(r, seats, 5);
  REQUIRE(r.game()->finished);
  CHECK(a->view["room"]["fairness"]["secret"] == test_secret);
  return r.record();
}

// Where the first outcome of a kind is: (list index, entry index).
std::pair<std::size_t, std::size_t> first_of(const json& record, const char* kind) {
  const auto& lists = record["fairness"]["outcomes"];
  for (std::size_t i = 0; i < lists.size(); ++i)
    for (std::size_t k = 0; k < lists[i].size(); ++k)
      if (lists[i][k].contains(kind)) return {i, k};
  FAIL("no outcome of kind " << kind);
  return {0, 0};
}

}  // namespace

TEST_CASE("crypto: EVP SHA-256 vectors, hex, constant-time compare") {
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(to_hex(sha256("")).size() == 64);
  CHECK(from_hex("00ff10") == bytes{0, 255, 16});
  CHECK_FALSE(from_hex("0g").has_value());
  CHECK_FALSE(from_hex("abc").has_value());
  CHECK(equal_constant_time("", ""));
  CHECK(equal_constant_time("abcdef", "abcdef"));
  CHECK_FALSE(equal_constant_time("abcdef", "abcdeg"));
  CHECK_FALSE(equal_constant_time("abcdef", "abcde"));
}

TEST_CASE("crypto: tokens and ids from the CSPRNG are hex, distinct and evenly spread") {
  std::set<std::string> seen;
  std::map<char, int> digits;
  for (int i = 0; i < 2000; ++i) {
    const auto t = random_hex(32);
    REQUIRE(t.size() == 32);
    CHECK(t.find_first_not_of("0123456789abcdef") == std::string::npos);
    seen.insert(t);
    for (char d : t) ++digits[d];
  }
  CHECK(seen.size() == 2000);
  CHECK(random_hex(7).size() == 7);
  REQUIRE(digits.size() == 16);
  for (const auto& [d, n] : digits) {  // 4000 expected each, standard deviation about 61
    const char digit = d;              // clang 14 cannot capture a structured binding
    CAPTURE(digit);
    CHECK(n > 3500);
    CHECK(n < 4500);
  }
  CHECK(fairness::new_secret().size() == 64);
  CHECK(fairness::new_secret() != fairness::new_secret());
}

TEST_CASE("resume compares token hashes in constant time: one wrong digit is refused") {
  metrics stats;
  const auto s = test_room_settings("r", 2, "x");
  auto a = make_client(), b = make_client(), a2 = make_client();
  room r(s, &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  std::string token = a->last("joined")["token"].get<std::string>();
  std::string wrong = token;
  wrong.back() = wrong.back() == '0' ? '1' : '0';
  r.resume(a2, resume_with("r", wrong), nullptr);
  CHECK(a2->last_error() == "bad_token");
  r.resume(a2, resume_with("r", token), nullptr);
  CHECK(a2->last("resumed")["seat"] == 0);
}

TEST_CASE("docs/fairness.md: its test vectors hold") {
  const auto rows = doc_vectors();
  int commitments = 0, seeds = 0;
  for (const auto& row : rows) {
    CAPTURE(row[0]);
    if (row.size() == 2) {
      CHECK(fairness::commitment_of(row[0]) == row[1]);
      ++commitments;
    } else if (row.size() == 3) {
      const auto nonces = json::parse(row[1]).get<std::vector<std::string>>();
      CHECK(fairness::derive_seed(row[0], nonces) == row[2]);
      ++seeds;
    }
  }
  CHECK(commitments == 2);
  CHECK(seeds == 4);
}

TEST_CASE("a fair game through a room verifies; a record changed in one place fails there") {
  const json record = fair_record();
  const auto& f = record["fairness"];
  CHECK(f["nonces"] == json::array({"a1b2c3d4", "", "Zm9vYmFy"}));
  CHECK(record["setup"]["seed"] ==
        fairness::derive_seed(test_secret, {"a1b2c3d4", "", "Zm9vYmFy"}));
  CHECK(f["commitment"] == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
  {
    const auto [code, verdict] = verify(record);
    const auto shown = verdict.dump();  // clang 14 cannot capture a structured binding
    CHECK_MESSAGE(code == 0, shown);
    CHECK(verdict["verified"] == true);
  }

  // One outcome changed: the verdict names that list and that entry.
  const auto tampered = [&](const char* kind, const json& other_a, const json& other_b) {
    CAPTURE(kind);
    const auto [i, k] = first_of(record, kind);
    json bad = record;
    auto& entry = bad["fairness"]["outcomes"][i][k][kind];
    entry = entry == other_a ? other_b : other_a;
    const auto [code, verdict] = verify(bad);
    CHECK(code == 4);
    const auto& m = verdict["mismatch"];
    CHECK(m["at"] == (i == 0 ? "setup" : "move"));
    if (i > 0) CHECK(m["move"] == i - 1);
    CHECK(m["index"] == k);
    CHECK(m["record"] == bad["fairness"]["outcomes"][i][k]);
    CHECK(m["replay"] == record["fairness"]["outcomes"][i][k]);
  };
  tampered("tile", "BA/C", "BA/L");
  tampered("hill", "BA/C", "BA/L");
  tampered("sheep", "wolf", "sheep1");
  tampered("gift", "synod", "take_two");
  tampered("die", 1, 3);
  tampered("set_aside", json::array({"PR/01", "PR/02", "PR/03"}),
           json::array({"PR/04", "PR/05", "PR/06"}));

  // A tile swapped in a later move's list too (not only the first of its kind).
  {
    json bad = record;
    auto& lists = bad["fairness"]["outcomes"];
    std::size_t at = 0;
    for (std::size_t i = lists.size() / 2; i < lists.size() && !at; ++i)
      if (!lists[i].empty() && lists[i][0].contains("tile")) at = i;
    REQUIRE(at > 0);
    lists[at][0]["tile"] = lists[at][0]["tile"] == "BA/C" ? "BA/L" : "BA/C";
    const auto [code, verdict] = verify(bad);
    CHECK(code == 4);
    CHECK(verdict["mismatch"]["move"] == at - 1);
  }
  // A nonce changed: the seed no longer derives.
  {
    json bad = record;
    bad["fairness"]["nonces"][1] = "00";
    const auto [code, verdict] = verify(bad);
    CHECK(code == 4);
    CHECK(verdict["mismatch"]["at"] == "seed");
  }
  // The secret changed: the commitment no longer matches.
  {
    json bad = record;
    bad["fairness"]["secret"] = std::string(64, 'f');
    const auto [code, verdict] = verify(bad);
    CHECK(code == 4);
    CHECK(verdict["mismatch"]["at"] == "commitment");
  }
  // Secret, commitment and seed all consistent with another secret: the draws give it away.
  {
    json bad = record;
    const std::string other(64, 'f');
    bad["fairness"]["secret"] = other;
    bad["fairness"]["commitment"] = fairness::commitment_of(other);
    bad["setup"]["seed"] = fairness::derive_seed(other, {"a1b2c3d4", "", "Zm9vYmFy"});
    const auto [code, verdict] = verify(bad);
    CHECK(code == 4);
    CHECK((verdict["mismatch"]["at"] == "setup" || verdict["mismatch"]["at"] == "move"));
  }
  // Malformed fairness data: exit 2, nothing claimed.
  {
    json bad = record;
    bad["fairness"]["nonces"][0] = "not a nonce";
    CHECK(verify(bad).first == 2);
    bad = record;
    bad["fairness"]["outcomes"].erase(bad["fairness"]["outcomes"].size() - 1);
    CHECK(verify(bad).first == 2);
    bad = record;
    bad.erase("fairness");
    CHECK(verify(bad).second["error"]["code"] == "no_fairness");
  }
  // The record still replays: `replay` ignores the new key.
  {
    std::istringstream in(record.dump());
    std::ostringstream out, err;
    const std::vector<std::string> args{"replay", "-"};
    CHECK(app::run_command(args, in, out, err) == 0);
    CHECK(json::parse(out.str())["status"] == "finished");
  }
}

TEST_CASE("nonces through the room: bad ones, a second one and late ones change nothing") {
  metrics stats;
  auto s = test_room_settings("n", 2, "x");
  s.secret = test_secret;
  auto a = make_client(), b = make_client(), w = make_client();
  room r(s, &stats, a);
  r.join(a, join_as("A"), nullptr);
  r.join(b, join_as("B"), nullptr);
  r.spectate(w, nullptr);
  protocol::nonce_msg n;
  n.nonce = "c0ffee";
  r.nonce(a, n, "n1");
  CHECK(a->last("nonce_set")["id"] == "n1");
  const json before = w->view;
  const auto frames = w->frames.size();
  n.nonce = "beef";
  r.nonce(a, n, "n2");
  CHECK(a->last_error() == "nonce_already_set");
  r.nonce(w, n, "n3");
  CHECK(w->last_error() == "not_seated");
  CHECK(w->frames.size() == frames + 1);  // only its own error
  CHECK(w->view == before);
  CHECK(before["room"]["fairness"]["nonces"] == json::array({"c0ffee", nullptr}));
  r.start(a, nullptr);
  r.nonce(b, n, "n4");
  CHECK(b->last_error() == "already_started");
  CHECK(r.record()["setup"]["seed"] == fairness::derive_seed(test_secret, {"c0ffee", ""}));
}

TEST_CASE("verify: a record cut short, consistently, is not a finished game") {
  const json record = fair_record();
  {
    const auto [code, verdict] = verify(record);
    CHECK(code == 0);
    CHECK(verdict["complete"] == true);
  }
  // The last 30 moves and their outcome lists removed: every draw left is right, but the game
  // is not over, so the verdict names the first missing move.
  json cut = record;
  const std::size_t kept = record["moves"].size() - 30;
  cut["moves"].erase(cut["moves"].begin() + static_cast<std::ptrdiff_t>(kept), cut["moves"].end());
  auto& lists = cut["fairness"]["outcomes"];
  lists.erase(lists.begin() + static_cast<std::ptrdiff_t>(kept + 1), lists.end());
  {
    const auto [code, verdict] = verify(cut);
    CHECK(code == 4);
    CHECK(verdict["verified"] == false);
    CHECK(verdict["complete"] == false);
    const auto& m = verdict["mismatch"];
    CHECK(m["at"] == "end");
    CHECK(m["code"] == "incomplete");
    CHECK(m["move"] == kept);
    CHECK(m["seat"] == record["moves"][kept]["seat"]);
    CHECK(m["message"].get<std::string>().find("move " + std::to_string(kept)) !=
          std::string::npos);
  }
  // Moves kept but their outcome lists cut: the record cannot be checked, and says from where.
  {
    json lists_cut = record;
    auto& all = lists_cut["fairness"]["outcomes"];
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(kept + 1), all.end());
    const auto [code, verdict] = verify(lists_cut);
    CHECK(code == 2);
    CHECK(verdict["error"]["code"] == "bad_fairness");
    CHECK(verdict["error"]["message"].get<std::string>().find(
              "the first missing is move " + std::to_string(kept) + "'s") != std::string::npos);
  }
  // --partial checks the draws as far as the record goes.
  {
    const auto [code, verdict] = verify(cut, true);
    CHECK(code == 0);
    CHECK(verdict["verified"] == true);
    CHECK(verdict["complete"] == false);
    CHECK(verdict["moves"] == kept);
  }
  // Only the start: nothing played at all is not a game either.
  json bare = record;
  bare["moves"] = json::array();
  bare["fairness"]["outcomes"] = json::array({record["fairness"]["outcomes"][0]});
  CHECK(verify(bare).second["mismatch"]["move"] == 0);
}

TEST_CASE("verify --help says what a verdict is") {
  std::istringstream in;
  std::ostringstream out, err;
  const std::vector<std::string> args{"verify", "--help"};
  CHECK(app::run_command(args, in, out, err) == 0);
  CHECK(out.str().find("incomplete") != std::string::npos);
  CHECK(out.str().find("--partial") != std::string::npos);
}

TEST_CASE("a sheep draw carries the bag it was drawn from; verify checks it, old records pass") {
  const json record = fair_record();
  json stripped = record;
  std::vector<std::pair<std::size_t, std::size_t>> draws;
  auto& lists = stripped["fairness"]["outcomes"];
  for (std::size_t i = 0; i < lists.size(); ++i)
    for (std::size_t k = 0; k < lists[i].size(); ++k) {
      auto& entry = lists[i][k];
      if (!entry.contains("sheep")) continue;
      draws.emplace_back(i, k);
      const auto& bag = record["fairness"]["outcomes"][i][k]["bag"];
      REQUIRE(bag.size() == 5);
      CHECK(bag[4] == 2);  // both wolves: a wolf goes back at once
      const auto kinds = json::array({"sheep1", "sheep2", "sheep3", "sheep4", "wolf"});
      for (std::size_t t = 0; t < 5; ++t)
        if (kinds[t] == entry["sheep"]) CHECK(bag[t].get<int>() >= 1);
      entry.erase("bag");
    }
  REQUIRE(draws.size() >= 2);
  CHECK(verify(record).first == 0);
  // A record written before draws carried the bag still verifies, token by token.
  CHECK(verify(stripped).first == 0);
  // One count changed: named at that entry.
  const auto [i, k] = draws[draws.size() / 2];
  json bad = record;
  auto& count = bad["fairness"]["outcomes"][i][k]["bag"][0];
  count = count.get<int>() + 1;
  const auto [code, verdict] = verify(bad);
  CHECK(code == 4);
  CHECK(verdict["mismatch"]["move"] == i - 1);
  CHECK(verdict["mismatch"]["index"] == k);
  CHECK(verdict["mismatch"]["replay"] == record["fairness"]["outcomes"][i][k]);
}
