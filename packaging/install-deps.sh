#!/usr/bin/env bash
# Installs every Debian 12 package Diamond needs to build, run and test.
# Idempotent: packages already present are not reinstalled, and apt-get update
# runs only when something is missing. Works as root or through sudo.
# This script is the single source of truth for the project's dependencies.
set -euo pipefail

PACKAGES=(
  # toolchain
  build-essential cmake ninja-build pkg-config git clang-format
  # Qt 6.4
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-httpserver-dev qt6-websockets-dev qt6-svg-dev
  qt6-l10n-tools qt6-tools-dev-tools qt6-tools-dev libqt6opengl6-dev libgl-dev libqt6sql6-sqlite
  qt6-wayland qt6-qpa-plugins libqt6svg6 qt6-image-formats-plugins
  # engine
  libtorch-dev libgloo-dev libopenblas0-openmp libopenblas-dev libdnnl-dev
  # remote, app
  libssh-dev nlohmann-json3-dev libsqlite3-dev libhdf5-dev libgraphviz-dev qtkeychain-qt6-dev
  libpng-dev libjpeg-dev zlib1g-dev libstb-dev libzip-dev libssl-dev
  # GUI tests and screenshots
  xvfb xauth x11-utils imagemagick fonts-noto-cjk fonts-dejavu-core
  # test infrastructure: real sshd + single-node Slurm on loopback, PyTorch-Python for benchmarks
  openssh-server openssh-client munge slurmctld slurmd slurm-client python3 python3-torch python3-numpy
  podman runc
  # fuzzing
  clang-14 libclang-rt-14-dev
  # misc tools used by tests
  procps psmisc curl sqlite3
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: not root and no sudo; install these packages by hand: ${PACKAGES[*]}" >&2
    exit 1
  fi
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${#missing[@]} missing package(s): ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  # Services installed here must not start on their own: the test fixture starts
  # private instances on loopback. policy-rc.d is honoured by invoke-rc.d.
  policy_added=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    policy_added=1
  fi
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  if [ "$policy_added" -eq 1 ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
else
  echo "install-deps: all ${#PACKAGES[@]} packages present"
fi

# libtorch links libblas.so.3; without OpenBLAS selected it silently uses the
# reference BLAS (about 20x slower). Select OpenBLAS (OpenMP flavour) explicitly, including
# libopenblas.so.0, which the openmp libblas.so.3 loads: left on the pthread flavour (what
# libopenblas-dev pulls in), its own spinning threads fight libtorch's OpenMP threads.
arch_dir="/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)"
for lib in libblas.so.3 liblapack.so.3 libopenblas.so.0; do
  want="$arch_dir/openblas-openmp/$lib"
  if [ -e "$want" ]; then
    current="$(update-alternatives --query "$lib-$(basename "$arch_dir")" 2>/dev/null | awk '/^Value:/{print $2}')"
    if [ "$current" != "$want" ]; then
      $SUDO update-alternatives --set "$lib-$(basename "$arch_dir")" "$want"
    fi
  fi
done
blas="$(readlink -f "$arch_dir/libblas.so.3" || true)"
case "$blas" in
  *openblas*) echo "install-deps: BLAS is $blas" ;;
  *) echo "install-deps: error: libblas.so.3 resolves to '$blas', not OpenBLAS" >&2; exit 1 ;;
esac
openblas="$(readlink -f "$arch_dir/libopenblas.so.0" || true)"
case "$openblas" in
  *openblas-openmp*) ;;
  *) echo "install-deps: warning: libopenblas.so.0 resolves to '$openblas', not the OpenMP flavour" >&2 ;;
esac
