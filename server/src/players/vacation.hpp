// A player's vacation (docs/protocol.md §21 "Vacation"): a bounded number of days a year during
// which the player's correspondence clocks do not run. Pure rules on one stored row; the caller
// passes the time (Unix milliseconds) and the host's days per year.
//
// Days are whole days, counted in the calendar year (UTC) in which the vacation starts: a vacation
// books the days asked for; ended early, it keeps each day begun and gives the rest back.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>

namespace carcassonne::server {

inline constexpr std::int64_t vacation_day_ms = 86'400'000;

struct vacation_row {
  int year = 0;                 // the calendar year `used_days` counts
  int used_days = 0;            // taken that year by vacations that ended
  std::int64_t started_ms = 0;  // the current vacation (until_ms 0: none)
  std::int64_t until_ms = 0;
  bool operator==(const vacation_row&) const = default;
};

// The UTC calendar year of a Unix time in milliseconds.
int vacation_year(std::int64_t ms);
// The row as of `now_ms`: a vacation whose end has passed is counted into its year, and the
// count starts again at 0 in a new year.
vacation_row settle_vacation(vacation_row r, std::int64_t now_ms);
inline bool on_vacation(const vacation_row& r, std::int64_t now_ms) {
  return r.until_ms > now_ms;
}
// Days left this year to `r` (settled): the year's days less those used and those booked.
int vacation_days_left(const vacation_row& r, int per_year);

enum class vacation_refusal { none, bad_days, too_many_days };
// Starts a vacation of `days` now, or extends the current one by `days` (settled `r`).
vacation_refusal take_vacation(vacation_row& r, int days, int per_year, std::int64_t now_ms);
// Ends the current vacation now, if any (settled `r`): each day begun is used.
void end_vacation(vacation_row& r, std::int64_t now_ms);

// {"until_ms": …|null, "days_left": n, "days_per_year": n} (settled `r`).
nlohmann::json vacation_json(const vacation_row& r, int per_year, std::int64_t now_ms);

}  // namespace carcassonne::server
