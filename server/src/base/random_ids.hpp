// Unpredictable identifiers for rooms and seat tokens: random_hex, from OpenSSL's CSPRNG
// (crypto.hpp, the one place that wraps OpenSSL).
#pragma once
#include "base/crypto.hpp"
