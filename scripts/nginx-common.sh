#!/usr/bin/env bash
# What scripts/nginx.sh (nginx as a proxy) and scripts/nginx-origin.sh (nginx as an origin) share; sourced, not run.
# Both keep prefix, configuration, pid file, temp folders and error log in one folder, size connections per worker
# to the hard open-file limit (at most 65536) so thousands of idle clients fit, and exec nginx in the foreground.

# nginx_require NAME: fails with exit code 127 when nginx is not installed.
nginx_require() {
  export PATH="$PATH:/usr/sbin:/sbin"
  command -v nginx >/dev/null || { echo "$1: nginx is not installed (apt-get install nginx)" >&2; exit 127; }
}

# nginx_main_context DIR WORKERS: prints the configuration's main and events contexts.
nginx_main_context() {
  local dir="$1" workers="$2" nofile user=""
  nofile="$(ulimit -Hn)"
  [[ $nofile == unlimited || $nofile -gt 65536 ]] && nofile=65536
  [[ $(id -u) -eq 0 ]] && user="user root;"
  cat <<CONFIG
$user
worker_processes $workers;
worker_rlimit_nofile $nofile;
pid $dir/nginx.pid;
error_log $dir/error.log warn;

events {
    worker_connections $nofile;
    multi_accept on;
    use epoll;
}
CONFIG
}

# nginx_temp_paths DIR: creates DIR/temp and prints the http context's temp folders, all under it.
nginx_temp_paths() {
  local dir="$1"
  mkdir -p "$dir/temp"
  cat <<CONFIG
    client_body_temp_path $dir/temp/client_body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;
CONFIG
}

# nginx_exec NAME LISTEN DIR: checks DIR/nginx.conf, announces "NAME is ready" once LISTEN accepts connections and
# replaces this process with nginx.
nginx_exec() {
  local name="$1" listen="$2" dir="$3" here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  nginx -t -q -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" -g 'daemon off;'
  (bash "$here/announce-ready.sh" "$name" "$listen" $$ &)
  exec nginx -p "$dir" -e "$dir/error.log" -c "$dir/nginx.conf" -g 'daemon off;'
}
