// A free loopback port for the private servers of tests (PostgreSQL, Redis).
#pragma once
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace carcassonne::testing {

// A port nobody listens on right now (bound to 0, read, released).
inline int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

}  // namespace carcassonne::testing
