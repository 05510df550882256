#!/usr/bin/env bash
# Makes the base images the Dockerfiles start FROM available to podman on a machine that reaches Debian's packages but
# no image registry. For each image: nothing to do when podman has it; else it is pulled; when no registry answers, a
# faithful local stand-in is made under the official name:
#   docker.io/library/debian:<suite>-slim   debootstrap --variant=minbase <suite> from Debian's packages (the official
#                                            debian images are built from the same packages), with the slim image's
#                                            dpkg exclusions, imported with podman import
#   docker.io/library/postgres:15-bookworm   deploy/docker/standins/postgres.Dockerfile (Debian's postgresql-15, uid 999)
# Usage (root): deploy/docker/base-images.sh [bookworm] [trixie] [postgres]   (default: bookworm postgres)
set -euo pipefail
cd "$(dirname "$0")"
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
WORK=${BASE_IMAGES_WORK:-/var/tmp/platform-base-images}

have() { podman image exists "$1"; }
pulled() { timeout "${PULL_TIMEOUT:-30}" podman pull -q "$1" > /dev/null 2>&1; }

debian_slim() {
  local suite=$1 image=docker.io/library/debian:$1-slim root
  if have "$image"; then echo "base image $image: present"; return; fi
  if pulled "$image"; then echo "base image $image: pulled"; return; fi
  root=$WORK/$suite
  rm -rf "$root" && mkdir -p "$WORK"
  echo "base image $image: no registry answered; debootstrap --variant=minbase $suite from $MIRROR"
  debootstrap --variant=minbase "$suite" "$root" "$MIRROR" > "$WORK/$suite.log" 2>&1 \
    || { tail -20 "$WORK/$suite.log"; exit 1; }
  # what the official slim image adds: no documentation or translations, no apt caches left behind
  cat > "$root/etc/dpkg/dpkg.cfg.d/docker" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
CFG
  printf 'APT::Install-Recommends "false";\nAcquire::Languages "none";\n' > "$root/etc/apt/apt.conf.d/docker-minimal"
  printf 'DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/*.bin || true"; };\n' \
    > "$root/etc/apt/apt.conf.d/docker-clean"
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright -delete 2>/dev/null || true
  rm -rf "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* "$root"/var/lib/apt/lists/* \
         "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log
  tar -C "$root" --numeric-owner -c . | podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["bash"]' - "$image" > "$WORK/$suite-import.log" 2>&1
  rm -rf "$root"
  echo "base image $image: made from Debian's packages"
}

postgres_standin() {
  local image=docker.io/library/postgres:15-bookworm
  if have "$image"; then echo "base image $image: present"; return; fi
  if pulled "$image"; then echo "base image $image: pulled"; return; fi
  debian_slim bookworm
  echo "base image $image: no registry answered; stand-in from Debian's postgresql-15 (standins/postgres.Dockerfile)"
  podman build -q --pull=never --network=host -f standins/postgres.Dockerfile -t "$image" standins > "$WORK/postgres-build.log" 2>&1 || { tail -20 "$WORK/postgres-build.log"; exit 1; }
}

# one maker at a time: a second check started meanwhile waits, then finds the images made
mkdir -p "$WORK"
exec 9> "$WORK/.lock"
flock 9

[ $# -gt 0 ] || set -- bookworm postgres
for what in "$@"; do
  case $what in
    bookworm|trixie) debian_slim "$what" ;;
    postgres) postgres_standin ;;
    *) echo "unknown base image: $what" >&2; exit 2 ;;
  esac
done
