// Inside oidc: what the client needs besides verify_id_token (oidc_client.hpp), which this part's
// id_token.cpp defines.
#pragma once
#include <string>

namespace carcassonne::server::oidc {

// Whether the token's header names a `kid` the JWKS document has no key for: the provider may
// have rotated its keys since they were read, so the client reads them again once.
bool names_unknown_key(const std::string& jwt, const std::string& jwks);

}  // namespace carcassonne::server::oidc
