// room_timer on a room's Asio strand: one steady_timer per pending call.
#pragma once
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>

#include "match/room_timer.hpp"

namespace carcassonne::server {

room_timer_ptr make_asio_room_timer(boost::asio::any_io_executor strand);

}  // namespace carcassonne::server
