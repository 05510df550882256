# syntax=docker/dockerfile:1.6
####
# Builds one service from source and packages it exactly like <service>/src/main/docker/Dockerfile.jvm
# (fast-jar on the UBI 9 OpenJDK 17 runtime, user 185). Used by deploy/compose.yaml:
#   docker build -f deploy/docker/service.Dockerfile --build-arg SERVICE=wallet-gateway -t platform/wallet-gateway .
# (context = repository root; deploy/docker/service.Dockerfile.dockerignore keeps target/ and .git out)
###
FROM registry.access.redhat.com/ubi9/openjdk-17:1.21 AS build
ARG SERVICE
USER root
WORKDIR /build
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    ./mvnw -B -q -pl "${SERVICE}" -am package -DskipTests -DskipITs

FROM registry.access.redhat.com/ubi9/openjdk-17-runtime:1.21
ARG SERVICE
ENV LANGUAGE='en_US:en'
# kyc-service reads the MRZ with Tesseract (EPEL), as its own Dockerfile.jvm installs it
USER root
RUN if [ "${SERVICE}" = "kyc-service" ]; then \
      microdnf install -y https://dl.fedoraproject.org/pub/epel/epel-release-latest-9.noarch.rpm \
      && microdnf install -y tesseract tesseract-langpack-eng && microdnf clean all; fi
COPY --from=build --chown=185 /build/${SERVICE}/target/quarkus-app/lib/ /deployments/lib/
COPY --from=build --chown=185 /build/${SERVICE}/target/quarkus-app/*.jar /deployments/
COPY --from=build --chown=185 /build/${SERVICE}/target/quarkus-app/app/ /deployments/app/
COPY --from=build --chown=185 /build/${SERVICE}/target/quarkus-app/quarkus/ /deployments/quarkus/
USER 185
ENV JAVA_MAX_MEM_RATIO=50
ENV JAVA_INITIAL_MEM_RATIO=25
# lean profile for 512 MiB / 1-2 core pods (docs/notes/fast.md): Serial GC (lowest RSS measured), metaspace capped,
# small thread stacks; heap = 50 % of the container limit (256 MiB in a 512 MiB pod)
ENV GC_CONTAINER_OPTIONS="-XX:+UseSerialGC"
ENV GC_MAX_METASPACE_SIZE=192
ENV JAVA_OPTS_APPEND="-Xss512k -XX:ReservedCodeCacheSize=64m -Dquarkus.http.host=0.0.0.0 -Djava.util.logging.manager=org.jboss.logmanager.LogManager -Djava.io.tmpdir=/tmp -XX:+ExitOnOutOfMemoryError"
ENV JAVA_APP_JAR="/deployments/quarkus-run.jar"
ENTRYPOINT [ "/opt/jboss/container/java/run/run-java.sh" ]
