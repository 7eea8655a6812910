#!/usr/bin/env bash
# NativeAOT publish of LLRP (raw mode is what it is measured in; the YARP and HttpClient modes stay JIT-only), beside the
# normal JIT build: bash scripts/publish-aot.sh [output folder, default artifacts/publish/LLRP-aot]
# PublishAot is given here only, never in the project, so the normal build and its TreatWarningsAsErrors are untouched;
# trimming and AOT analysis warnings are reported, not errors (the publish log is kept beside the output as publish.log).
# Needs the runtime pack's ILCompiler packages (runtime.linux-x64.Microsoft.DotNet.ILCompiler, the SDK picks its version)
# and clang or gcc with the platform linker (the SDK's prerequisites for NativeAOT on Linux).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${1:-artifacts/publish/LLRP-aot}"
rid="linux-$(uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')"
mkdir -p "$out"
echo "publish-aot.sh: publishing LLRP for $rid with PublishAot=true into $out" >&2
if ! dotnet publish src/LLRP/LLRP.csproj -c Release -r "$rid" -p:PublishAot=true -p:TreatWarningsAsErrors=false \
    -o "$out" --nologo >"$out.publish.log" 2>&1; then
  grep -E "error" "$out.publish.log" | sort -u | head -20 >&2
  echo "publish-aot.sh: NativeAOT publish failed, see $out.publish.log" >&2
  rm -rf "$out"
  exit 1
fi
warnings=$(grep -cE "warning (IL|AOT)[0-9]+" "$out.publish.log" || true)
echo "publish-aot.sh: $out/LLRP ($(du -m "$out/LLRP" | cut -f1) MB), $warnings trimming/AOT warning(s), see $out.publish.log" >&2
