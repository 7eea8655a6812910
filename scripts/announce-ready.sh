#!/usr/bin/env bash
# Prints "NAME is ready: HOST:PORT accepts connections" on stdout once HOST:PORT accepts a TCP connection, for
# crank's readyStateText (crank's own port poll counts even a failed connection as ready). Polls every 0.1 s;
# gives up, printing on stderr, when process PID exits or after TIMEOUT seconds. A wildcard host (*, 0.0.0.0,
# empty, ::) is polled on loopback.
#
# usage: scripts/announce-ready.sh NAME HOST:PORT PID [TIMEOUT]
set -euo pipefail

name="$1"
listen="$2"
pid="$3"
timeout="${4:-30}"
host="${listen%:*}"
port="${listen##*:}"
host="${host#[}"
host="${host%]}"
case "$host" in
  "" | "*" | 0.0.0.0) host=127.0.0.1 ;;
  "::") host=::1 ;;
esac

deadline=$((SECONDS + timeout))
while ((SECONDS < deadline)); do
  kill -0 "$pid" 2>/dev/null || exit 1
  if (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
    echo "$name is ready: $listen accepts connections"
    exit 0
  fi
  sleep 0.1
done
echo "announce-ready.sh: $name: $listen did not accept connections within ${timeout} s" >&2
exit 1
