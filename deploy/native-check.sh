#!/usr/bin/env bash
# What can be checked about native builds on a machine without GraalVM/Mandrel or Docker:
# runs the Quarkus native build steps with quarkus.native.sources-only=true (every build step up to,
# but not including, the native-image call), in a scratch copy of the module so that the module's own
# target/ is untouched, then lists the records of the service and of the service-support modules that are NOT in the
# generated reflection configuration. A record that Jackson serializes (a Response entity, a body
# written with ObjectMapper.writeValueAsString) and is listed here needs @RegisterForReflection, or the
# native executable will answer with empty/failed JSON. Internal records (never serialized) may be listed
# harmlessly.
#
# Usage: deploy/native-check.sh <service>     (needs the parent, the service-support modules and shared-webhook-signing
#                                             installed in ~/.m2: ./mvnw -B install -DskipTests)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
svc="${1:?usage: $0 <kyc-service|checkout-service|wallet-gateway>}"

# A static Random/SecureRandom created at class initialization is seeded at image build time and frozen into the
# image (native-image refuses it, or worse, every process shares the seed): only Randomness.Holder, initialized at
# run time, may hold one.
eager=$(grep -rlE 'static[[:space:]]+(final[[:space:]]+)?(java\.security\.)?(Secure)?Random[[:space:]]+[A-Za-z_]+[[:space:]]*=' \
          "$ROOT"/service-support*/src/main/java "$ROOT/$svc/src/main/java" | grep -v '/Randomness\.java$' || true)
if [ -n "$eager" ]; then
  echo "static Random/SecureRandom fields (use ht.platform.support.crypto.Randomness.secure()):"; echo "$eager"; exit 1
fi
grep -q -- '--initialize-at-run-time=ht.platform.support.crypto.Randomness$Holder' "$ROOT/$svc/src/main/resources/application.properties" \
  || { echo "$svc: quarkus.native.additional-build-args must initialize Randomness\$Holder at run time"; exit 1; }
echo "no build-time SecureRandom: ok"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$ROOT/.mvn" "$ROOT/mvnw" "$work/"
cp -r "$ROOT/$svc" "$work/" && rm -rf "$work/$svc/target"
(cd "$work" && ./mvnw -B -q -f "$svc/pom.xml" package -Dnative -Dquarkus.native.sources-only=true -DskipTests)
jar="$(ls "$work/$svc"/target/native-sources/*-runner.jar)"
echo "native sources generated: $(basename "$jar") (native-image.args: $(wc -w < "$work/$svc/target/native-sources/native-image.args") arguments)"
unzip -p "$jar" META-INF/native-image/reflect-config.json > "$work/reflect-config.json"
python3 - "$work/reflect-config.json" "$ROOT" "$svc" <<'PY'
import json, os, re, sys, glob
registered = {e["name"] for e in json.load(open(sys.argv[1]))}
root, svc = sys.argv[2], sys.argv[3]
missing = []
for module in ("service-support-edge", "service-support-outbox", "service-support", svc):
    for f in glob.glob(os.path.join(root, module, "src/main/java/**/*.java"), recursive=True):
        src = open(f, encoding="utf-8").read()
        pkg = re.search(r"package ([\w.]+);", src).group(1)
        top = os.path.basename(f)[:-5]
        for m in re.finditer(r"\brecord (\w+)\s*[(<]", src):
            name = m.group(1)
            fq = f"{pkg}.{top}" if name == top else f"{pkg}.{top}${name}"
            if fq not in registered:
                missing.append(fq)
print(f"{len(registered)} classes registered for reflection")
print("records NOT registered for reflection (check each one that is serialized to JSON):")
for fq in sorted(missing):
    print("  " + fq)
PY
