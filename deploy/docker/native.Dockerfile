####
# UNVERIFIED: no native executable can be linked on the machines this project is built on (native-image needs ~6 GB
# and a GraalVM/Mandrel, neither available here), so this file has never been built. It follows the JVM image
# (deploy/docker/jvm.Dockerfile): same base, same ports, same user, same environment.
#
#   ./mvnw -B package -Dnative -DskipTests -pl wallet-gateway -am      # <service>/target/*-runner
#   docker build -f deploy/docker/native.Dockerfile --build-arg SERVICE=wallet-gateway -t platform/wallet-gateway:1.0.0-SNAPSHOT-native .
#   (the repository's .dockerignore sends only target/quarkus-app: add !*/target/*-runner to it for this build)
###
ARG BASE_IMAGE=docker.io/library/debian:bookworm-slim
ARG SERVICE

FROM ${BASE_IMAGE} AS base
RUN useradd --uid 185 --gid 0 --home-dir /work --create-home --shell /usr/sbin/nologin quarkus

FROM base AS kyc-service
RUN apt-get update \
    && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng \
    && rm -rf /var/lib/apt/lists/*
EXPOSE 8081
FROM base AS checkout-service
EXPOSE 8082
FROM base AS wallet-gateway
EXPOSE 8083

FROM ${SERVICE}
ARG SERVICE
WORKDIR /work
COPY --chown=185:0 --chmod=0755 ${SERVICE}/target/*-runner /work/application
USER 185
ENTRYPOINT ["./application", "-Dquarkus.http.host=0.0.0.0", "-Djava.io.tmpdir=/tmp"]
