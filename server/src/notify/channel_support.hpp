// What the channels share (internal to notify/): the outgoing client's bounds from the host's
// policy, and a delivery's outcome from an HTTP status or from a failed exchange.
#pragma once
#include "notify/channels.hpp"
#include "outgoing/http_client.hpp"

namespace carcassonne::server::notify {

// Answers are read only for their status: a small bound.
outgoing::http_limits http_limits_for(const outgoing_policy& policy);

// 2xx delivered; 408, 429 and 5xx retry (and anything unexpected, 1xx or 3xx: a redirect is not
// followed); 404, 410 and every other 4xx gone.
delivery outcome_of_status(int status, const std::string& what);

// A refused URL or address is gone; everything else (no answer, TLS refused...) worth a retry.
delivery outcome_of_failure(const outgoing::failure& f);

}  // namespace carcassonne::server::notify
