#include "room/resume_window.hpp"

namespace carcassonne::server {

void resume_window::remember(std::uint64_t seq, const frame_ptr& f) {
  if (f->size() > frame_max) return clear();
  recent_.emplace_back(seq, f);
  bytes_ += f->size();
  std::size_t drop = 0;
  for (std::size_t kept = bytes_; recent_.size() - drop > patches || kept > bytes; ++drop)
    kept -= recent_[drop].second->size();
  for (std::size_t i = 0; i < drop; ++i) bytes_ -= recent_[i].second->size();
  recent_.erase(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(drop));
}

bool resume_window::covers(std::uint64_t last_seq, std::uint64_t now) const {
  return last_seq <= now && !recent_.empty() && recent_.back().first == now &&
         recent_.front().first <= last_seq + 1;
}

std::vector<frame_ptr> resume_window::after(std::uint64_t last_seq) const {
  std::vector<frame_ptr> frames;
  for (const auto& [seq, frame] : recent_)
    if (seq > last_seq) frames.push_back(frame);
  return frames;
}

}  // namespace carcassonne::server
