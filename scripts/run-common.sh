# Helpers the long-running scripts (faults.sh, connection-limit.sh, soak.sh) share; sourced, not run.

# started_pids: the background processes a script starts (started_pids+=($!)); sourcing this file makes the script send
# each of them SIGTERM and wait for them when it exits, however it exits.
started_pids=()
stop_started() {
  local pid
  for pid in "${started_pids[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap stop_started EXIT

# install_missing SCRIPT TOOL...: installs with apt-get the tools that are not on PATH (their Debian packages have the
# same names).
install_missing() {
  local script="$1" tool missing=()
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  ((${#missing[@]} == 0)) && return
  echo "$script: installing ${missing[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# free_port: a port below Linux's ephemeral range (32768 and up by default), so no outgoing connection can be holding
# it, that no socket uses.
free_port() {
  local port
  while true; do
    port=$((20000 + RANDOM % 12000))
    ss -Htan "sport = :$port" | grep -q . || { echo "$port"; return; }
  done
}

# wait_for_admin PORT: waits, at most 10 s, until the proxy's admin listener on 127.0.0.1:PORT answers /metrics.
wait_for_admin() {
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:$1/metrics" 2>/dev/null && return
    sleep 0.1
  done
}

# publish_release SCRIPT DIR LOG PROJECT...: publishes each project in Release into DIR/<its name>, the build output
# appended to LOG; exits 1 naming LOG when one fails.
publish_release() {
  local script="$1" dir="$2" log="$3" project name
  shift 3
  for project in "$@"; do
    name="$(basename "$project" .csproj)"
    echo "$script: publishing $name into $dir/$name" >&2
    dotnet publish "$project" -c Release -o "$dir/$name" --nologo -v q >>"$log" 2>&1 \
      || { echo "$script: publish failed, see $log" >&2; exit 1; }
  done
}
