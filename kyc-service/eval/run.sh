#!/usr/bin/env bash
# Runs the live checks' evaluation (kyc-service/src/eval/java, compiled with the tests by the profile -Peval, never
# part of ./mvnw verify) and prints the figures:
#   MrzEvaluation:  the MRZ read over rendered passports and card backs on composed scenes;
#   SpecimenEvaluation: the MRZ read on states' specimen documents this project did not draw (eval/specimens);
#   FacePairEvaluation: the face bounds on cross-day and same-sitting genuine pairs and impostor pairs (FACES_CROSSDAY=dir
#     adds one folder of photographs per person, taken on different days: eval/README.md);
#   FaceCohortBuild (EVAL=FaceCohortBuild only): builds the face score's cohort from the London Set into
#     kyc-service/target/eval/cohort.bin (COHORT_OUT=file elsewhere); copy it over src/main/resources/faces/cohort.bin;
#   FaceEvaluation: the whole live decision (image checks, MRZ, face sidecar) over people from the face-api demo photos.
# Needs tesseract-ocr, node and the face sidecar's packages (.ci/install-tools installs them), PostgreSQL as for the tests
# (DB_JDBC_URL / DB_REACTIVE_URL); takes 15-25 minutes on 2 cores. EVAL=Mrz, EVAL=Specimen, EVAL=FacePair or EVAL=Face runs one of them (Mrz ~4 min, Specimen ~1 min, FacePair ~7 min).
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=${EVAL:+${EVAL}Evaluation}
[[ ${EVAL:-} == FaceCohortBuild ]] && tests=FaceCohortBuild
./mvnw -B -q test -Peval -pl kyc-service -am -Dtest="${tests:-MrzEvaluation,SpecimenEvaluation,FacePairEvaluation,FaceEvaluation}" -Dsurefire.failIfNoSpecifiedTests=false \
  -DkycEvaluation=true ${FACES_CROSSDAY:+-Dfaces.crossday=$FACES_CROSSDAY} ${COHORT_OUT:+-Dcohort.out=$(realpath -m "$COHORT_OUT")} -DtrimStackTrace=false 2>&1 | grep -v -E '^\[INFO\]|^[0-9]{4}-[0-9]{2}-[0-9]{2}T|^\s+at ' || true
