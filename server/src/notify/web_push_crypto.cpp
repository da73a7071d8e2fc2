// RFC 8291 (message encryption for Web Push) over RFC 8188 (aes128gcm), and RFC 8292 (VAPID),
// with OpenSSL 3's EVP interfaces.
#include "notify/web_push_crypto.hpp"

#include <fcntl.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "base/base64.hpp"
#include "base/crypto.hpp"
#include "outgoing/url.hpp"

namespace carcassonne::server::notify {

namespace {

struct pkey_free {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using pkey = std::unique_ptr<EVP_PKEY, pkey_free>;

const unsigned char* u8(const std::string& s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

pkey from_params(OSSL_PARAM_BLD* bld, int selection) {
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr);
  EVP_PKEY* key = nullptr;
  if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
      EVP_PKEY_fromdata(ctx, &key, selection, params) != 1)
    key = nullptr;
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  return pkey(key);
}

// A P-256 public key from its uncompressed point (SEC 1 §2.3.3), checked to be on the curve.
pkey public_from_point(const std::string& point) {
  if (point.size() != 65 || point[0] != '\x04') return nullptr;
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  pkey key;
  if (bld &&
      OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) ==
          1)
    key = from_params(bld, EVP_PKEY_PUBLIC_KEY);
  OSSL_PARAM_BLD_free(bld);
  if (!key) return nullptr;
  EVP_PKEY_CTX* check = EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr);
  const bool valid = check && EVP_PKEY_public_check(check) == 1;
  EVP_PKEY_CTX_free(check);
  return valid ? std::move(key) : nullptr;
}

// The P-256 key pair of the private scalar `d` (32 bytes), and its public point.
pkey pair_from_private(const std::string& d, std::string& point) {
  if (d.size() != 32) return nullptr;
  EC_GROUP* group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  BIGNUM* scalar = BN_bin2bn(u8(d), 32, nullptr);
  EC_POINT* p = group ? EC_POINT_new(group) : nullptr;
  unsigned char out[65];
  bool ok = group && scalar && p && !BN_is_zero(scalar) &&
            BN_cmp(scalar, EC_GROUP_get0_order(group)) < 0 &&
            EC_POINT_mul(group, p, scalar, nullptr, nullptr, nullptr) == 1 &&
            EC_POINT_point2oct(group, p, POINT_CONVERSION_UNCOMPRESSED, out, sizeof out, nullptr) ==
                sizeof out;
  pkey key;
  if (ok) {
    point.assign(reinterpret_cast<char*>(out), sizeof out);
    OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
    if (bld &&
        OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1 &&
        OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, scalar) == 1 &&
        OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, out, sizeof out) == 1)
      key = from_params(bld, EVP_PKEY_KEYPAIR);
    OSSL_PARAM_BLD_free(bld);
  }
  EC_POINT_free(p);
  BN_clear_free(scalar);
  EC_GROUP_free(group);
  return key;
}

std::string public_point(EVP_PKEY* key) {
  unsigned char out[65];
  std::size_t length = 0;
  if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, out, sizeof out, &length) !=
          1 ||
      length != sizeof out)
    return {};
  return std::string(reinterpret_cast<char*>(out), length);
}

std::string private_scalar(EVP_PKEY* key) {
  BIGNUM* d = nullptr;
  std::string out(32, '\0');
  if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1 ||
      BN_bn2binpad(d, reinterpret_cast<unsigned char*>(out.data()), 32) != 32)
    out.clear();
  BN_clear_free(d);
  return out;
}

std::string ecdh(EVP_PKEY* mine, EVP_PKEY* peer) {
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_pkey(nullptr, mine, nullptr);
  std::string secret(32, '\0');
  std::size_t length = secret.size();
  if (!ctx || EVP_PKEY_derive_init(ctx) != 1 || EVP_PKEY_derive_set_peer(ctx, peer) != 1 ||
      EVP_PKEY_derive(ctx, reinterpret_cast<unsigned char*>(secret.data()), &length) != 1 ||
      length != 32)
    secret.clear();
  EVP_PKEY_CTX_free(ctx);
  return secret;
}

// HKDF-SHA256 (RFC 5869): extract with `salt`, expand to `length` bytes with `info`.
std::string hkdf(const std::string& salt, const std::string& ikm, const std::string& info,
                 std::size_t length) {
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  EVP_KDF_CTX* ctx = kdf ? EVP_KDF_CTX_new(kdf) : nullptr;
  std::string out(length, '\0');
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<char*>(salt.data()),
                                        salt.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<char*>(ikm.data()),
                                        ikm.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(info.data()),
                                        info.size()),
      OSSL_PARAM_construct_end()};
  if (!ctx ||
      EVP_KDF_derive(ctx, reinterpret_cast<unsigned char*>(out.data()), length, params) != 1)
    out.clear();
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  return out;
}

// AES-128-GCM: the ciphertext followed by the 16-byte tag.
std::string seal(const std::string& key, const std::string& nonce, const std::string& plaintext) {
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  std::string out(plaintext.size() + 16, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  int n = 0, tail = 0;
  const bool ok =
      ctx && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), nullptr, nullptr, nullptr) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, nullptr) == 1 &&
      EVP_EncryptInit_ex(ctx, nullptr, nullptr, u8(key), u8(nonce)) == 1 &&
      EVP_EncryptUpdate(ctx, o, &n, u8(plaintext), static_cast<int>(plaintext.size())) == 1 &&
      EVP_EncryptFinal_ex(ctx, o + n, &tail) == 1 &&
      EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, o + plaintext.size()) == 1;
  EVP_CIPHER_CTX_free(ctx);
  if (!ok) out.clear();
  return out;
}

std::string pem_of(EVP_PKEY* key) {
  BIO* bio = BIO_new(BIO_s_mem());
  std::string out;
  if (bio && PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr) == 1) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    out.assign(data, static_cast<std::size_t>(size));
  }
  BIO_free(bio);
  return out;
}

// The P-256 private key of `pem`; nothing for another kind of key.
pkey key_of_pem(const std::string& pem) {
  BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
  pkey key(bio ? PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr) : nullptr);
  BIO_free(bio);
  char group[32] = {};
  if (!key || !EVP_PKEY_is_a(key.get(), "EC") ||
      EVP_PKEY_get_utf8_string_param(key.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group,
                                     nullptr) != 1 ||
      std::strcmp(group, "prime256v1") != 0)
    return nullptr;
  return key;
}

// An ES256 signature of `input` as JWS writes it: r || s, 32 bytes each (RFC 7518 §3.4).
std::string es256(EVP_PKEY* key, const std::string& input) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::string der(80, '\0');
  std::size_t length = der.size();
  if (!ctx || EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key) != 1 ||
      EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(der.data()), &length, u8(input),
                     input.size()) != 1)
    length = 0;
  EVP_MD_CTX_free(ctx);
  const unsigned char* p = u8(der);
  ECDSA_SIG* sig = length ? d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(length)) : nullptr;
  std::string out(64, '\0');
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  if (!sig || BN_bn2binpad(ECDSA_SIG_get0_r(sig), o, 32) != 32 ||
      BN_bn2binpad(ECDSA_SIG_get0_s(sig), o + 32, 32) != 32)
    out.clear();
  ECDSA_SIG_free(sig);
  return out;
}

}  // namespace

std::optional<std::string> encrypt_push_with(const push_subscription& subscription,
                                             const std::string& plaintext,
                                             const std::string& as_private, const std::string& salt,
                                             std::string& error) {
  const auto ua_public = base64url_decode(subscription.p256dh);
  const auto auth = base64url_decode(subscription.auth);
  if (!ua_public || ua_public->size() != 65)
    return error = "keys.p256dh is not a base64url P-256 point", std::nullopt;
  if (!auth || auth->size() != 16)
    return error = "keys.auth is not 16 bytes of base64url", std::nullopt;
  if (salt.size() != 16) return error = "a salt that is not 16 bytes", std::nullopt;
  if (plaintext.size() > max_push_plaintext)
    return error = "a push message longer than " + std::to_string(max_push_plaintext) + " bytes",
           std::nullopt;
  const pkey peer = public_from_point(*ua_public);
  if (!peer) return error = "keys.p256dh is not a point of P-256", std::nullopt;
  std::string as_public;
  const pkey mine = pair_from_private(as_private, as_public);
  if (!mine) return error = "an ephemeral key that is not a P-256 private key", std::nullopt;
  const std::string secret = ecdh(mine.get(), peer.get());
  if (secret.empty()) return error = "ECDH failed", std::nullopt;

  // RFC 8291 §3.3-3.4: the auth secret mixed in, then RFC 8188 §2.2's key and nonce.
  const std::string key_info = std::string("WebPush: info") + '\0' + *ua_public + as_public;
  const std::string ikm = hkdf(*auth, secret, key_info, 32);
  const std::string cek = hkdf(salt, ikm, std::string("Content-Encoding: aes128gcm") + '\0', 16);
  const std::string nonce = hkdf(salt, ikm, std::string("Content-Encoding: nonce") + '\0', 12);
  if (ikm.empty() || cek.empty() || nonce.empty()) return error = "HKDF failed", std::nullopt;
  // One record, so the last: the padding delimiter 0x02 and no padding (RFC 8188 §2).
  const std::string record = seal(cek, nonce, plaintext + '\x02');
  if (record.empty()) return error = "AES-GCM failed", std::nullopt;

  std::string body = salt;
  body += std::string("\x00\x00\x10\x00", 4);  // rs = 4096
  body += static_cast<char>(as_public.size());
  body += as_public;
  body += record;
  return body;
}

std::optional<std::string> encrypt_push(const push_subscription& subscription,
                                        const std::string& plaintext, std::string& error) {
  const pkey ephemeral(EVP_EC_gen("P-256"));
  const std::string d = ephemeral ? private_scalar(ephemeral.get()) : std::string();
  if (d.empty()) return error = "no ephemeral key", std::nullopt;
  const bytes salt = random_bytes(16);
  return encrypt_push_with(subscription, plaintext, d, std::string(salt.begin(), salt.end()),
                           error);
}

vapid_keys generate_vapid_keys() {
  const pkey key(EVP_EC_gen("P-256"));
  if (!key) return {};
  return {pem_of(key.get()), base64url_encode(public_point(key.get()))};
}

std::optional<vapid_keys> load_or_create_vapid_keys(const std::string& path, std::string& error) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::ostringstream text;
      text << in.rdbuf();
      const pkey key = key_of_pem(text.str());
      if (!key) return error = path + ": not a P-256 private key (PEM)", std::nullopt;
      return vapid_keys{text.str(), base64url_encode(public_point(key.get()))};
    }
    const vapid_keys fresh = generate_vapid_keys();
    if (fresh.private_pem.empty()) return error = "no VAPID key from OpenSSL", std::nullopt;
    // Readable by the server only; O_EXCL: another instance that wrote first wins, and is read.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0 && errno == EEXIST) continue;
    if (fd < 0) return error = path + ": " + std::strerror(errno), std::nullopt;
    const bool written = ::write(fd, fresh.private_pem.data(), fresh.private_pem.size()) ==
                             static_cast<ssize_t>(fresh.private_pem.size()) &&
                         ::fsync(fd) == 0;
    ::close(fd);
    if (!written) return error = path + ": " + std::strerror(errno), std::nullopt;
    return fresh;
  }
  return error = path + ": unreadable", std::nullopt;
}

std::string vapid_authorization(const std::string& endpoint, const vapid_keys& keys,
                                const std::string& subject, long long now_s) {
  std::string why;
  const auto u = outgoing::parse_url(endpoint, why);
  const pkey key = key_of_pem(keys.private_pem);
  if (!u || !key) return {};
  // RFC 8292 §2: the audience is the push resource's origin; at most 24 hours (we give 12).
  const nlohmann::json claims = {
      {"aud", u->origin()}, {"exp", now_s + 12 * 3600}, {"sub", subject}};
  const std::string input =
      base64url_encode(R"({"typ":"JWT","alg":"ES256"})") + "." + base64url_encode(claims.dump());
  const std::string signature = es256(key.get(), input);
  if (signature.empty()) return {};
  return "vapid t=" + input + "." + base64url_encode(signature) + ", k=" + keys.public_key;
}

}  // namespace carcassonne::server::notify
