#!/usr/bin/env bash
# LLRP's local side-by-side benchmark, one command from the repository root:
#   bash scripts/bench.sh [--quick] [--rounds N] [--duration S] [--only name,name] [--unpinned] [--baseline-ref REF]
#                         [--origin nginx|bundled] [--idle-connections N] [--no-idle] ...
# Installs wrk, haproxy, nginx, curl, openssl (the https shapes' certificate), h2load (nghttp2-client, the HTTP/2
# shapes) and strace (the system calls per request) with apt-get when missing,
# publishes LLRP, the bundled origin, the baselines (src/Baselines/*) and the runner in Release into
# artifacts/publish/<project>, raises the open-file limit (the runner holds the idle connections and the contenders
# inherit it), then runs src/LLRP.Bench, which
# writes results/<UTC timestamp>/{results.md,results.json,crank/,chart.svg}. The shapes go to an nginx origin
# (scripts/nginx-origin.sh) when nginx is installed, the 1 GiB bodies and the WebSocket echo to the bundled origin.
# `bash scripts/bench.sh --help` lists every option.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
results="$root/results/$(date -u +%Y%m%dT%H%M%SZ)"
pinned=1
baseline_ref=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    --unpinned) pinned=0 ;;
    --baseline-ref) baseline_ref="${args[i + 1]:-}" ;;
    --help|-h) exec dotnet run --project src/LLRP.Bench -c Release -v q -- --help ;;
  esac
done
mkdir -p "$results"

# Kills every process group the runner started, even if the runner itself died.
cleanup() {
  local pidfile="$results/children.pids"
  [[ -f $pidfile ]] || return 0
  while read -r group; do
    kill -TERM -- "-$group" 2>/dev/null || true
  done < "$pidfile"
  sleep 0.5
  while read -r group; do
    kill -KILL -- "-$group" 2>/dev/null || true
  done < "$pidfile"
}
trap cleanup EXIT

install_tools() {
  local missing=()
  for tool in wrk haproxy nginx curl openssl; do
    PATH="$PATH:/usr/sbin" command -v "$tool" >/dev/null || missing+=("$tool")
  done
  command -v h2load >/dev/null || missing+=(nghttp2-client)
  command -v strace >/dev/null || missing+=(strace)
  [[ ${#missing[@]} -eq 0 ]] && return 0
  if [[ $(id -u) -ne 0 ]]; then
    echo "bench.sh: missing ${missing[*]}; install them (apt-get install ${missing[*]}) or run as root" >&2
    return 0
  fi
  echo "bench.sh: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Publishes a project into artifacts/publish/<name>; on failure removes that folder, so no stale build is
# measured (the runner reports its contenders as missing).
publish() {
  local project="$1" name
  name="$(basename "$project" .csproj)"
  echo "bench.sh: publishing $name" >&2
  if ! dotnet publish "$project" -c Release -o "artifacts/publish/$name" --nologo -v q >>"$results/build.log" 2>&1; then
    rm -rf "artifacts/publish/$name"
    echo "bench.sh: build of $project failed (its contenders will be reported missing), see $results/build.log" >&2
    return 1
  fi
}

install_tools
command -v wrk >/dev/null || { echo "bench.sh: wrk is required" >&2; exit 1; }
command -v curl >/dev/null || { echo "bench.sh: curl is required" >&2; exit 1; }

for project in src/LLRP.Downstream/LLRP.Downstream.csproj src/LLRP.Bench/LLRP.Bench.csproj; do
  publish "$project" || { grep -E 'error' "$results/build.log" | sort -u | head -20 >&2; exit 1; }
done
for project in src/LLRP/LLRP.csproj src/Baselines/*/*.csproj; do
  [[ -f $project ]] || continue
  publish "$project" || { grep -E "error" "$results/build.log" | sort -u | head -5 >&2 || true; }
done

# A contender built with NativeAOT (llrp-raw-pooled-aot) named in --only: scripts/publish-aot.sh, a long build, only then.
if [[ " $* " == *-aot[,\ ]* ]]; then
  bash scripts/publish-aot.sh artifacts/publish/LLRP-aot || echo "bench.sh: NativeAOT build failed (its contenders will be reported missing)" >&2
fi

# --baseline-ref REF: LLRP as it was at REF, checked out into a worktree and published as LLRP@REF.
if [[ -n $baseline_ref ]]; then
  worktree="$root/artifacts/ref/$baseline_ref"
  rm -rf "$worktree"
  git worktree prune
  git worktree add --force --detach "$worktree" "$baseline_ref" >>"$results/build.log" 2>&1
  echo "bench.sh: publishing LLRP at $baseline_ref" >&2
  if ! dotnet publish "$worktree/src/LLRP/LLRP.csproj" -c Release -o "artifacts/publish/LLRP@$baseline_ref" --nologo -v q >>"$results/build.log" 2>&1; then
    rm -rf "artifacts/publish/LLRP@$baseline_ref"
    echo "bench.sh: build of LLRP at $baseline_ref failed (its contenders will be reported missing)" >&2
  fi
  git worktree remove --force "$worktree"
fi

# Thousands of idle connections, held by the runner and, once more upstream, by a proxy: 65536 open files, or as
# many as the hard limit allows.
ulimit -n 65536 2>/dev/null || ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true

runner=(dotnet artifacts/publish/LLRP.Bench/LLRP.Bench.dll --repo "$root" --results "$results" "$@")
if [[ $pinned -eq 1 ]]; then
  runner=(taskset -c 1 "${runner[@]}")
fi
"${runner[@]}"
