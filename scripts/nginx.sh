#!/usr/bin/env bash
# Runs nginx (Debian package) in the foreground as a reverse proxy in front of one origin or several, configured like
# DESIGN.md's benchmark method: worker_processes 1, upstream keepalive 64, proxy_http_version 1.1,
# Connection "" upstream, X-Forwarded-For, access_log off. Bodies stream both ways (no request buffering,
# no temp files) and keep-alive connections are not recycled every 1000 requests (nginx's default), so a
# 1 GiB upload or download and a long run measure forwarding, not spooling or reconnecting.
# /ws is relayed as a WebSocket (Upgrade and Connection: upgrade passed on, a tunnel idle for up to an hour).
# --scheme https terminates TLS on the listen address, --downstream-scheme https speaks TLS to the origin (sessions
# reused, no verification: nginx's default, the origin's certificate being self-signed). The certificate is --tls-cert's
# DIR/cert.pem and DIR/key.pem, generated there by scripts/tls-cert.sh when missing (default DIR: --dir's tls folder).
# Prefix, configuration, pid file, temp folders and error log live in --dir; the process execs. Once the port
# accepts connections, "nginx is ready: <listen> accepts connections" is printed (crank's readyStateText).
# Connections per worker (client and upstream ones together) follow the hard open-file limit, at most 65536, so
# thousands of idle clients fit.
# --downstream takes a comma-separated list of origins, the servers of the one upstream, balanced by --balance:
# round_robin (nginx's default), least_conn, or random_two_least_conn (random two least_conn: two chances, the one
# with fewer active connections).
#
# usage: scripts/nginx.sh --listen 127.0.0.1:8080 --downstream 127.0.0.1:8081[,127.0.0.1:8082...] --dir DIR
#                         [--workers N] [--balance round_robin|least_conn|random_two_least_conn]
#                         [--scheme http|https] [--downstream-scheme http|https] [--tls-cert DIR] [--http2]
#                         [--mode http|tcp] [--downstream-proto h2]
# --downstream-proto h2 speaks HTTP/2 to the origins with grpc_pass (nginx's only HTTP/2 client: h2c with prior knowledge
# over http, upstream keepalive as above), for gRPC and the HTTP/2-to-origin rows; /ws is not proxied then.
# --mode tcp relays bytes with the stream module (loaded from --stream-module, by default Debian's
# /usr/lib/nginx/modules/ngx_stream_module.so of libnginx-mod-stream): proxy_pass to the upstream, no HTTP, no TLS.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/nginx-common.sh"
listen=127.0.0.1:8080
downstream=127.0.0.1:8081
dir=nginx
workers=1
balance=round_robin
scheme=http
downstream_scheme=http
tls_cert=""
http2=0
downstream_proto=""
mode=http
stream_module=/usr/lib/nginx/modules/ngx_stream_module.so
while [[ $# -gt 0 ]]; do
  case "$1" in
    --listen) listen="$2"; shift 2 ;;
    --downstream) downstream="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --balance) balance="$2"; shift 2 ;;
    --scheme) scheme="$2"; shift 2 ;;
    --downstream-scheme) downstream_scheme="$2"; shift 2 ;;
    --tls-cert) tls_cert="$2"; shift 2 ;;
    --http2) http2=1; shift ;;
    --mode) mode="$2"; shift 2 ;;
    --downstream-proto) downstream_proto="$2"; shift 2 ;;
    --stream-module) stream_module="$2"; shift 2 ;;
    *) echo "nginx.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

nginx_require nginx.sh
for value in "$scheme" "$downstream_scheme"; do
  [[ $value == http || $value == https ]] || { echo "nginx.sh: scheme '$value' is not http or https" >&2; exit 2; }
done
# The balancing method goes before keepalive in the upstream block, as nginx requires.
case "$balance" in
  round_robin) balance_line="" ;;
  least_conn) balance_line="        least_conn;"$'\n' ;;
  random_two_least_conn) balance_line="        random two least_conn;"$'\n' ;;
  *) echo "nginx.sh: --balance '$balance' is not round_robin, least_conn or random_two_least_conn" >&2; exit 2 ;;
esac
IFS=, read -r -a servers <<< "$downstream"
[[ ${#servers[@]} -gt 0 ]] || { echo "nginx.sh: --downstream names no origin" >&2; exit 2; }
server_lines=""
for server in "${servers[@]}"; do
  server_lines+="        server $server;"$'\n'
done
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
tls_cert="${tls_cert:-$dir/tls}"
bash "$(dirname "${BASH_SOURCE[0]}")/tls-cert.sh" --dir "$tls_cert" --schemes "$scheme,$downstream_scheme"
tls_cert="$(cd "$tls_cert" 2>/dev/null && pwd || echo "$tls_cert")"
listen_tls=""
[[ $scheme == https ]] && listen_tls=" ssl"
# --http2: the listen address speaks HTTP/2 (over http: h2c with prior knowledge only); the origin leg stays HTTP/1.1.
[[ $http2 -eq 1 ]] && listen_tls+=" http2"
[[ $mode == http || $mode == tcp ]] || { echo "nginx.sh: mode '$mode' is not http or tcp" >&2; exit 2; }
[[ -z $downstream_proto || $downstream_proto == h2 ]] || { echo "nginx.sh: --downstream-proto '$downstream_proto' is not h2" >&2; exit 2; }
if [[ $mode == tcp ]]; then
[[ -f $stream_module ]] || { echo "nginx.sh: $stream_module is missing (apt-get install libnginx-mod-stream)" >&2; exit 127; }
{
echo "load_module $stream_module;"
nginx_main_context "$dir" "$workers"
cat <<CONFIG

stream {
    upstream origin {
$balance_line$server_lines    }

    server {
        listen $listen;
        proxy_pass origin;
    }
}
CONFIG
} > "$dir/nginx.conf"
nginx_exec nginx "$listen" "$dir"
fi
{
nginx_main_context "$dir" "$workers"
cat <<CONFIG

http {
    access_log off;
    keepalive_requests 1000000;
    client_max_body_size 0;
CONFIG
nginx_temp_paths "$dir"
cat <<CONFIG

    upstream origin {
$balance_line$server_lines        keepalive 64;
        keepalive_requests 1000000;
    }

    server {
        listen $listen$listen_tls;
CONFIG
if [[ $scheme == https ]]; then
cat <<CONFIG
        ssl_certificate $tls_cert/cert.pem;
        ssl_certificate_key $tls_cert/key.pem;
        ssl_session_cache shared:client_tls:10m;
CONFIG
fi
if [[ $downstream_scheme == https ]]; then
cat <<CONFIG
        proxy_ssl_session_reuse on;
        proxy_ssl_server_name on;
        proxy_ssl_name localhost;
CONFIG
fi
if [[ $downstream_proto == h2 ]]; then
grpc_scheme=grpc
[[ $downstream_scheme == https ]] && grpc_scheme=grpcs
cat <<CONFIG

        location / {
            grpc_pass $grpc_scheme://origin;
            grpc_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
    }
}
CONFIG
else
cat <<CONFIG

        location / {
            proxy_pass $downstream_scheme://origin;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_request_buffering off;
            proxy_max_temp_file_size 0;
        }

        location = /ws {
            proxy_pass $downstream_scheme://origin;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_read_timeout 1h;
            proxy_send_timeout 1h;
        }
    }
}
CONFIG
fi
} > "$dir/nginx.conf"

nginx_exec nginx "$listen" "$dir"
