// The order of one room's relayed public stream on an instance that watches it for its spectators
// (spectator_relay.cpp, docs/scaling.md "Spectators on every instance"): which frames go to
// whom, so that a spectator gets a snapshot and then every patch after it in seq order, and a
// gap (a frame lost, the owner dead and the room adopted with a new seq) is filled by a snapshot,
// never by a wrong view. A plain value: no Redis, no connections.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carcassonne::server {

// A frame's type and seq (none for chat), read from its first bytes when it starts with its
// type (patches, snapshots), else parsed.
struct frame_head {
  std::string type;
  std::optional<std::uint64_t> seq;
};
frame_head head_of(std::string_view frame);

// A room's frame as it travels through Redis: the owner's lease generation of the room, a space,
// the frame. A watcher drops what an owner with an older generation publishes: an instance that
// lost the room's lease and has not noticed yet may still answer for it, beside the new owner.
std::string tagged(std::uint64_t generation, std::string_view frame);
struct tagged_frame {
  std::uint64_t generation = 0;
  std::string_view frame;
};
std::optional<tagged_frame> untag(std::string_view message);  // nothing when not tagged

// Whether a frame of the room's stream is relayed at all: patches, snapshots and chat lines
// (what every spectator gets); an answer or an error meant for the relay's own link is not.
bool relayed_type(std::string_view type);

class relay_feed {
 public:
  enum class action {
    drop,          // nobody gets it
    to_live,       // every spectator in step gets it
    snapshot_all,  // a snapshot that moves the stream on: everyone gets it, all in step
    snapshot_new,  // the view everyone in step has: only those waiting for one get it
    ask_snapshot,  // a gap: nobody gets it, everyone waits for a snapshot, ask for one
    restart,       // a new link (a new owner): everyone waits for its first snapshot
    end,           // the owner let a finished room go: nobody will relay it again
  };
  // The mark a new link publishes before its first snapshot: what came before may have been
  // another owner's stream (failover), whose seq the new one's may not follow.
  static constexpr std::string_view start_mark = R"({"type":"relay_start"})";
  // The mark an owner publishes when a finished room it relayed leaves it (its instance stops):
  // finished rooms are not adopted, the store serves them to whichever instance is asked.
  static constexpr std::string_view end_mark = R"({"type":"relay_end"})";
  // `generation`: of the owner that published it. An older one than seen is dropped; a newer
  // one is a new owner: everyone waits for its snapshot.
  action take(const frame_head& frame, std::uint64_t generation);
  // The connection carrying the stream was lost (messages may be missing): wait for a snapshot.
  void lost() { in_step_ = false; }
  bool in_step() const { return in_step_; }
  std::uint64_t seq() const { return seq_; }

 private:
  bool in_step_ = false;
  std::uint64_t seq_ = 0;         // of the last frame passed on
  std::uint64_t generation_ = 0;  // the newest owner's
};

}  // namespace carcassonne::server
