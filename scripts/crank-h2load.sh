#!/usr/bin/env bash
# crank load job for the HTTP/2 scenarios: runs h2load (Debian's nghttp2-client) against a URL — h2c with prior
# knowledge over http, ALPN h2 over https — a warm-up run first, then the measured run with -D and a per-request log
# (--log-file), prints h2load's report, and ends with crank's console statistics block (#StartJobStatistics / JSON /
# #EndJobStatistics): h2load/rps/mean, h2load/requests, h2load/latency/{mean,50,75,90,99,max} (ms, from the log: h2load
# prints no percentiles), h2load/errors/badresponses (3xx, 4xx, 5xx) and h2load/errors/socketerrors (errored + timeout).
#
# --grpc true: gRPC unary calls of the bundled origin's Echo service (the URL's path /llrp.echo.Echo/Unary): h2load POSTs
# one gRPC-framed request (a 0 byte, the message's length as 4 big-endian bytes, then EchoMessage{text: "hello, llrp"}
# encoded by protoc from src/LLRP.Downstream/Grpc/echo.proto) with content-type: application/grpc and te: trailers. h2load
# sees only :status, so one call is made first with curl, whose trailers must say grpc-status: 0 and whose answer must
# echo the text; the job fails otherwise.
#
# usage: scripts/crank-h2load.sh --url URL [--connections 32] [--streams 10] [--threads 1] [--duration 15]
#                                [--warmup 15] [--body-bytes N] [--grpc true|false]
set -euo pipefail

url=""
connections=32
streams=10
threads=1
duration=15
warmup=15
body=0
grpc=false
while [[ $# -gt 0 ]]; do
  case "$1" in
    --url) url="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --streams) streams="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --body-bytes) body="$2"; shift 2 ;;
    --grpc) grpc="$2"; shift 2 ;;
    *) echo "crank-h2load.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -n $url ]] || { echo "crank-h2load.sh: --url is required" >&2; exit 2; }

if ! command -v h2load >/dev/null; then
  [[ $(id -u) -eq 0 ]] || { echo "crank-h2load.sh: h2load is not installed (apt-get install nghttp2-client)" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nghttp2-client >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
args=(-c "$connections" -m "$streams" -t "$threads")
if [[ $grpc == true ]]; then
  protoc="$(command -v protoc || compgen -G "$HOME/.nuget/packages/grpc.tools/*/tools/linux_x64/protoc" | tail -n 1 || true)"
  if [[ -z $protoc ]]; then
    [[ $(id -u) -eq 0 ]] || { echo "crank-h2load.sh: protoc is not installed (apt-get install protobuf-compiler)" >&2; exit 1; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler >/dev/null
    protoc=protoc
  fi
  text="hello, llrp"
  printf 'text: "%s"' "$text" | "$protoc" --proto_path="$(dirname "$0")/../src/LLRP.Downstream/Grpc" --encode=llrp.echo.EchoMessage echo.proto > "$work/message"
  length=$(stat -c %s "$work/message")
  { printf '\x00'; printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((length >> 24 & 255)) $((length >> 16 & 255)) $((length >> 8 & 255)) $((length & 255)))"; cat "$work/message"; } > "$work/body"
  args+=(-d "$work/body" -H "content-type: application/grpc" -H "te: trailers")
  curl -sS --http2-prior-knowledge --max-time 10 --data-binary "@$work/body" -H "content-type: application/grpc" -H "te: trailers" \
    -D "$work/check-head" -o "$work/check-body" "$url"
  if ! grep -qi '^grpc-status: 0' "$work/check-head" || ! grep -qF "$text" "$work/check-body"; then
    echo "crank-h2load.sh: the gRPC check call to $url did not answer grpc-status 0 with the echoed text:" >&2
    cat "$work/check-head" >&2
    exit 1
  fi
  echo "> gRPC check call: grpc-status 0, '$text' echoed"
elif [[ $body -gt 0 ]]; then
  head -c "$body" /dev/zero | tr '\0' x > "$work/body"
  args+=(-d "$work/body" -H "content-type: application/octet-stream")
fi

if [[ $warmup -gt 0 ]]; then
  echo "> h2load -D $warmup ${args[*]} $url"
  h2load -D "$warmup" "${args[@]}" "$url" >/dev/null
fi
echo "> h2load -D $duration ${args[*]} --log-file=… $url"
output="$(h2load -D "$duration" "${args[@]}" "--log-file=$work/log" "$url")"
echo "$output"

# "name value" lines: counts and rate from the report, latencies (ms) from the log's third column (µs), nearest rank.
read_report() {
  awk '
    /^finished in / { rate = $4; sub(/,$/, "", rate); print "h2load/rps/mean", rate + 0 }
    /^requests: / { gsub(/,/, ""); print "h2load/requests", $6; print "h2load/errors/socketerrors", $12 + $14 }
    /^status codes: / { gsub(/,/, ""); print "h2load/errors/badresponses", $5 + $7 + $9 }
  ' <<<"$output"
  cut -f3 "$work/log" | sort -n | awk '
    { v[NR] = $1; sum += $1 }
    function rank(p,   i) { i = int(p * NR); if (i < p * NR) i++; if (i < 1) i = 1; return v[i] / 1000 }
    END {
      if (NR == 0) exit
      printf "h2load/latency/mean %.3f\nh2load/latency/max %.3f\n", sum / NR / 1000, v[NR] / 1000
      printf "h2load/latency/50 %.3f\nh2load/latency/75 %.3f\nh2load/latency/90 %.3f\nh2load/latency/99 %.3f\n", rank(0.50), rank(0.75), rank(0.90), rank(0.99)
    }'
}

metadata() { # name aggregate reduce short-description format
  printf '{"Source":"h2load","Name":"%s","Aggregate":"%s","Reduce":"%s","ShortDescription":"%s","LongDescription":"%s","Format":"%s"}' "$1" "$2" "$3" "$4" "$4" "$5"
}

timestamp="$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)"
measurements="$(read_report | awk -v t="$timestamp" '{ printf "%s{\"Timestamp\":\"%s\",\"Name\":\"%s\",\"Value\":%s}", (NR > 1 ? "," : ""), t, $1, $2 }')"
echo "#StartJobStatistics"
printf '{"Metadata":[%s,%s,%s,%s,%s,%s,%s,%s,%s,%s],"Measurements":[%s]}\n' \
  "$(metadata h2load/rps/mean Max Sum 'Requests/sec' n0)" \
  "$(metadata h2load/requests Max Sum 'Requests' n0)" \
  "$(metadata h2load/latency/mean Max Avg 'Mean latency (ms)' n2)" \
  "$(metadata h2load/latency/50 Max Max 'Latency 50th (ms)' n2)" \
  "$(metadata h2load/latency/75 Max Max 'Latency 75th (ms)' n2)" \
  "$(metadata h2load/latency/90 Max Max 'Latency 90th (ms)' n2)" \
  "$(metadata h2load/latency/99 Max Max 'Latency 99th (ms)' n2)" \
  "$(metadata h2load/latency/max Max Max 'Max latency (ms)' n2)" \
  "$(metadata h2load/errors/badresponses Max Sum 'Bad responses (3xx, 4xx, 5xx)' n0)" \
  "$(metadata h2load/errors/socketerrors Max Sum 'Errored and timed-out requests' n0)" \
  "$measurements"
echo "#EndJobStatistics"
