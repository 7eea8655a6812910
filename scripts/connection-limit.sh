#!/usr/bin/env bash
# limits.maxClientConnections at scale. From anywhere:
#   bash scripts/connection-limit.sh [limit] [over]     (defaults 10000 and 500)
# Publishes LLRP and tests/LLRP.FaultRun in Release into artifacts/connection-limit (installs curl with apt-get when missing),
# raises the open-file limit to fit, starts the proxy with limits.maxClientConnections=limit and its admin listener on
# free loopback ports, and runs `LLRP.FaultRun connections`: limit connections with one request each, held open, then
# over more that must each get 503 and the close; the client connection gauge must read limit while they are held and 0
# once they close, and the rejected connection counter over. Prints the figures into results/connection-limit-<UTC
# timestamp>/summary.txt; exits 1 when one is off or the proxy died.
set -euo pipefail

limit="${1:-10000}"
over="${2:-500}"
[[ $limit =~ ^[1-9][0-9]*$ && $over =~ ^[0-9]+$ ]] || { echo "connection-limit.sh: limit and over must be whole numbers" >&2; exit 2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
publish="$root/artifacts/connection-limit"
results="$root/results/connection-limit-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$results"

source "$root/scripts/run-common.sh"
install_missing connection-limit.sh curl

# Each process holds one descriptor per client connection (the proxy also its few upstream ones), and some to spare.
needed=$((limit + over + 1024))
if (($(ulimit -n) < needed)); then
  ulimit -n "$needed" || { echo "connection-limit.sh: cannot raise the open-file limit to $needed" >&2; exit 1; }
fi

publish_release connection-limit.sh "$publish" "$results/build.log" src/LLRP/LLRP.csproj tests/LLRP.FaultRun/LLRP.FaultRun.csproj

proxy_port="$(free_port)"
destination_port="$(free_port)"
admin_port="$(free_port)"
dotnet "$publish/LLRP/LLRP.dll" --urls="http://127.0.0.1:$proxy_port" --downstream="http://127.0.0.1:$destination_port" \
  --admin.urls="http://127.0.0.1:$admin_port" --limits.maxClientConnections="$limit" >"$results/proxy.log" 2>&1 &
proxy_pid=$!
started_pids+=("$proxy_pid")
wait_for_admin "$admin_port"

status=0
dotnet "$publish/LLRP.FaultRun/LLRP.FaultRun.dll" connections --proxy-port "$proxy_port" --destination-port "$destination_port" \
  --admin "http://127.0.0.1:$admin_port" --limit "$limit" --over "$over" >"$results/summary.txt" 2>&1 || status=$?
kill -0 "$proxy_pid" 2>/dev/null || { echo "connection-limit.sh: the proxy died, see $results/proxy.log" >&2; status=1; }
cat "$results/summary.txt"
exit "$status"
