#!/usr/bin/env bash
# The fault run: faults at both ends, every mode. From anywhere:
#   bash scripts/faults.sh [total_requests]      (default 1000000, split evenly over the modes, and HTTP/2 servers)
# 1. Publishes LLRP and tests/LLRP.FaultRun in Release into artifacts/faults. Installs curl with apt-get when missing.
# 2. For each mode of $FAULT_MODES (default: raw httpclient httpclient-httpcontext yarp) starts the proxy on free loopback
#    ports with its admin listener (for the connection gauges) and pool.idleTimeoutMs=2000, then runs LLRP.FaultRun:
#    $FAULT_CONNECTIONS concurrent clients (default 32), GETs and POSTs with unique ids and bodies derived from them,
#    $FAULT_PCT % client faults (abort mid-upload, abort mid-download, half-close early, garbage after the request) and
#    $FAULT_PCT % destination faults (reset before the response, reset mid-body, cut mid-body), default 5.
#    With FAULT_CLIENT=h2 the clients speak HTTP/2 (h2c with prior knowledge), each a connection with $FAULT_STREAMS
#    streams in flight (default 8), and their faults are a stream reset mid-upload, a stream reset mid-download and a
#    reset of the connection under all of its streams; each mode then runs on each HTTP/2 server of
#    $FAULT_HTTP2_SERVERS (default: llrp kestrel), the requests split over every pair.
#    $FAULT_PROXY_ARGS (default none) are added to every proxy's arguments, e.g. "--pool.pipelineDepth=8".
# 3. Prints each mode's figures (requests, duration, faults injected, outcomes, mismatches, stalls, gauges after the
#    run, the proxy's VmRSS at start, after the warm-up tenth and at the end) into results/faults-<UTC timestamp>/.
# Exits 1 when a mode saw a response reach the wrong request or carry wrong bytes, an exchange stall, a connection
# gauge stay above 0, or the proxy die.
set -euo pipefail

total="${1:-1000000}"
[[ $total =~ ^[1-9][0-9]*$ ]] || { echo "faults.sh: total_requests must be a positive whole number, not '$total'" >&2; exit 2; }
modes="${FAULT_MODES:-raw httpclient httpclient-httpcontext yarp}"
connections="${FAULT_CONNECTIONS:-32}"
fault_pct="${FAULT_PCT:-5}"
client="${FAULT_CLIENT:-h1}"
streams="${FAULT_STREAMS:-8}"
read -r -a proxy_args <<<"${FAULT_PROXY_ARGS:-}"
[[ $client == h1 || $client == h2 ]] || { echo "faults.sh: FAULT_CLIENT is h1 or h2, not '$client'" >&2; exit 2; }
servers="-"
[[ $client == h2 ]] && servers="${FAULT_HTTP2_SERVERS:-llrp kestrel}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
publish="$root/artifacts/faults"
results="$root/results/faults-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$results"

source "$root/scripts/run-common.sh"
install_missing faults.sh curl

publish_release faults.sh "$publish" "$results/build.log" src/LLRP/LLRP.csproj tests/LLRP.FaultRun/LLRP.FaultRun.csproj

set -- $modes
runs=$#
set -- $servers
runs=$((runs * $#))
per_run=$((total / runs))
failed=0
for mode in $modes; do
  for server in $servers; do
    name="$mode"
    proxy_extra=()
    run_extra=()
    if [[ $server != - ]]; then
      name="$mode@$server"
      proxy_extra=(--http2.server="$server")
      run_extra=(--client h2 --streams "$streams")
    fi
    proxy_port="$(free_port)"
    destination_port="$(free_port)"
    admin_port="$(free_port)"
    dotnet "$publish/LLRP/LLRP.dll" --urls="http://127.0.0.1:$proxy_port" --downstream="http://127.0.0.1:$destination_port" \
      --admin.urls="http://127.0.0.1:$admin_port" --mode="$mode" --pool.idleTimeoutMs=2000 "${proxy_extra[@]}" "${proxy_args[@]}" >"$results/proxy-$name.log" 2>&1 &
    proxy_pid=$!
    started_pids+=("$proxy_pid")
    wait_for_admin "$admin_port"
    echo "faults.sh: $name: $per_run requests over $client (proxy pid $proxy_pid, port $proxy_port)" >&2
    started=$SECONDS
    run_status=0
    dotnet "$publish/LLRP.FaultRun/LLRP.FaultRun.dll" --proxy-port "$proxy_port" --destination-port "$destination_port" \
      --admin "http://127.0.0.1:$admin_port" --proxy-pid "$proxy_pid" --requests "$per_run" --connections "$connections" \
      --fault-pct "$fault_pct" "${run_extra[@]}" >"$results/$name.txt" 2>&1 || run_status=$?
    kill -0 "$proxy_pid" 2>/dev/null || { echo "faults.sh: $name: the proxy died, see $results/proxy-$name.log" >&2; run_status=1; }
    kill -TERM "$proxy_pid" 2>/dev/null || true
    wait "$proxy_pid" 2>/dev/null || true
    started_pids=()
    { echo "== $name ($((SECONDS - started)) s, exit $run_status)"; cat "$results/$name.txt"; } | tee -a "$results/summary.txt"
    [[ $run_status == 0 ]] || failed=1
  done
done

exit "$failed"
