// A player's vacation (accounts.hpp "Vacation"): the rules are players/vacation.hpp, the row is
// the player store's; this reads the session and answers with stable codes.
#include <spdlog/spdlog.h>

#include "players/accounts.hpp"

namespace carcassonne::server {

namespace {

account_error vacation_failed(const std::string& why) {
  std::string what("vacation: ");  // built in place: GCC 12 sees a false -Wrestrict in "…" + why
  what += why;
  return accounts_storage_failed(what);
}

}  // namespace

outcome<nlohmann::json> accounts::vacation_of(const std::string& player) {
  std::string error;
  const auto row = db_->vacation(player, error);
  if (!row) return vacation_failed(error);
  const auto now = now_ms();
  return vacation_json(settle_vacation(*row, now), settings_.vacation_days_per_year, now);
}

outcome<vacation_change> accounts::start_vacation(const std::string& session, int days) {
  auto who = authenticate(session);
  if (!who) return who.error;
  const int per_year = settings_.vacation_days_per_year;
  const auto now = now_ms();
  vacation_row after;
  auto refused = vacation_refusal::none;
  std::string error;
  const bool ok = db_->update_vacation(
      who.value->id,
      [&](vacation_row& v) {
        v = settle_vacation(v, now);
        refused = take_vacation(v, days, per_year, now);
        after = v;
        return refused == vacation_refusal::none;
      },
      error);
  if (!ok) return vacation_failed(error);
  if (refused == vacation_refusal::bad_days)
    return account_error{400, "bad_days", "'days' is a whole number of days, at least 1"};
  if (refused == vacation_refusal::too_many_days)
    return account_error{409, "too_many_days",
                         "only " + std::to_string(vacation_days_left(after, per_year)) +
                             " days of vacation are left this year"};
  return vacation_change{who.value->id, after, vacation_json(after, per_year, now)};
}

outcome<vacation_change> accounts::end_vacation(const std::string& session) {
  auto who = authenticate(session);
  if (!who) return who.error;
  const auto now = now_ms();
  vacation_row after;
  std::string error;
  const bool ok = db_->update_vacation(
      who.value->id,
      [&](vacation_row& v) {
        const auto before = v;
        v = settle_vacation(v, now);
        server::end_vacation(v, now);
        after = v;
        return !(v == before);
      },
      error);
  if (!ok) return vacation_failed(error);
  return vacation_change{who.value->id, after,
                         vacation_json(after, settings_.vacation_days_per_year, now)};
}

std::optional<std::int64_t> accounts::vacation_until(const std::string& player,
                                                     std::string& error) {
  const auto row = db_->vacation(player, error);
  if (!row) return std::nullopt;
  const auto now = now_ms();
  return on_vacation(*row, now) ? row->until_ms : 0;
}

}  // namespace carcassonne::server
