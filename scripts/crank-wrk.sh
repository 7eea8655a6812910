#!/usr/bin/env bash
# crank load job: runs wrk (Debian package) against a URL, a warm-up run first, then the measured run with
# --latency and scripts/wrk/status.lua (GET) or post.lua (POST, --body-bytes N), prints wrk's report, and
# ends with crank's console statistics block (#StartJobStatistics / JSON / #EndJobStatistics) carrying
# the measurements of crank's own wrk job: wrk/rps/mean, wrk/requests, wrk/latency/{mean,50,75,90,99,max}
# (ms), wrk/errors/badresponses (non-2xx), wrk/errors/socketerrors and wrk/throughput (MB/s).
#
# usage: scripts/crank-wrk.sh --url URL [--connections 256] [--threads 1] [--duration 15] [--warmup 15]
#                             [--timeout 10] [--body-bytes N]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
url=""
connections=256
threads=1
duration=15
warmup=15
timeout=10
body=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --url) url="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --body-bytes) body="$2"; shift 2 ;;
    *) echo "crank-wrk.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -n $url ]] || { echo "crank-wrk.sh: --url is required" >&2; exit 2; }

if ! command -v wrk >/dev/null; then
  [[ $(id -u) -eq 0 ]] || { echo "crank-wrk.sh: wrk is not installed" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

args=(-t "$threads" -c "$connections" --timeout "${timeout}s" --latency)
if [[ $body -gt 0 ]]; then
  args+=(-s "$here/wrk/post.lua" "$url" -- "$body")
else
  args+=(-s "$here/wrk/status.lua" "$url")
fi

if [[ $warmup -gt 0 ]]; then
  echo "> wrk -d ${warmup}s ${args[*]}"
  wrk -d "${warmup}s" "${args[@]}" >/dev/null
fi
echo "> wrk -d ${duration}s ${args[*]}"
output="$(wrk -d "${duration}s" "${args[@]}")"
echo "$output"

# Reads wrk's report into "name value" lines, times in ms (wrk prints us, ms, s, m or h).
read_report() {
  awk '
    function ms(text,   number, unit) {
      number = text + 0; unit = text; sub(/^[0-9.]+/, "", unit)
      if (unit == "us") return number / 1000
      if (unit == "ms") return number
      if (unit == "s") return number * 1000
      if (unit == "m") return number * 60000
      if (unit == "h") return number * 3600000
      return -1
    }
    function mb(text,   number, unit) {
      number = text + 0; unit = text; sub(/^[0-9.]+/, "", unit)
      if (unit == "B") return number / 1048576
      if (unit == "KB") return number / 1024
      if (unit == "MB") return number
      if (unit == "GB") return number * 1024
      return -1
    }
    /^[ \t]+Latency[ \t]+[0-9]/ { printf "wrk/latency/mean %.3f\nwrk/latency/max %.3f\n", ms($2), ms($4) }
    /^[ \t]+(50|75|90|99)%/ { label = $1; sub(/%/, "", label); printf "wrk/latency/%s %.3f\n", label, ms($2) }
    / requests in / { print "wrk/requests", $1 }
    /^Requests\/sec:/ { print "wrk/rps/mean", $2 }
    /^Transfer\/sec:/ { print "wrk/throughput", mb($2) }
    /^Non-2xx responses:/ { scripted = $3 }
    /Non-2xx or 3xx responses:/ { builtin = $NF }
    /Socket errors:/ { gsub(/,/, ""); print "wrk/errors/socketerrors", $4 + $6 + $8 + $10; socket = 1 }
    END {
      print "wrk/errors/badresponses", (scripted != "" ? scripted : (builtin != "" ? builtin : 0))
      if (!socket) print "wrk/errors/socketerrors", 0
    }'
}

metadata() { # name aggregate reduce short-description format
  printf '{"Source":"wrk","Name":"%s","Aggregate":"%s","Reduce":"%s","ShortDescription":"%s","LongDescription":"%s","Format":"%s"}' "$1" "$2" "$3" "$4" "$4" "$5"
}

timestamp="$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)"
measurements="$(read_report <<<"$output" | awk -v t="$timestamp" '{ printf "%s{\"Timestamp\":\"%s\",\"Name\":\"%s\",\"Value\":%s}", (NR > 1 ? "," : ""), t, $1, $2 }')"
echo "#StartJobStatistics"
printf '{"Metadata":[%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s],"Measurements":[%s]}\n' \
  "$(metadata wrk/rps/mean Max Sum 'Requests/sec' n0)" \
  "$(metadata wrk/requests Max Sum 'Requests' n0)" \
  "$(metadata wrk/latency/mean Max Avg 'Mean latency (ms)' n2)" \
  "$(metadata wrk/latency/50 Max Max 'Latency 50th (ms)' n2)" \
  "$(metadata wrk/latency/75 Max Max 'Latency 75th (ms)' n2)" \
  "$(metadata wrk/latency/90 Max Max 'Latency 90th (ms)' n2)" \
  "$(metadata wrk/latency/99 Max Max 'Latency 99th (ms)' n2)" \
  "$(metadata wrk/latency/max Max Max 'Max latency (ms)' n2)" \
  "$(metadata wrk/errors/badresponses Max Sum 'Bad responses (non-2xx)' n0)" \
  "$(metadata wrk/errors/socketerrors Max Sum 'Socket errors' n0)" \
  "$(metadata wrk/throughput Max Sum 'Read throughput (MB/s)' n2)" \
  "$measurements"
echo "#EndJobStatistics"
