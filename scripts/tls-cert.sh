#!/usr/bin/env bash
# Generates the benchmarks' self-signed TLS certificate with openssl (Debian package; installed when missing and
# running as root) into --dir, once: a run that finds the files there keeps them. Subject CN=localhost, subjectAltName
# DNS:localhost and IP:127.0.0.1, RSA 2048, SHA-256, valid 30 days. Nothing checks it: wrk does not verify, and every
# proxy is told not to verify its origin (HAProxy verify none, nginx's default, tls.downstreamInsecure / downstreamInsecure).
#   DIR/cert.pem      the certificate (nginx's ssl_certificate)
#   DIR/key.pem       its private key, unencrypted (nginx's ssl_certificate_key)
#   DIR/haproxy.pem   certificate and key in one file (HAProxy's crt)
#   DIR/cert.pfx      both as PKCS#12, password llrp-bench (.NET: Kestrel:Certificates:Default:Path/Password, tls.certificatePath/Password)
# With --schemes a,b (crank passes its serverScheme and downstreamScheme) nothing is done unless one of them is https.
#
# usage: scripts/tls-cert.sh --dir DIR [--schemes http,https]
set -euo pipefail

dir=tls
schemes=https
while [[ $# -gt 0 ]]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --schemes) schemes="$2"; shift 2 ;;
    *) echo "tls-cert.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

[[ ",$schemes," == *,https,* ]] || exit 0
mkdir -p "$dir"
if [[ -s $dir/cert.pem && -s $dir/key.pem && -s $dir/haproxy.pem && -s $dir/cert.pfx ]]; then
  exit 0
fi

if ! command -v openssl >/dev/null; then
  [[ $(id -u) -eq 0 ]] || { echo "tls-cert.sh: openssl is not installed (apt-get install openssl)" >&2; exit 127; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssl >/dev/null
fi

openssl req -x509 -newkey rsa:2048 -sha256 -days 30 -nodes -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
  -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
cat "$dir/cert.pem" "$dir/key.pem" > "$dir/haproxy.pem"
openssl pkcs12 -export -in "$dir/cert.pem" -inkey "$dir/key.pem" -out "$dir/cert.pfx" -passout pass:llrp-bench
echo "tls-cert.sh: self-signed certificate for localhost and 127.0.0.1 in $dir"
