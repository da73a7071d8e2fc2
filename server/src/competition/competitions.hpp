// The service that runs quick play, series and tournaments (docs/protocol.md §24). It lives on a
// thread of its own, so that its database reads and writes never hold an I/O thread: requests
// are posted to it and answered through a callback; a timer ticks it (the matchmaker, results,
// rounds due). Every change of a series or a tournament is stored before anyone is told of it,
// fenced by the document's version (competition_store.hpp), so a restart or a failover carries
// on from the store: a room's result is read from the index of finished games, which the room's
// last save writes in its own transaction, never from memory. The service's parts:
// competitions.cpp (thread, tick, store, adoption, reads), competitions_quick_play.cpp,
// competitions_series.cpp (and every awaited room's result), competitions_tournaments.cpp.
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "carcassonne/protocol/messages.hpp"
#include "competition/competition_store.hpp"
#include "competition/matchmaker.hpp"
#include "competition/seek_queue.hpp"
#include "competition/series.hpp"
#include "competition/tournament.hpp"
#include "lobby/lobby.hpp"
#include "players/accounts.hpp"

namespace carcassonne::server::competition {

struct service_settings {
  std::chrono::milliseconds tick{500};  // the matchmaker's period, and the results' poll
  window_rules window;
  int bot_pause_ms = 1000;       // the bots' pause in the rooms the service makes
  std::vector<bot_option> bots;  // the levels quick play may seat, with their ratings
  std::int64_t max_bots_per_tournament = 256;
};

// What the service needs from the server around it.
struct service_hooks {
  // Sends a frame (JSON text) to every connection of `player` on this instance. Any thread.
  std::function<void(const std::string& player, const std::string& frame)> tell;
  // Cluster: the live instances' ids (a dead one's seekers are pruned). Unset: one instance.
  std::function<std::vector<std::string>()> live_instances;
  // Cluster: takes or keeps this instance's lease of a series or tournament (only the holder runs
  // it). Unset: always this instance's.
  std::function<bool(const std::string& id)> claim;
  std::string instance;                  // this instance's id ("" one instance)
  std::function<std::int64_t()> now_ms;  // the wall clock
};

class competitions {
 public:
  competitions(lobby& rooms, accounts& players, std::unique_ptr<competition_store> db,
               std::unique_ptr<seek_queue> queue, service_settings settings, service_hooks hooks);
  ~competitions();  // stops the thread: what is stored stays, the rest lapses
  competitions(const competitions&) = delete;
  competitions& operator=(const competitions&) = delete;

  // Loads the unfinished series and tournaments this instance may run and starts ticking.
  void start();
  void stop();

  // One request of a signed-in player's connection (`connection`: the connection's number, to
  // cancel its seek when it closes). `answer` gets the reply or the error message, on the
  // service's thread.
  using answer_fn = std::function<void(nlohmann::json)>;
  void request(const player_account& who, std::uint64_t connection,
               const protocol::competition_msg& m, const nlohmann::json& id, answer_fn answer);
  // A connection closed: the seek it made is cancelled.
  void connection_closed(const std::string& player, std::uint64_t connection);
  // A player's vacation changed (docs/protocol.md §21): every instance, this one included, tells
  // its rooms through its lobby (lobby::vacation_changed), on the channel of the match notices.
  // `until_ms`: when it ends (0: it is over). Any thread; false when it could not be sent.
  bool announce_vacation(const std::string& player, std::int64_t until_ms);

  // Reads for the HTTP routes and the page, from the database (any thread; they block).
  std::optional<nlohmann::json> document(const std::string& kind, const std::string& id,
                                         std::string& error);
  std::optional<nlohmann::json> listing(const std::string& kind, int limit, int offset,
                                        std::string& error);
  std::optional<nlohmann::json> of_player(const std::string& player, int limit, int offset,
                                          std::string& error);

 private:
  struct room_owner {
    std::string kind, id;  // "series" or "tournament", its id
    table_ref table;       // a tournament's table
  };

  void post(std::function<void()> f);
  void arm_tick();
  void tick();
  void matchmake(std::int64_t now);
  void on_notice(const std::string& text);
  void poll_results();
  void room_ended(const std::string& room, const game_summary& g);
  void run_tournament(const std::string& id, std::int64_t now);
  void forget_ended();
  void adopt(std::int64_t now);

  // Requests.
  nlohmann::json seek(const player_account& who, std::uint64_t connection,
                      const nlohmann::json& body, const nlohmann::json& id);
  nlohmann::json cancel_seek(const player_account& who, const nlohmann::json& id);
  nlohmann::json create_tournament(const player_account& who, const nlohmann::json& body,
                                   const nlohmann::json& id);
  // One request's answer (request() runs it on the service's thread).
  nlohmann::json dispatch(const player_account& who, std::uint64_t connection,
                          const protocol::competition_msg& m, const nlohmann::json& id);
  nlohmann::json tournament_action(const player_account& who, const nlohmann::json& body,
                                   const nlohmann::json& id);
  nlohmann::json read_request(const std::string& kind, const nlohmann::json& body,
                              const nlohmann::json& id);

  // Series: made, their next game started, a game's end recorded.
  std::optional<std::string> make_series(series s);
  void start_series_game(series& s);
  void series_game_ended(series& s, const std::string& room, const game_summary& g);
  // The rooms where `player` plays a game of the tournament's last round now.
  std::vector<std::string> rooms_in_play(const tournament& t, const std::string& player) const;
  // A finished series' result into its tournament's table; false when no table awaits it.
  bool series_into_table(tournament& t, const std::string& series_id, double result);
  // A tournament's table: its room or series made now, or its failure noted.
  void start_table(tournament& t, const table_ref& ref, std::int64_t now);

  // Stores a document (version + 1); false when it failed or another instance runs it (then the
  // document is dropped here).
  bool save(const std::string& kind, const std::string& id, const nlohmann::json& state,
            bool finished, std::vector<std::string> players, std::vector<notice> notices = {});
  bool save(const series& s);
  bool save(const tournament& t, std::vector<notice> notices = {});
  // The notices of the tables that start (competitions_tournaments.cpp).
  std::vector<notice> round_notices(const tournament& t,
                                    const std::vector<table_ref>& started) const;
  void drop(const std::string& id);

  // The room's seats for players (by id and name) and bots (by level), seat order.
  struct seat_of {
    std::string player, name, bot, nonce;
  };
  std::string arrange(const nlohmann::json& room_template, const std::vector<seat_of>& seats,
                      bool rated, protocol::proto_error& error);
  double rating_of(const std::string& player, int seats, bool expansions);

  lobby& rooms_;
  accounts& players_;
  std::unique_ptr<competition_store> db_;
  std::unique_ptr<seek_queue> queue_;
  service_settings settings_;
  service_hooks hooks_;

  struct impl;  // the thread, its io_context and the tick's timer
  std::unique_ptr<impl> impl_;

  // On the service's thread.
  std::map<std::string, std::uint64_t> seek_connection_;  // player -> the connection that seeks
  std::map<std::string, series> series_;
  std::map<std::string, tournament> tournaments_;
  std::map<std::string, std::uint64_t> versions_;  // stored version of each document run here
  std::map<std::string, room_owner> rooms_of_;     // rooms whose end is awaited
  std::int64_t last_adoption_ms_ = 0;
  std::int64_t last_seek_ms_ = 0;  // the last seek's since_ms (arrival order)
};

}  // namespace carcassonne::server::competition
