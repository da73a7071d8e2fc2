# HAProxy from Debian's package, for docker/compose.cluster.yaml (docs/scaling.md).
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy \
    && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY docker/haproxy.cfg /etc/haproxy/haproxy.cfg
USER haproxy
EXPOSE 8080
STOPSIGNAL SIGUSR1
# -W: master-worker, so that a reload or stop reaches the workers; -db: stay in the foreground.
ENTRYPOINT ["/usr/sbin/haproxy", "-W", "-db", "-f", "/etc/haproxy/haproxy.cfg"]
