#!/usr/bin/env bash
# Soak test: does the proxy's memory stay flat under sustained load? From anywhere:
#   bash scripts/soak.sh [duration_s]            (default 600)
# 1. Publishes LLRP and the bundled origin in Release into $SOAK_PUBLISH (default artifacts/publish), or reuses
#    what is there (SOAK_REBUILD=1 publishes anyway). Installs wrk and curl with apt-get when missing.
# 2. Starts the origin and the proxy (raw mode; $SOAK_PROXY_ARGS, default --upstreamConnections=pooled) on free
#    loopback ports, and warms up for $SOAK_WARMUP_S seconds (default 15) with every load of the run.
# 3. For duration_s runs two wrk loads at once: GET /?s=1024 (32 connections) and a 1 KiB POST to /sink
#    (16 connections), and samples the proxy's VmRSS (/proc/<pid>/status) and handle count (entries of
#    /proc/<pid>/fd) every 5 s into results/soak-<UTC timestamp>/rss.csv, beside the wrk reports and the two
#    processes' logs.
#    With SOAK_HTTP2=1 a third load runs beside them: h2load (Debian nghttp2-client) over h2c, GET /?s=1024 on
#    16 connections with 10 streams each, against LLRP's own HTTP/2 server (--http2.server=llrp added to the proxy's
#    arguments); its failed, errored or non-2xx requests count as errors.
# 4. Prints min/max/first/last RSS and handle count and the least-squares slope of each (per minute).
# Exits 1 when the proxy died, a load saw errors or non-2xx responses, or the last RSS or the last handle count is
# not within ±SOAK_FLAT_PCT % (default 5) of the first sample after warm-up. After warm-up the GC heap, the buffer
# pools and the connection pools should have reached their working size; drift beyond the margin over the run is a
# leak suspect. Use a duration of several minutes for a meaningful slope.
set -euo pipefail

duration="${1:-600}"
((duration >= 3 * 5)) || { echo "soak.sh: duration_s must be at least 15" >&2; exit 2; }
warmup="${SOAK_WARMUP_S:-15}"
interval=5
flat_pct="${SOAK_FLAT_PCT:-5}"
proxy_args="${SOAK_PROXY_ARGS:---upstreamConnections=pooled}"
http2="${SOAK_HTTP2:-0}"
[[ $http2 == 1 ]] && proxy_args="$proxy_args --http2.server=llrp"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
publish_dir="${SOAK_PUBLISH:-$root/artifacts/publish}"
results="$root/results/soak-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$results"

source "$root/scripts/run-common.sh"
install_missing soak.sh wrk curl
if [[ $http2 == 1 ]] && ! command -v h2load >/dev/null; then
  echo "soak.sh: installing nghttp2-client" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nghttp2-client >/dev/null
fi

for name in LLRP LLRP.Downstream; do
  if [[ ${SOAK_REBUILD:-0} == 1 || ! -f $publish_dir/$name/$name.dll ]]; then
    echo "soak.sh: publishing $name into $publish_dir/$name" >&2
    dotnet publish "src/$name/$name.csproj" -c Release -o "$publish_dir/$name" --nologo -v q >>"$results/build.log" 2>&1 \
      || { echo "soak.sh: publish failed, see $results/build.log" >&2; exit 1; }
  fi
done

wait_for() {
  local url="$1"
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "soak.sh: $url did not answer" >&2
  exit 1
}

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
fd_count() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }

origin_port="$(free_port)"
proxy_port="$(free_port)"
dotnet "$publish_dir/LLRP.Downstream/LLRP.Downstream.dll" --urls="http://127.0.0.1:$origin_port" >"$results/origin.log" 2>&1 &
started_pids+=($!)
# shellcheck disable=SC2086 # SOAK_PROXY_ARGS is a list of arguments.
dotnet "$publish_dir/LLRP/LLRP.dll" --urls="http://127.0.0.1:$proxy_port" --downstream="http://127.0.0.1:$origin_port" $proxy_args \
  >"$results/proxy.log" 2>&1 &
proxy_pid=$!
started_pids+=("$proxy_pid")
wait_for "http://127.0.0.1:$origin_port/?s=1"
wait_for "http://127.0.0.1:$proxy_port/?s=1"

base="http://127.0.0.1:$proxy_port"
echo "soak.sh: warming up for ${warmup}s (proxy pid $proxy_pid, port $proxy_port; origin port $origin_port)" >&2
# Every load of the run warms up, so the pools and the heap reach the working size of all of them before the first sample.
wrk -t1 -c32 -d"${warmup}s" "$base/?s=1024" >"$results/warmup.txt" &
warm_pids=($!)
wrk -t1 -c16 -d"${warmup}s" -s scripts/wrk/post.lua "$base/sink" -- 1024 >"$results/warmup-post.txt" 2>&1 &
warm_pids+=($!)
if [[ $http2 == 1 ]]; then
  h2load -c16 -m10 -D "$warmup" "$base/?s=1024" >"$results/warmup-h2load.txt" 2>&1 &
  warm_pids+=($!)
fi
started_pids+=("${warm_pids[@]}")
wait "${warm_pids[@]}"

echo "seconds,rss_kib,fds" >"$results/rss.csv"
echo "soak.sh: running for ${duration}s, results in $results" >&2
wrk -t1 -c32 -d"${duration}s" -s scripts/wrk/status.lua "$base/?s=1024" >"$results/wrk-get.txt" 2>&1 &
get_pid=$!
wrk -t1 -c16 -d"${duration}s" -s scripts/wrk/post.lua "$base/sink" -- 1024 >"$results/wrk-post.txt" 2>&1 &
post_pid=$!
started_pids+=("$get_pid" "$post_pid")
h2_pid=""
if [[ $http2 == 1 ]]; then
  h2load -c16 -m10 -D "$duration" "$base/?s=1024" >"$results/h2load.txt" 2>&1 &
  h2_pid=$!
  started_pids+=("$h2_pid")
fi
# Samples are taken while both loads hold their connections open: from one interval after the start to one interval
# before the end, so that neither the loads' connecting nor their closing shows in the handle count.
start=$SECONDS
sleep "$interval"
while ((SECONDS - start <= duration - interval)); do
  kill -0 "$proxy_pid" 2>/dev/null || { echo "soak.sh: the proxy died, see $results/proxy.log" >&2; exit 1; }
  echo "$((SECONDS - start)),$(rss_kib "$proxy_pid"),$(fd_count "$proxy_pid")" >>"$results/rss.csv"
  sleep "$interval"
done
wait "$get_pid" "$post_pid" $h2_pid
kill -0 "$proxy_pid" 2>/dev/null || { echo "soak.sh: the proxy died, see $results/proxy.log" >&2; exit 1; }

failed=0
for report in wrk-get wrk-post; do
  echo "$report: $(grep -E 'Requests/sec' "$results/$report.txt" | tr -s ' ')" \
    "$(grep -E 'Non-2xx responses' "$results/$report.txt")" "$(grep -E 'Socket errors' "$results/$report.txt" || true)"
  if grep -qE 'Socket errors' "$results/$report.txt" || ! grep -qE '^Non-2xx responses: 0$' "$results/$report.txt"; then
    echo "soak.sh: $report saw errors or non-2xx responses" >&2
    failed=1
  fi
done

if [[ $http2 == 1 ]]; then
  # h2load: "requests: N total, N started, N done, N succeeded, N failed, N errored, N timeout" and "status codes: N 2xx, ...".
  echo "h2load: $(grep -E '^finished in' "$results/h2load.txt")" "$(grep -E '^requests:' "$results/h2load.txt")" \
    "$(grep -E '^status codes:' "$results/h2load.txt")"
  if ! awk '/^requests:/ { done = $6; ok = ($10 == 0 && $12 == 0 && $14 == 0) }
            /^status codes:/ { twoxx = $3 }
            END { exit !(ok && done > 0 && twoxx == done) }' "$results/h2load.txt"; then
    echo "soak.sh: h2load saw failed, errored, timed-out or non-2xx requests" >&2
    failed=1
  fi
fi

awk -F, -v pct="$flat_pct" '
  function slope(col,    i, st, sv, mt, mv, cov, var) {
    for (i = 0; i < n; i++) { st += t[i]; sv += v[col, i] }
    mt = st / n; mv = sv / n
    for (i = 0; i < n; i++) { cov += (t[i] - mt) * (v[col, i] - mv); var += (t[i] - mt) ^ 2 }
    return var > 0 ? cov / var * 60 : 0
  }
  function report(col, name, unit, scale,    i, min, max, first, last, margin) {
    min = max = v[col, 0]
    for (i = 1; i < n; i++) { if (v[col, i] < min) min = v[col, i]; if (v[col, i] > max) max = v[col, i] }
    first = v[col, 0]; last = v[col, n - 1]
    margin = first * pct / 100
    printf "%s over %d samples: min %.1f, max %.1f, first (after warm-up) %.1f, last %.1f %s (%+.2f%%); slope %+.3f %s/min\n",
      name, n, min / scale, max / scale, first / scale, last / scale, unit, (last - first) * 100 / first, slope(col) / scale, unit
    if (last > first + margin || last < first - margin) {
      printf "soak.sh: %s is not flat: last %.1f outside first ±%s%% (%.1f..%.1f %s)\n",
        name, last / scale, pct, (first - margin) / scale, (first + margin) / scale, unit
      bad = 1
    }
  }
  BEGIN { n = 0; bad = 0 }
  NR == 1 { next }
  { t[n] = $1; v[2, n] = $2; v[3, n] = $3; n++ }
  END {
    report(2, "RSS", "MiB", 1024)
    report(3, "handles", "fds", 1)
    exit bad
  }' "$results/rss.csv" | tee "$results/summary.txt" || failed=1

exit "$failed"
