#!/usr/bin/env bash
# Runs nginx (Debian package) in the foreground as a reverse proxy in front of one origin, configured like
# DESIGN.md's benchmark method: worker_processes 1, upstream keepalive 64, proxy_http_version 1.1,
# Connection "" upstream, X-Forwarded-For, access_log off. Bodies stream both ways (no request buffering,
# no temp files) and keep-alive connections are not recycled every 1000 requests (nginx's default), so a
# 1 GiB upload or download and a long run measure forwarding, not spooling or reconnecting.
# Prefix, configuration, pid file, temp folders and error log live in --dir; the process execs. Once the port
# accepts connections, "nginx is ready: <listen> accepts connections" is printed (crank's readyStateText).
# Connections per worker (client and upstream ones together) follow the hard open-file limit, at most 65536, so
# thousands of idle clients fit.
#
# usage: scripts/nginx.sh --listen 127.0.0.1:8080 --downstream 127.0.0.1:8081 --dir DIR [--workers N]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/nginx-common.sh"
listen=127.0.0.1:8080
downstream=127.0.0.1:8081
dir=nginx
workers=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --listen) listen="$2"; shift 2 ;;
    --downstream) downstream="$2"; shift 2 ;;
    --dir) dir="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    *) echo "nginx.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

nginx_require nginx.sh
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
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
        server $downstream;
        keepalive 64;
        keepalive_requests 1000000;
    }

    server {
        listen $listen;

        location / {
            proxy_pass http://origin;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_request_buffering off;
            proxy_max_temp_file_size 0;
        }
    }
}
CONFIG
} > "$dir/nginx.conf"

nginx_exec nginx "$listen" "$dir"
