#!/usr/bin/env bash
# Verifies a kyc proof (EdDSA JWT) offline: only the JWKS and openssl, no call to the service with the proof.
# usage: deploy/local/verify-proof.sh <proof-jwt> [jwks-url-or-file]
set -euo pipefail
jwt=$1
jwks_source=${2:-http://localhost:8081/.well-known/jwks.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -f "$jwks_source" ]; then cp "$jwks_source" "$work/jwks.json"; else curl -fsS "$jwks_source" > "$work/jwks.json"; fi

python3 - "$jwt" "$work" <<'PY'
import base64, json, sys, time
jwt, work = sys.argv[1], sys.argv[2]
def b64(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))
header_b64, claims_b64, sig_b64 = jwt.split(".")
header, claims = json.loads(b64(header_b64)), json.loads(b64(claims_b64))
keys = [k for k in json.load(open(f"{work}/jwks.json"))["keys"] if k.get("kid") == header.get("kid")]
if header.get("alg") != "EdDSA" or not keys:
    sys.exit(f"no EdDSA key with kid {header.get('kid')} in the JWKS")
spki = bytes.fromhex("302a300506032b6570032100") + b64(keys[0]["x"])
open(f"{work}/pub.der", "wb").write(spki)
open(f"{work}/input", "wb").write(f"{header_b64}.{claims_b64}".encode())
open(f"{work}/sig", "wb").write(b64(sig_b64))
if claims["exp"] < time.time():
    sys.exit("proof expired")
print(json.dumps(claims, indent=2))
PY
openssl pkeyutl -verify -pubin -keyform DER -inkey "$work/pub.der" -rawin -in "$work/input" -sigfile "$work/sig"
