// The seek queue on Redis (competition/seek_queue.hpp).
