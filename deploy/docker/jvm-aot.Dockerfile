####
# The JVM image with a JDK 25 AOT cache (Project Leyden), one file for the three services. An AOT cache is used only by
# the very JVM build that wrote it (same vendor, version and build, same GC, compressed oops), so the training run is
# part of this build, on this image's JVM (Debian's openjdk-25 from trixie-backports): the service starts once with
# QUARKUS_INIT_AND_EXIT=true (everything up to serving, no database needed) and -XX:AOTCacheOutput writes app.aot.
# The application must be packaged on JDK 25 (the root pom's aot-cache profile: the aot-jar layout, whose classes
# come from plain jars the cache can hold):
#
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 ./mvnw -B package -DskipTests -pl wallet-gateway -am
#   docker build -f deploy/docker/jvm-aot.Dockerfile --build-arg SERVICE=wallet-gateway -t platform/wallet-gateway:1.0.0-SNAPSHOT-aot .
#
# A different JVM, or a cache that does not match, is ignored (-XX:AOTMode=auto) and the service starts as the plain
# fast-jar would: start the image once with -XX:AOTMode=on -Xlog:aot -Xlog:class+load to see "Opened AOT cache" and the
# service's classes coming from "shared objects file" (docs/container-check.md).
###
ARG BASE_IMAGE=docker.io/library/debian:trixie-slim
ARG SERVICE

FROM ${BASE_IMAGE} AS jre
RUN mkdir -p /usr/share/man/man1 \
    && echo 'deb http://deb.debian.org/debian trixie-backports main' > /etc/apt/sources.list.d/backports.list \
    && apt-get update \
    && apt-get install -y --no-install-recommends -t trixie-backports openjdk-25-jre-headless \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 185 --gid 0 --home-dir /deployments --no-create-home --shell /usr/sbin/nologin jboss \
    && mkdir /deployments && chown 185:0 /deployments

FROM jre AS kyc-service
RUN apt-get update \
    && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng \
    && rm -rf /var/lib/apt/lists/*
EXPOSE 8081
FROM jre AS checkout-service
EXPOSE 8082
FROM jre AS wallet-gateway
EXPOSE 8083

FROM ${SERVICE}
ARG SERVICE
WORKDIR /deployments
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/lib/ /deployments/lib/
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/*.jar /deployments/
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/app/ /deployments/app/
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/quarkus/ /deployments/quarkus/
USER 185
# the pod JVM profile: deploy/pod-jvm.options verbatim (measured in docs/fast-start.md); the training run uses it too
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=50 -XX:InitialRAMPercentage=5 -XX:NewSize=32m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC -Xss512k -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError"
# the training run: throw-away values for the settings a start validates; no database is reached. Demo values, refused
# in production (QUARKUS_INIT_AND_EXIT ends the run before that check)
RUN QUARKUS_INIT_AND_EXIT=true DB_MIGRATE_AT_START=false ADMIN_TOKEN=training-only \
    PLATFORM_ENCRYPTION_KEY=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= \
    KYC_PROOF_SIGNING_KEY=MC4CAQAwBQYDK2VwBCIEIAkY1bodQ+n9QJaI/jlCED8UCAx1bqpIOS/GprUVzuuK \
    java -XX:AOTCacheOutput=app.aot -Dquarkus.http.host=0.0.0.0 -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
         -Djava.io.tmpdir=/tmp -jar quarkus-run.jar \
    && test -s app.aot
ENTRYPOINT ["java", "-XX:AOTCache=app.aot", "-Dquarkus.http.host=0.0.0.0", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-Djava.io.tmpdir=/tmp", "-jar", "quarkus-run.jar"]
