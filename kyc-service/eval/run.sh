#!/usr/bin/env bash
# Runs the live checks' evaluation (kyc-service/src/test/java/ht/platform/kyc/eval) and prints the figures.
# Needs tesseract-ocr; takes a few minutes (one OCR run per photo).
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -B -q test -pl kyc-service -am -Dtest=MrzEvaluation -Dsurefire.failIfNoSpecifiedTests=false -Dkyc.eval=true \
  -DtrimStackTrace=false 2>&1 | grep -v '^\[' || true
