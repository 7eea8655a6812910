#!/usr/bin/env bash
# Coverage-guided fuzzing of the HTTP/1.1 parsers, the HPACK decoder and whole connections of LLRP's own HTTP/2 server
# with AFL++ and SharpFuzz. From anywhere:
#   bash scripts/fuzz.sh [minutes]              (default 5, per target)
# 1. Installs afl++ with apt-get and the SharpFuzz command-line tool (SharpFuzz.CommandLine, a dotnet tool, into
#    artifacts/fuzz/tools) when missing.
# 2. Publishes tests/LLRP.Fuzz in Release into artifacts/fuzz/bin and checks that every seed of
#    tests/LLRP.Fuzz/Corpus/<target> passes (LLRP.Fuzz <target> --replay).
# 3. Instruments the LLRP.Http1 and LLRP.Http2 namespaces of the published LLRP.dll in place (sharpfuzz LLRP.dll
#    LLRP.Http, a prefix of both): AFL++ then sees which branches of the parsers an input takes. Instrumented code runs only under afl-fuzz.
# 4. Runs afl-fuzz for each target in turn (request-head, response-head, chunked, hpack, h2-connection; $FUZZ_TARGETS to choose), for the
#    given minutes each, from its seed corpus, into results/fuzz-<UTC timestamp>/<target>. The targets run the input
#    whole and in segments and compare; see tests/LLRP.Fuzz/Program.cs.
# 5. Prints, per target, executions, executions per second, corpus size (paths found), crashes and hangs, from
#    afl-fuzz's fuzzer_stats, into summary.txt beside the findings.
# Exits 1 when any target saved a crash or a hang: reproduce one (or all of a folder) without instrumentation with
#   dotnet run --project tests/LLRP.Fuzz -- <target> --replay results/fuzz-<timestamp>/<target>/default/crashes
# and turn it into a unit test in tests/LLRP.Tests/Http1 (tests/LLRP.Tests/Http2 for hpack and h2-connection).
set -euo pipefail

minutes="${1:-5}"
[[ $minutes =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: minutes must be a positive whole number, not '$minutes'" >&2; exit 2; }
targets="${FUZZ_TARGETS:-request-head response-head chunked hpack h2-connection}"
hang_ms="${FUZZ_HANG_MS:-2000}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools="$root/artifacts/fuzz/tools"
bin="$root/artifacts/fuzz/bin"
results="$root/results/fuzz-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$results"

if ! command -v afl-fuzz >/dev/null; then
  echo "fuzz.sh: installing afl++" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends afl++ >/dev/null
fi

sharpfuzz="$(command -v sharpfuzz || true)"
if [[ -z $sharpfuzz ]]; then
  sharpfuzz="$tools/sharpfuzz"
  if [[ ! -x $sharpfuzz ]]; then
    echo "fuzz.sh: installing the SharpFuzz command-line tool into $tools" >&2
    dotnet tool install SharpFuzz.CommandLine --version 2.3.0 --tool-path "$tools" >>"$results/build.log" 2>&1 \
      || { echo "fuzz.sh: installing SharpFuzz.CommandLine failed, see $results/build.log" >&2; exit 1; }
  fi
fi

echo "fuzz.sh: publishing tests/LLRP.Fuzz into $bin" >&2
rm -rf "$bin"
dotnet publish tests/LLRP.Fuzz/LLRP.Fuzz.csproj -c Release -o "$bin" --nologo -v q >>"$results/build.log" 2>&1 \
  || { echo "fuzz.sh: publish failed, see $results/build.log" >&2; exit 1; }
for target in $targets; do
  dotnet "$bin/LLRP.Fuzz.dll" "$target" --replay "tests/LLRP.Fuzz/Corpus/$target" >/dev/null \
    || { echo "fuzz.sh: a seed of $target fails before fuzzing" >&2; exit 1; }
done

echo "fuzz.sh: instrumenting LLRP.Http1 and LLRP.Http2 in $bin/LLRP.dll" >&2
"$sharpfuzz" "$bin/LLRP.dll" LLRP.Http >>"$results/build.log" 2>&1 \
  || { echo "fuzz.sh: instrumentation failed, see $results/build.log" >&2; exit 1; }

# The target is a managed program: afl-fuzz cannot see instrumentation in the dotnet host (AFL_SKIP_BIN_CHECK), and
# the machine's core_pattern and CPU governor are not this script's to change.
export AFL_SKIP_BIN_CHECK=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1
failed=0
printf "%-14s %12s %10s %8s %8s %6s\n" target executions execs/s corpus crashes hangs | tee "$results/summary.txt"
for target in $targets; do
  echo "fuzz.sh: fuzzing $target for $minutes min into $results/$target" >&2
  afl-fuzz -V "$((minutes * 60))" -t "$hang_ms" -m none -i "tests/LLRP.Fuzz/Corpus/$target" -o "$results/$target" \
    -- dotnet "$bin/LLRP.Fuzz.dll" "$target" >"$results/$target.log" 2>&1 \
    || { echo "fuzz.sh: afl-fuzz failed on $target, see $results/$target.log" >&2; failed=1; continue; }
  stats="$results/$target/default/fuzzer_stats"
  stat() { awk -F' *: *' -v key="$1" '$1 == key { print $2 }' "$stats"; }
  printf "%-14s %12s %10s %8s %8s %6s\n" "$target" "$(stat execs_done)" "$(stat execs_per_sec)" "$(stat corpus_count)" \
    "$(stat saved_crashes)" "$(stat saved_hangs)" | tee -a "$results/summary.txt"
  if [[ $(stat saved_crashes) != 0 || $(stat saved_hangs) != 0 ]]; then
    failed=1
  fi
done

exit "$failed"
