####
# The JVM image of every service (fast-jar on Debian's OpenJDK 17 JRE, user 185), one file for the three:
#
#   ./mvnw -B package -DskipTests                          # <service>/target/quarkus-app
#   docker build -f deploy/docker/jvm.Dockerfile --build-arg SERVICE=wallet-gateway -t platform/wallet-gateway:1.0.0-SNAPSHOT .
#   (podman build takes the same arguments; the context is the repository root, .dockerignore sends only the jars)
#
# Everything comes from Debian's packages on the official debian image: the JRE, and for kyc-service Tesseract (the MRZ's
# second reader, run as a process). Settings are environment variables only (README "Configuration"); the root
# filesystem may be read-only: the JVM writes only under /tmp.
###
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
ARG SERVICE

FROM ${BASE_IMAGE} AS jre
# (the slim image has no /usr/share/man/man1, where the JRE's alternatives link its man page)
RUN mkdir -p /usr/share/man/man1 \
    && apt-get update \
    && apt-get install -y --no-install-recommends openjdk-17-jre-headless \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 185 --gid 0 --home-dir /deployments --no-create-home --shell /usr/sbin/nologin jboss \
    && mkdir /deployments && chown 185:0 /deployments

# what one service needs beyond the JRE, and its port
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
# four layers, the libraries first: a change to the application re-uses them
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/lib/ /deployments/lib/
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/*.jar /deployments/
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/app/ /deployments/app/
COPY --chown=185:0 ${SERVICE}/target/quarkus-app/quarkus/ /deployments/quarkus/
USER 185
# The pod JVM profile, deploy/pod-jvm.options verbatim (measured in docs/fast-start.md): Serial GC, heap at most 50 % of
# the container limit and committed as the live set needs it, freed native memory handed back every 5 s.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=50 -XX:InitialRAMPercentage=5 -XX:NewSize=32m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:MaxMetaspaceSize=192m -XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC -Xss512k -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError"
ENTRYPOINT ["java", "-Dquarkus.http.host=0.0.0.0", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-Djava.io.tmpdir=/tmp", "-jar", "quarkus-run.jar"]
