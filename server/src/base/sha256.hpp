// SHA-256 for storing seat tokens hashed (the database never holds a token that would let whoever
// reads it take a seat): sha256_hex, through OpenSSL's EVP (crypto.hpp).
#pragma once
#include "base/crypto.hpp"
