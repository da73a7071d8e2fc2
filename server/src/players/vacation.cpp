#include "players/vacation.hpp"

#include <algorithm>

namespace carcassonne::server {

namespace {

// Whole days from `from` to `to`, each day begun counted.
int days_begun(std::int64_t from, std::int64_t to) {
  if (to <= from) return 0;
  return static_cast<int>((to - from + vacation_day_ms - 1) / vacation_day_ms);
}

}  // namespace

// The civil year of a day count since 1970-01-01 (H. Hinnant's days_from_civil, inverted).
int vacation_year(std::int64_t ms) {
  const std::int64_t days = (ms >= 0 ? ms : ms - vacation_day_ms + 1) / vacation_day_ms;
  const std::int64_t z = days + 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  return static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0));
}

vacation_row settle_vacation(vacation_row r, std::int64_t now_ms) {
  if (r.until_ms != 0 && r.until_ms <= now_ms) {  // ran out: every day booked was used
    r.used_days += days_begun(r.started_ms, r.until_ms);
    r.started_ms = r.until_ms = 0;
  }
  // A vacation under way stays counted in the year it started, until it ends.
  if (r.until_ms == 0 && r.year != vacation_year(now_ms)) {
    r.year = vacation_year(now_ms);
    r.used_days = 0;
  }
  return r;
}

int vacation_days_left(const vacation_row& r, int per_year) {
  return std::max(0, per_year - r.used_days - days_begun(r.started_ms, r.until_ms));
}

vacation_refusal take_vacation(vacation_row& r, int days, int per_year, std::int64_t now_ms) {
  if (days < 1) return vacation_refusal::bad_days;
  if (days > vacation_days_left(r, per_year)) return vacation_refusal::too_many_days;
  if (!on_vacation(r, now_ms)) {
    r.started_ms = now_ms;
    r.until_ms = now_ms;
  }
  r.until_ms += days * vacation_day_ms;
  return vacation_refusal::none;
}

void end_vacation(vacation_row& r, std::int64_t now_ms) {
  if (!on_vacation(r, now_ms)) return;
  // A vacation ended in its first minute still took a day: the clocks stopped for it.
  r.used_days += std::max(1, days_begun(r.started_ms, now_ms));
  r.started_ms = r.until_ms = 0;
  r = settle_vacation(r, now_ms);
}

nlohmann::json vacation_json(const vacation_row& r, int per_year, std::int64_t now_ms) {
  return {{"until_ms", on_vacation(r, now_ms) ? nlohmann::json(r.until_ms) : nlohmann::json()},
          {"days_left", vacation_days_left(r, per_year)},
          {"days_per_year", per_year}};
}

}  // namespace carcassonne::server
