#!/usr/bin/env bash
# Runs nginx (Debian package) in the foreground as an origin for the benchmark's throughput shapes, so the origin
# is never the ceiling (DESIGN.md's benchmark method): worker_processes 1, access_log off, keep-alive connections
# not recycled every 1000 requests, open files cached, sendfile for bodies of 64 KiB and more only. Without
# sendfile a small body is pread into memory and leaves with its head in one writev, one TCP segment; with it the
# head goes out in a writev and the body in a sendfile, two segments (strace -c: one writev and one sendfile or
# pread64 per request either way). Measured here, on one core shared with wrk -c32: 10 B and 1 KB ran at ~38k
# requests/s with sendfile and ~55k without; 100 KB at ~14k with it and ~9k without. It serves the part of the
# bundled origin's contract (src/LLRP.Downstream) the shapes use:
#   GET /?s=N    200 with exactly N bytes and a Content-Length, for each N of --sizes; no s means 10; 404 otherwise.
#                The bytes are the bundled origin's pattern: the byte at position i is 'a' + i % 26.
#   POST /sink   200 with the body "ok\n"; nginx reads and discards the request body itself. It does not count
#                or hash the body as the bundled origin does, and a `return` may answer before a large upload has
#                arrived: large bodies stay on the bundled origin.
#   GET /stub_status  nginx's stub_status: its "requests" figure counts every request received, this one included,
#                as the bundled origin's /requests does (the benchmark reads how many requests each origin served).
# With --tls-listen ADDR the same server also listens on ADDR with TLS (session cache on), for the https shapes' origin
# leg; its certificate is --tls-cert's DIR/cert.pem and DIR/key.pem, generated there by scripts/tls-cert.sh when
# missing (default DIR: --dir's tls folder).
# Prefix, configuration, pid file, files served (DIR/www/small/N, DIR/www/large/N), temp folders and error log live
# in --dir; the process execs. Once the port accepts connections, "nginx-origin is ready: <listen> accepts
# connections" is printed. Connections per worker follow the hard open-file limit (at most 65536), so thousands of
# idle clients of a proxy that holds one upstream connection per client fit.
#
# usage: scripts/nginx-origin.sh --listen 127.0.0.1:8081 --dir DIR [--sizes 10,1024,102400]
#                                [--tls-listen 127.0.0.1:8443] [--tls-cert DIR] [--h2c-listen 127.0.0.1:8444]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/nginx-common.sh"
listen=127.0.0.1:8081
dir=nginx-origin
sizes=10,1024,102400
tls_listen=""
tls_cert=""
h2c_listen=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --listen) listen="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --tls-listen) tls_listen="$2"; shift 2 ;;
    --h2c-listen) h2c_listen="$2"; shift 2 ;;
    --tls-cert) tls_cert="$2"; shift 2 ;;
    *) echo "nginx-origin.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

nginx_require nginx-origin.sh
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
rm -rf "$dir/www"
tls_server=""
if [[ -n $tls_listen ]]; then
  tls_cert="${tls_cert:-$dir/tls}"
  bash "$(dirname "${BASH_SOURCE[0]}")/tls-cert.sh" --dir "$tls_cert"
  tls_cert="$(cd "$tls_cert" && pwd)"
  tls_server="        listen $tls_listen ssl;
        ssl_certificate $tls_cert/cert.pem;
        ssl_certificate_key $tls_cert/key.pem;
        ssl_session_cache shared:origin_tls:10m;"
fi
# --h2c-listen ADDR: the same server also listens on ADDR for HTTP/2 with prior knowledge (only), for direct h2load.
[[ -n $h2c_listen ]] && tls_server="        listen $h2c_listen http2;
$tls_server"
mkdir -p "$dir/www/small" "$dir/www/large"

# One file per size (10 always: the size when s is absent), cut from the pattern doubled until it is long enough,
# under small/ or large/ (sent with sendfile); the map sends /?s=N to its file, anything else to a missing one.
pattern=abcdefghijklmnopqrstuvwxyz
IFS=, read -r -a size_list <<< "10,$sizes"
size_map=""
declare -A written=()
for size in "${size_list[@]}"; do
  [[ $size =~ ^[0-9]+$ && $size -le 16777216 ]] || { echo "nginx-origin.sh: size '$size' is not an integer in [0, 16777216]" >&2; exit 2; }
  size=$((10#$size))
  [[ -n ${written[$size]:-} ]] && continue
  written[$size]=1
  while ((${#pattern} < size)); do
    pattern="$pattern$pattern"
  done
  class=small
  ((size >= 65536)) && class=large
  printf '%s' "${pattern:0:size}" > "$dir/www/$class/$size"
  size_map+="        $size /$class/$size;"$'\n'
done

{
nginx_main_context "$dir" 1
cat <<CONFIG

http {
    access_log off;
    log_not_found off;
    server_tokens off;
    etag off;
    sendfile on;
    keepalive_requests 1000000;
    client_max_body_size 0;
    default_type text/plain;
    open_file_cache max=64 inactive=1h;
    open_file_cache_valid 1h;
    open_file_cache_errors on;
CONFIG
nginx_temp_paths "$dir"
cat <<CONFIG

    # s absent: 10 bytes, as the bundled origin; a size not served names a missing file (404).
    map \$arg_s \$size_file {
        "" /small/10;
$size_map        default /small/missing;
    }

    server {
        listen $listen;
$tls_server
        root $dir/www;

        location = /sink {
            return 200 "ok\n";
        }

        location = /stub_status {
            stub_status;
        }

        location / {
            rewrite ^ \$size_file last;
        }

        location /small/ {
            internal;
            sendfile off;
        }

        location /large/ {
            internal;
        }
    }
}
CONFIG
} > "$dir/nginx.conf"

nginx_exec nginx-origin "$listen" "$dir"
