#!/usr/bin/env bash
# Checks the PROXY protocol LLRP sends against nginx, which reads it: LLRP listens with a TCP route whose cluster has
# Metadata:Llrp.ProxyProtocol v1, then v2, to an nginx server `listen … proxy_protocol` that answers
# $proxy_protocol_addr; curl through the route must get its own address back (127.0.0.1). A curl straight to nginx,
# with no header, must fail (nginx refuses it), so the check can fail. Installs nginx and curl when missing, publishes
# LLRP in Release into artifacts/proxy-protocol-nginx/, takes free ports, bounds every wait, stops what it started.
#
# usage: bash scripts/proxy-protocol-nginx.sh        (exit 0 when both versions carry the client's address)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
work="$(mktemp -d)"
publish="$root/artifacts/proxy-protocol-nginx"
pids=()

cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    timeout 10 tail --pid="$pid" -f /dev/null 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

source "$root/scripts/run-common.sh"
source "$root/scripts/nginx-common.sh"
install_missing proxy-protocol-nginx.sh nginx curl
nginx_require proxy-protocol-nginx.sh
publish_release proxy-protocol-nginx.sh "$publish" "$work/build.log" src/LLRP/LLRP.csproj

# wait_listening PORT: until PORT accepts a connection, 30 s at most.
wait_listening() {
  local port="$1" i
  for ((i = 0; i < 300; i++)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "proxy-protocol-nginx.sh: nothing listens on $port after 30 s" >&2
  return 1
}

nginx_port="$(free_port)"
{
  nginx_main_context "$work" 1
  cat <<CONFIG

http {
    access_log off;
CONFIG
  nginx_temp_paths "$work"
  cat <<CONFIG

    server {
        listen 127.0.0.1:$nginx_port proxy_protocol;
        location / {
            default_type text/plain;
            return 200 "\$proxy_protocol_addr\n";
        }
    }
}
CONFIG
} > "$work/nginx.conf"
nginx -p "$work" -e "$work/error.log" -c "$work/nginx.conf" -g 'daemon off;' &
pids+=($!)
wait_listening "$nginx_port"

if curl -sS --max-time 5 "http://127.0.0.1:$nginx_port/" >/dev/null 2>&1; then
  echo "proxy-protocol-nginx.sh: nginx answered a request without a PROXY header: its listen lacks proxy_protocol" >&2
  exit 1
fi
echo "nginx on 127.0.0.1:$nginx_port (listen … proxy_protocol): a request without a PROXY header is refused"

failed=0
for version in v1 v2; do
  llrp_port="$(free_port)"
  dotnet "$publish/LLRP/LLRP.dll" \
    --urls=http://127.0.0.1:0 --Logging:LogLevel:Default=Warning \
    "--ReverseProxy:TcpRoutes:pp:Listen=127.0.0.1:$llrp_port" \
    --ReverseProxy:TcpRoutes:pp:ClusterId=nginx \
    "--ReverseProxy:Clusters:nginx:Destinations:n:Address=tcp://127.0.0.1:$nginx_port" \
    "--ReverseProxy:Clusters:nginx:Metadata:Llrp.ProxyProtocol=$version" >"$work/llrp-$version.log" 2>&1 &
  llrp=$!
  pids+=("$llrp")
  wait_listening "$llrp_port"
  answer="$(curl -sS --max-time 5 "http://127.0.0.1:$llrp_port/" || true)"
  if [[ $answer == 127.0.0.1 ]]; then
    echo "$version: curl → LLRP 127.0.0.1:$llrp_port (Llrp.ProxyProtocol=$version) → nginx: \$proxy_protocol_addr = $answer (the client's address): ok"
  else
    echo "$version: curl → LLRP 127.0.0.1:$llrp_port (Llrp.ProxyProtocol=$version) → nginx: \$proxy_protocol_addr = '$answer', expected 127.0.0.1: FAILED"
    failed=1
  fi
  kill -TERM "$llrp"
  timeout 15 tail --pid="$llrp" -f /dev/null || kill -KILL "$llrp" 2>/dev/null || true
done
exit "$failed"
