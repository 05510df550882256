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
# The pod JVM profile, deploy/pod-jvm.options verbatim in JAVA_OPTS_APPEND (measured in docs/fast-start.md): Serial GC,
# heap at most 50 % of the container limit and committed as the live set needs it, freed native memory handed back
# every 5 s. GC_CONTAINER_OPTIONS keeps run-java.sh from choosing another collector.
ENV JAVA_MAX_MEM_RATIO=50
ENV GC_CONTAINER_OPTIONS="-XX:+UseSerialGC"
ENV JAVA_OPTS_APPEND="-XX:MaxRAMPercentage=50 -XX:InitialRAMPercentage=5 -XX:NewSize=32m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC -Xss512k -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError -Dquarkus.http.host=0.0.0.0 -Djava.util.logging.manager=org.jboss.logmanager.LogManager -Djava.io.tmpdir=/tmp"
ENV JAVA_APP_JAR="/deployments/quarkus-run.jar"
ENTRYPOINT [ "/opt/jboss/container/java/run/run-java.sh" ]
