#!/bin/bash
# The image's HEALTHCHECK: GET /healthz on the server's port, healthy on "200" only (the server
# answers 503 while it drains on SIGTERM). bash's /dev/tcp, so the image needs no curl or wget.
# The port is CARCASSONNE_PORT (default 8080); a server listening on one address only
# (CARCASSONNE_ADDRESS other than 0.0.0.0 or ::) is asked on that address.
set -uo pipefail
port=${CARCASSONNE_PORT:-8080}
host=${CARCASSONNE_ADDRESS:-0.0.0.0}
case $host in 0.0.0.0 | "" ) host=127.0.0.1 ;; :: | "[::]" ) host=::1 ;; esac
exec 3<>"/dev/tcp/$host/$port" || exit 1
printf 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' >&3
IFS= read -r -t 4 status <&3 || exit 1
[[ $status == "HTTP/1.1 200"* ]]
