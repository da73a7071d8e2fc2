// Web Push's cryptography (internal to notify/, exposed for tests): RFC 8291's encryption with a
// given ephemeral key and salt, which the RFC's Appendix A example fixes.
#pragma once
#include <optional>
#include <string>

#include "notify/channels.hpp"

namespace carcassonne::server::notify {

// The aes128gcm body (RFC 8188: salt, rs 4096, the key id = the ephemeral public key, one record
// ending in the delimiter 0x02) of `plaintext` for `subscription`, from the ephemeral private
// key `as_private` (32 bytes, big-endian) and `salt` (16 bytes). Nothing, with `error`, when the
// subscription's keys or the inputs are malformed or the plaintext is too long for one message.
std::optional<std::string> encrypt_push_with(const push_subscription& subscription,
                                             const std::string& plaintext,
                                             const std::string& as_private, const std::string& salt,
                                             std::string& error);

// The largest plaintext one push message carries (push services take 4096 bytes of body).
constexpr std::size_t max_push_plaintext = 4096 - 86 - 17;

}  // namespace carcassonne::server::notify
