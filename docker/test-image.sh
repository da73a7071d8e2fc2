#!/usr/bin/env bash
# Builds docker/Dockerfile and checks the image, without a Docker engine:
#
#   sudo docker/test-image.sh          (as root; full output also in docker/test-image.last.log)
#
# 1. podman and debootstrap are installed with apt-get when missing (nodejs, npm and node-ws too,
#    for the WebSocket client of tests/e2e/node_client.mjs, and Ajv for its wire-schema checks,
#    from tests/web's pinned packages).
# 2. The base image docker.io/library/debian:bookworm-slim is made locally once (debootstrap
#    --variant=minbase bookworm, slimmed like Debian's official slim image, podman import) and
#    kept; an image of that name already present (made here before, or pulled) is used as it is.
# 3. `podman build --isolation=chroot --pull=never --format docker` builds the Dockerfile unchanged.
# 4. The image's configuration is checked (non-root user, port, volume, data dir, healthcheck,
#    stop signal), then the image is mounted (`podman image mount`) and its shared libraries are
#    resolved inside it. Containers cannot be started here (no cgroups), so the server is started
#    from the mounted image with chroot, as the image's user, with the image's environment,
#    entrypoint, command and working directory, /proc and /dev mounted and a new data directory
#    bind-mounted on the volume (owned like the image's, as a new Docker volume would be).
# 5. Against it: the image's HEALTHCHECK command and /healthz (200), a whole game played by the
#    Node client, a few seconds of `carcassonne loadtest` (the image's own binary), /metrics, and
#    SIGTERM: a connected client is told goodbye and the server exits 0 within a few seconds.
# Exits non-zero on any failure; always unmounts and stops what it started. The built image
# (localhost/carcassonne:test) and the base image are kept, so a second run reuses their layers.
# Environment: BUILD_JOBS (default 2) compile jobs; DEBIAN_MIRROR for debootstrap (default: the
# host's Debian mirror from its apt sources); KEEP_LOG=0 to not write the log file.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${KEEP_LOG:-1}" = 1 ] && [ -z "${TEST_IMAGE_LOGGING:-}" ]; then
  export TEST_IMAGE_LOGGING=1
  set +e
  "$0" "$@" 2>&1 | tee docker/test-image.last.log
  exit "${PIPESTATUS[0]}"
fi

base=docker.io/library/debian:bookworm-slim
image=localhost/carcassonne:test
build_jobs=${BUILD_JOBS:-2}
started=$(date +%s)
work=
mnt=
mounted=()
server_pid=
client_pid=

step() { echo; echo "== [$(( $(date +%s) - started ))s] $*"; }
fail() {
  echo "test-image: FAIL: $*" >&2
  if [ -n "$work" ] && [ -s "$work/server.log" ]; then
    echo "--- server log (last 40 lines)" >&2
    tail -n 40 "$work/server.log" >&2
  fi
  exit 1
}
cleanup() {
  local status=$? i m
  set +e  # clean up everything, whatever fails
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -KILL "$server_pid"
    wait "$server_pid" 2>/dev/null
  fi
  [ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null
  for (( i=${#mounted[@]}-1; i>=0; i-- )); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}"
  done
  [ -n "$mnt" ] && podman image unmount "$image" >/dev/null
  if [ -n "$work" ]; then
    # debootstrap mounts /proc and /sys in its target: never delete through a mount.
    for m in $(findmnt -rn -o TARGET | grep -F "$work/" | sort -r); do umount -l "$m"; done
    findmnt -rn -o TARGET | grep -qF "$work/" || rm -rf "$work"
  fi
  if [ "$status" -eq 0 ]; then
    echo "test-image: PASS in $(( $(date +%s) - started ))s"
  else
    echo "test-image: FAILED (exit $status) after $(( $(date +%s) - started ))s" >&2
  fi
  exit "$status"
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || fail "run as root (sudo $0): chroot, mount and podman's image mount need it"

# ---- 1. tools
step "tools"
need=()
for p in podman debootstrap nodejs node-ws; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
# npm (comes with nodesource's nodejs, else Debian's) installs Ajv for the Node client's wire schema.
command -v npm >/dev/null || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  echo "Installing missing Debian packages: ${need[*]}"
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "${need[@]}"
fi
podman --version
# Ajv, from tests/web's pinned packages: the Node client checks every frame against the wire
# schema (tests/schema/wire_schema.mjs).
tests/schema/ensure_ajv.sh || fail "Ajv could not be installed (npm ci in tests/web)"

# ---- 2. the base image
step "base image $base"
# The first Debian mirror of the host's apt sources that serves bookworm (one-line or deb822).
host_mirror() {
  { grep -hsE '^deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
      awk '{ for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) { if ($(i+1) == "bookworm") print $i; break } }'
    awk '/^URIs:/ { uris = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") print uris }
         /^$/ { uris = "" }' /etc/apt/sources.list.d/*.sources 2>/dev/null
  } | grep -v security | head -n1
}
if podman image exists "$base"; then
  echo "present: $(podman image inspect --format '{{.Id}} created {{.Created}}' "$base")"
else
  mirror=${DEBIAN_MIRROR:-$(host_mirror || true)}
  echo "debootstrap --variant=minbase bookworm (mirror: ${mirror:-the default})"
  work=$(mktemp -d /var/tmp/test-image.XXXXXX)
  root=$work/rootfs
  debootstrap --variant=minbase bookworm "$root" ${mirror:+"$mirror"} >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log"; fail "debootstrap"; }
  # What Debian's slim images do: no documentation, manual pages or translations (also for later
  # installs), no apt lists or package caches.
  cat >"$root/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
EOF
  cat >"$root/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF
  echo 'Acquire::Languages "none";' >"$root/etc/apt/apt.conf.d/docker-no-languages"
  echo 'Acquire::GzipIndexes "true";' >"$root/etc/apt/apt.conf.d/docker-gzip-indexes"
  if [ -n "$mirror" ]; then echo "deb $mirror bookworm-updates main" >>"$root/etc/apt/sources.list"; fi
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$root"/usr/share/{man,info,locale,groff,lintian,linda}/* "$root"/var/lib/apt/lists/* \
         "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old "$root"/var/log/*.log \
         "$root"/var/log/apt/* "$root"/tmp/*
  tar --numeric-owner -C "$root" -c . |
    podman import --change 'CMD ["bash"]' \
      --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      --change 'LABEL made-by=carcassonne-docker-test-image.sh' \
      --message "debootstrap --variant=minbase bookworm, slimmed (docker/test-image.sh)" \
      - "$base" >/dev/null
  rm -rf "$work"
  work=
  echo "imported: $(podman image inspect --format '{{.Id}}' "$base")"
fi
echo "base size: $(( $(podman image inspect --format '{{.Size}}' "$base") / 1000000 )) MB"

# ---- 3. build
step "podman build -f docker/Dockerfile (BUILD_JOBS=$build_jobs)"
build_start=$(date +%s)
podman build --isolation=chroot --pull=never --format docker --build-arg BUILD_JOBS="$build_jobs" \
  -f docker/Dockerfile -t "$image" . || fail "podman build"
echo "build took $(( $(date +%s) - build_start ))s"

# ---- 4. the image's configuration
step "image configuration"
cfg() { podman image inspect --format "{{$1}}" "$image"; }
user=$(cfg .Config.User)
workdir=$(cfg .Config.WorkingDir)
stopsignal=$(cfg .Config.StopSignal)
echo "user: $user  workdir: $workdir  stop signal: $stopsignal"
echo "entrypoint: $(cfg 'json .Config.Entrypoint')  cmd: $(cfg 'json .Config.Cmd')"
echo "exposed: $(cfg 'json .Config.ExposedPorts')  volumes: $(cfg 'json .Config.Volumes')"
echo "healthcheck: $(cfg 'json .Config.Healthcheck')"
echo "env: $(cfg 'json .Config.Env')"
uid=${user%%:*}
gid=${user#*:}
[[ $user == *:* ]] || gid=
[[ $uid =~ ^[0-9]+$ ]] && [ "$uid" -ne 0 ] || fail "the image's user '$user' is not a numeric non-root uid"
cfg 'json .Config.ExposedPorts' | grep -q '"8080/tcp"' || fail "port 8080 not exposed"
cfg 'json .Config.Volumes' | grep -q '"/var/lib/carcassonne"' || fail "no volume /var/lib/carcassonne"
[ "$stopsignal" = SIGTERM ] || fail "stop signal is '$stopsignal', not SIGTERM"
mapfile -t env_list < <(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$image" | sed '/^$/d')
printf '%s\n' "${env_list[@]}" | grep -qx 'CARCASSONNE_DATA_DIR=/var/lib/carcassonne' ||
  fail "CARCASSONNE_DATA_DIR is not /var/lib/carcassonne"
mapfile -t health < <(podman image inspect --format '{{range .Config.Healthcheck.Test}}{{println .}}{{end}}' "$image" | sed '/^$/d')
[ "${health[0]:-}" = CMD ] || fail "no exec-form HEALTHCHECK (got: ${health[*]:-none})"
health=("${health[@]:1}")
mapfile -t command < <(podman image inspect --format '{{range .Config.Entrypoint}}{{println .}}{{end}}{{range .Config.Cmd}}{{println .}}{{end}}' "$image" | sed '/^$/d')
[ "${command[0]}" = /usr/local/bin/carcassonne ] && [ "${command[1]:-}" = serve ] ||
  fail "the command is not /usr/local/bin/carcassonne serve: ${command[*]}"
size=$(cfg .Size)
echo "image size: $(( size / 1000000 )) MB"

# ---- 5. the mounted image
step "mounted image"
work=$(mktemp -d /var/tmp/test-image.XXXXXX)
mnt=$(podman image mount "$image")
echo "mounted at $mnt"
ldd_out=$(chroot "$mnt" /usr/bin/ldd /usr/local/bin/carcassonne) || fail "ldd in the image"
echo "$ldd_out"
! grep -q "not found" <<<"$ldd_out" || fail "a shared library is missing in the image"
for f in /usr/bin/g++ /usr/bin/cmake /usr/include/boost /usr/bin/curl /usr/bin/wget; do
  [ ! -e "$mnt$f" ] || fail "$f is in the runtime image"
done
data_owner=$(stat -c %u:%g "$mnt/var/lib/carcassonne")
[ "${data_owner%%:*}" = "$uid" ] || fail "/var/lib/carcassonne is owned by $data_owner, not by uid $uid"
echo "/var/lib/carcassonne owned by $data_owner, mode $(stat -c %a "$mnt/var/lib/carcassonne")"
[ -n "$gid" ] || gid=${data_owner#*:}
home=$(awk -F: -v u="$uid" '$3 == u { print $6 }' "$mnt/etc/passwd")
echo "user in the image: $(awk -F: -v u="$uid" '$3 == u { print $1 }' "$mnt/etc/passwd") (home ${home:-none})"

# What a container runtime provides: /proc, /dev, and the volume (a new volume starts as a copy
# of the image's directory: same owner and mode).
mount -t proc proc "$mnt/proc" || fail "mount /proc"
mounted+=("$mnt/proc")
mount --bind /dev "$mnt/dev" || fail "mount /dev"
mounted+=("$mnt/dev")
mkdir "$work/data"
cp -a "$mnt/var/lib/carcassonne/." "$work/data/"
chown "$data_owner" "$work/data"
chmod "$(stat -c %a "$mnt/var/lib/carcassonne")" "$work/data"
mount --bind "$work/data" "$mnt/var/lib/carcassonne" || fail "mount the data directory"
mounted+=("$mnt/var/lib/carcassonne")

# ---- 6. the server
step "server"
port=
for _ in $(seq 1 50); do
  p=$(( 20000 + RANDOM % 30000 ))
  if [ -z "$(ss -Hltn "sport = :$p")" ]; then port=$p; break; fi
done
[ -n "$port" ] || fail "no free port"
# As in a container: only the image's environment (plus HOME and HOSTNAME), configured as a host
# would be, with environment variables: a free port, loopback only (the chroot shares the host's
# network), and the per-connection rate limit raised for the load test (docs/performance.md).
run_env=("${env_list[@]}" "HOME=${home:-/}" "HOSTNAME=carcassonne-test"
         "CARCASSONNE_PORT=$port" "CARCASSONNE_ADDRESS=127.0.0.1"
         "CARCASSONNE_MESSAGE_RATE=10000" "CARCASSONNE_MESSAGE_BURST=10000")
# A command prefix: run in the image as its user, with run_env, in its working directory. Each
# part execs the next, so a command started with it in the background is $! itself.
in_image=(env -i "${run_env[@]}" /usr/sbin/chroot --userspec="$uid:$gid" --groups="$gid" "$mnt"
          /usr/bin/env --chdir="${workdir:-/}")
echo "starting: ${command[*]} (uid $uid, port $port)"
server_start=$(date +%s%N)
"${in_image[@]}" "${command[@]}" >"$work/server.log" 2>&1 &
server_pid=$!
listening=
for _ in $(seq 1 200); do
  grep -q "listening on 127.0.0.1:$port" "$work/server.log" && { listening=1; break; }
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited at startup"
  sleep 0.05
done
[ -n "$listening" ] || fail "no 'listening on' line in the server log"
echo "listening after $(( ($(date +%s%N) - server_start) / 1000000 )) ms"
grep -q "^Uid:[[:space:]]*$uid[[:space:]]" "/proc/$server_pid/status" || fail "the server does not run as uid $uid"

http_get() {  # path -> the whole response (bash's /dev/tcp)
  (exec 3<>"/dev/tcp/127.0.0.1/$port" &&
    printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n' "$1" >&3 &&
    timeout 5 cat <&3) 2>/dev/null | tr -d '\r'
}
"${in_image[@]}" "${health[@]}" || fail "the image's HEALTHCHECK command failed: ${health[*]}"
echo "HEALTHCHECK command (${health[*]}): healthy"
healthz=$(http_get /healthz)
head -n1 <<<"$healthz" | grep -q '^HTTP/1.1 200' || fail "/healthz: $(head -n1 <<<"$healthz")"
echo "/healthz: $(head -n1 <<<"$healthz"), body '$(tail -n1 <<<"$healthz")'"

step "a whole game over WebSocket (tests/e2e/node_client.mjs, Node's ws)"
NODE_PATH=/usr/share/nodejs E2E_TIMEOUT_MS=120000 \
  node tests/e2e/node_client.mjs "ws://127.0.0.1:$port/ws" 1 || fail "the Node client"

step "carcassonne loadtest (the image's binary), 4 s"
load=$("${in_image[@]}" /usr/local/bin/carcassonne loadtest --port "$port" --rooms 4 --clients-per-room 3 \
  --duration 4) || fail "loadtest: $load"
echo "$load"
grep -q '"errors":0' <<<"$load" || fail "loadtest reported errors"

metrics=$(http_get /metrics)
games=$(sed -n 's/^carcassonne_games_finished_total \([0-9][0-9]*\).*/\1/p' <<<"$metrics")
moves=$(sed -n 's/^carcassonne_moves_accepted_total \([0-9][0-9]*\).*/\1/p' <<<"$metrics")
echo "/metrics: games finished ${games:-?}, moves accepted ${moves:-?}"
[ "${games:-0}" -ge 1 ] || fail "/metrics shows no finished game"
"${in_image[@]}" "${health[@]}" || fail "the HEALTHCHECK command failed after the games"

step "SIGTERM, with a client connected"
# A client that waits on the socket: it must be told goodbye, then closed with 1001 (going away).
cat >"$work/goodbye.cjs" <<'EOF'
const WebSocket = require('/usr/share/nodejs/ws');
const ws = new WebSocket(process.argv[2]);
let goodbye = false;
ws.on('open', () => ws.send(JSON.stringify({ type: 'hello', protocol: 1, client: 'test-image' })));
setTimeout(() => { console.error('goodbye client: timed out'); process.exit(1); }, 15000).unref();
ws.on('message', (data) => {
  const m = JSON.parse(data);
  if (m.type === 'welcome') console.log('connected');
  if (m.type === 'goodbye') goodbye = true;
});
ws.on('close', (code) => {
  console.log(`goodbye client: goodbye ${goodbye}, close code ${code}`);
  process.exit(goodbye && code === 1001 ? 0 : 1);
});
ws.on('error', (e) => { console.error(`goodbye client: ${e.message}`); process.exit(1); });
EOF
node "$work/goodbye.cjs" "ws://127.0.0.1:$port/ws" >"$work/goodbye.log" 2>&1 &
client_pid=$!
for _ in $(seq 1 100); do grep -q connected "$work/goodbye.log" && break; sleep 0.05; done
grep -q connected "$work/goodbye.log" || fail "the waiting client did not connect: $(cat "$work/goodbye.log")"
stop_start=$(date +%s%N)
kill -TERM "$server_pid"
stopped=
for _ in $(seq 1 200); do  # 10 s: the shutdown grace (3 s by default) and some
  kill -0 "$server_pid" 2>/dev/null || { stopped=1; break; }
  sleep 0.05
done
[ -n "$stopped" ] || fail "the server still runs 10 s after SIGTERM"
set +e
wait "$server_pid"
server_status=$?
set -e
server_pid=
echo "exited with status $server_status after $(( ($(date +%s%N) - stop_start) / 1000000 )) ms"
[ "$server_status" -eq 0 ] || fail "exit status $server_status after SIGTERM"
grep -q "stopped" "$work/server.log" || fail "the server did not log 'stopped'"
set +e
wait "$client_pid"
client_status=$?
set -e
client_pid=
grep goodbye "$work/goodbye.log" || true
[ "$client_status" -eq 0 ] || fail "the connected client was not told goodbye and closed with 1001"
echo "--- server log (last lines)"
tail -n 5 "$work/server.log"
echo "--- data volume after the run (owner uid:gid, size, name)"
find "$work/data" -mindepth 1 -printf '%U:%G %s %P\n' | sort -k3 | head -n 20
[ -f "$work/data/carcassonne.db" ] || fail "no carcassonne.db in the data volume"
[ "$(stat -c %u "$work/data/carcassonne.db")" = "$uid" ] || fail "carcassonne.db is not owned by uid $uid"

step "restart on the same volume: the unfinished games come back"
"${in_image[@]}" "${command[@]}" >"$work/server2.log" 2>&1 &
server_pid=$!
listening=
for _ in $(seq 1 200); do
  grep -q "listening on 127.0.0.1:$port" "$work/server2.log" && { listening=1; break; }
  kill -0 "$server_pid" 2>/dev/null || fail "the restarted server exited at startup: $(cat "$work/server2.log")"
  sleep 0.05
done
[ -n "$listening" ] || fail "the restarted server did not listen"
rebuilt=$(grep -o 'database: [0-9]* rooms rebuilt ([0-9]* games in progress, [0-9]* moves replayed)' "$work/server2.log") ||
  fail "no 'rooms rebuilt' line in the restarted server's log"
echo "$rebuilt"
[ "$(sed 's/.*(\([0-9]*\) games.*/\1/' <<<"$rebuilt")" -ge 1 ] || fail "no game in progress came back"
head -n1 <<<"$(http_get /healthz)" | grep -q '^HTTP/1.1 200' || fail "/healthz after the restart"
backup=$("${in_image[@]}" /usr/local/bin/carcassonne backup /var/lib/carcassonne/backup-test.db) ||
  fail "carcassonne backup in the image: $backup"
echo "online backup while the server runs: $backup"
grep -q '"rooms":[1-9]' <<<"$backup" || fail "the backup holds no room"
rm -f "$work/data/backup-test.db"
kill -TERM "$server_pid"
set +e
wait "$server_pid"
server_status=$?
set -e
server_pid=
[ "$server_status" -eq 0 ] || fail "exit status $server_status after SIGTERM (restarted server)"
echo "restarted server stopped with status 0"

step "summary"
echo "image $image: $(( size / 1000000 )) MB ($size bytes)"
