#!/usr/bin/env bash
# Runs HAProxy (Debian package) in the foreground as a reverse proxy in front of one origin, configured
# like DESIGN.md's benchmark method: nbthread 1, mode http, http-reuse safe, option forwardfor, no logging.
# The configuration is generated into --dir; the process execs, so its pid is HAProxy's. Once the port accepts
# connections, "haproxy is ready: <listen> accepts connections" is printed (crank's readyStateText). maxconn is half
# the hard open-file limit, capped at 65536 (two descriptors per proxied connection), so thousands of idle clients
# fit: HAProxy raises its own soft limit to what maxconn needs and refuses to start when the hard limit is lower.
#
# usage: scripts/haproxy.sh --listen 127.0.0.1:8080 --downstream 127.0.0.1:8081 --dir DIR [--threads N]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
listen=127.0.0.1:8080
downstream=127.0.0.1:8081
dir=haproxy
threads=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --listen) listen="$2"; shift 2 ;;
    --downstream) downstream="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    *) echo "haproxy.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

export PATH="$PATH:/usr/sbin:/sbin"
command -v haproxy >/dev/null || { echo "haproxy.sh: haproxy is not installed (apt-get install haproxy)" >&2; exit 127; }
mkdir -p "$dir"
nofile="$(ulimit -Hn)"
[[ $nofile == unlimited || $nofile -gt 65536 ]] && nofile=65536
maxconn=$(((nofile - 100) / 2))
config="$dir/haproxy.cfg"
cat > "$config" <<CONFIG
global
    nbthread $threads
    maxconn $maxconn

defaults
    mode http
    option forwardfor
    http-reuse safe
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 60s

frontend proxy
    bind $listen
    default_backend origin

backend origin
    server origin1 $downstream
CONFIG

haproxy -c -q -f "$config"
(bash "$here/announce-ready.sh" haproxy "$listen" $$ &)
exec haproxy -db -f "$config"
