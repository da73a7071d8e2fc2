#include "base/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace carcassonne::server {

namespace {

[[noreturn]] void fatal(const char* what) {
  std::fprintf(stderr, "carcassonne: OpenSSL failed: %s\n", what);
  std::abort();
}

}  // namespace

bytes random_bytes(std::size_t n) {
  bytes out(n);
  if (n > 0 && RAND_bytes(out.data(), static_cast<int>(n)) != 1) fatal("RAND_bytes");
  return out;
}

std::string random_hex(int hex_digits) {
  auto hex = to_hex(random_bytes(static_cast<std::size_t>(hex_digits + 1) / 2));
  hex.resize(static_cast<std::size_t>(hex_digits));
  return hex;
}

bytes hmac_sha256(std::string_view key, std::string_view data) {
  bytes out(32);
  unsigned int n = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &n);
  out.resize(n);
  return out;
}

bytes sha256(std::string_view data) {
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                    &EVP_MD_CTX_free);
  bytes out(32);
  unsigned int length = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), data.data(), data.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), out.data(), &length) != 1 || length != out.size())
    fatal("EVP SHA-256");
  return out;
}

std::string sha256_hex(std::string_view data) {
  return to_hex(sha256(data));
}

std::string to_hex(const bytes& b) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(b.size() * 2);
  for (const unsigned char c : b) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::optional<bytes> from_hex(std::string_view hex) {
  if (hex.size() % 2) return std::nullopt;
  const auto value = [](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  bytes out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const int hi = value(hex[i]), lo = value(hex[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<unsigned char>(hi * 16 + lo));
  }
  return out;
}

bool equal_constant_time(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return a.empty() || CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace carcassonne::server
