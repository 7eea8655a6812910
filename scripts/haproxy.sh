#!/usr/bin/env bash
# Runs HAProxy (Debian package) in the foreground as a reverse proxy in front of one origin or several, configured
# like DESIGN.md's benchmark method: nbthread 1, mode http, http-reuse safe, option forwardfor, no logging.
# --downstream takes a comma-separated list of origins, each a server of one backend balanced by --balance (HAProxy's
# algorithm: roundrobin, the default, leastconn, random, ...; checked by haproxy -c).
# WebSocket upgrades are tunnelled by mode http itself; a tunnel stays open while idle for timeout tunnel.
# --scheme https terminates TLS on the listen address (ALPN http/1.1), --downstream-scheme https speaks TLS to the
# origin (SNI localhost, no verification: the origin's certificate is self-signed). The certificate is --tls-cert's
# DIR/haproxy.pem, generated there by scripts/tls-cert.sh when missing (default DIR: --dir's tls folder).
# The configuration is generated into --dir; the process execs, so its pid is HAProxy's. Once the port accepts
# connections, "haproxy is ready: <listen> accepts connections" is printed (crank's readyStateText). maxconn is half
# the hard open-file limit, capped at 65536 (two descriptors per proxied connection), so thousands of idle clients
# fit: HAProxy raises its own soft limit to what maxconn needs and refuses to start when the hard limit is lower.
#
# usage: scripts/haproxy.sh --listen 127.0.0.1:8080 --downstream 127.0.0.1:8081[,127.0.0.1:8082...] --dir DIR
#                           [--threads N] [--balance roundrobin|leastconn|...]
#                           [--scheme http|https] [--downstream-scheme http|https] [--tls-cert DIR] [--proto h2]
#                           [--mode http|tcp] [--downstream-proto h2] [--splice]
# --downstream-proto h2 speaks HTTP/2 to the origins (server … proto h2: h2c with prior knowledge over http), for gRPC
# and the HTTP/2-to-origin rows; HTTP/1.1 to them otherwise.
# --mode tcp relays bytes (mode tcp: no HTTP, no forwardfor, no reuse; TLS options do not apply).
# --splice (mode tcp) adds option splice-auto: HAProxy moves the bytes with splice(2) when it judges it worth it; maxconn
# is then two fifths of the open-file limit, room left for its pipes.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
listen=127.0.0.1:8080
downstream=127.0.0.1:8081
dir=haproxy
threads=1
balance=roundrobin
scheme=http
downstream_scheme=http
tls_cert=""
proto=""
mode=http
downstream_proto=""
splice=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --listen) listen="$2"; shift 2 ;;
    --downstream) downstream="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --balance) balance="$2"; shift 2 ;;
    --scheme) scheme="$2"; shift 2 ;;
    --downstream-scheme) downstream_scheme="$2"; shift 2 ;;
    --tls-cert) tls_cert="$2"; shift 2 ;;
    --proto) proto="$2"; shift 2 ;;
    --mode) mode="$2"; shift 2 ;;
    --downstream-proto) downstream_proto="$2"; shift 2 ;;
    --splice) splice=$'\n    option splice-auto'; shift ;;
    *) echo "haproxy.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

export PATH="$PATH:/usr/sbin:/sbin"
command -v haproxy >/dev/null || { echo "haproxy.sh: haproxy is not installed (apt-get install haproxy)" >&2; exit 127; }
for value in "$scheme" "$downstream_scheme"; do
  [[ $value == http || $value == https ]] || { echo "haproxy.sh: scheme '$value' is not http or https" >&2; exit 2; }
done
mkdir -p "$dir"
tls_cert="${tls_cert:-$dir/tls}"
bash "$here/tls-cert.sh" --dir "$tls_cert" --schemes "$scheme,$downstream_scheme"
bind_tls=""
server_tls=""
[[ $scheme == https ]] && bind_tls=" ssl crt $tls_cert/haproxy.pem alpn http/1.1"
[[ $downstream_scheme == https ]] && server_tls=" ssl verify none sni str(localhost) alpn http/1.1"
# --proto h2: the bind line speaks HTTP/2 only (h2c with prior knowledge over http), the origin leg stays HTTP/1.1.
case "$proto" in
  "") ;;
  h2) bind_tls+=" proto h2" ;;
  *) echo "haproxy.sh: --proto '$proto' is not h2" >&2; exit 2 ;;
esac
case "$downstream_proto" in
  "") ;;
  h2) server_tls+=" proto h2" ;;
  *) echo "haproxy.sh: --downstream-proto '$downstream_proto' is not h2" >&2; exit 2 ;;
esac
nofile="$(ulimit -Hn)"
[[ $nofile == unlimited || $nofile -gt 65536 ]] && nofile=65536
maxconn=$(((nofile - 100) / 2))
# With splice, HAProxy also keeps pipes (maxpipes, maxconn/4 by default, two descriptors each).
[[ -n $splice ]] && maxconn=$(((nofile - 100) * 2 / 5))
IFS=, read -r -a servers <<< "$downstream"
[[ ${#servers[@]} -gt 0 ]] || { echo "haproxy.sh: --downstream names no origin" >&2; exit 2; }
server_lines=""
for i in "${!servers[@]}"; do
  server_lines+="    server origin$((i + 1)) ${servers[i]}$server_tls"$'\n'
done
[[ $mode == http || $mode == tcp ]] || { echo "haproxy.sh: mode '$mode' is not http or tcp" >&2; exit 2; }
config="$dir/haproxy.cfg"
if [[ $mode == tcp ]]; then
cat > "$config" <<CONFIG
global
    nbthread $threads
    maxconn $maxconn

defaults
    mode tcp
    timeout connect 5s
    timeout client 60s
    timeout server 60s$splice

frontend proxy
    bind $listen
    default_backend origin

backend origin
    balance $balance
$server_lines
CONFIG
else
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
    timeout tunnel 1h

frontend proxy
    bind $listen$bind_tls
    default_backend origin

backend origin
    balance $balance
$server_lines
CONFIG
fi

haproxy -c -q -f "$config"
(bash "$here/announce-ready.sh" haproxy "$listen" $$ &)
exec haproxy -db -f "$config"
