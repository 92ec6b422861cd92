#!/usr/bin/env bash
# The two set-up commands of the README. Both install what is missing (Debian 12), configure
# and build incrementally, then either open the desktop app or run the whole test suite.
#
#   ./dev.sh open   build and open Diamond
#   ./dev.sh test   build and run every test (ctest -LE bench)
#   ./dev.sh build  only install and build
#   ./dev.sh fuzz [SECONDS [TARGET ...]]
#                   build the libFuzzer targets with clang in build-fuzz/ and run each for SECONDS (default 20;
#                   tests/fuzz/README.md); CI runs this after the tests
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release), JOBS (default nproc).
set -euo pipefail
cd "$(dirname "$0")"

command="${1:-open}"
shift || true
BUILD_DIR="${BUILD_DIR:-build}"
BUILD_TYPE="${BUILD_TYPE:-Release}"
JOBS="${JOBS:-$(nproc)}"

./packaging/install-deps.sh

if [ "$command" = fuzz ]; then
  FUZZ_DIR="${FUZZ_DIR:-build-fuzz}"
  if [ ! -f "$FUZZ_DIR/build.ninja" ]; then
    CC=clang-14 CXX=clang++-14 cmake -S . -B "$FUZZ_DIR" -G Ninja -DDIAMOND_FUZZ=ON -DDIAMOND_FUZZ_ENGINE=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  fi
  cmake --build "$FUZZ_DIR" -j "$JOBS"
  seconds="${1:-20}"
  shift || true
  exec tests/fuzz/run_fuzzers.sh "$PWD/$FUZZ_DIR" "$seconds" "$PWD/$FUZZ_DIR/runs" "$@"
fi

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
fi
cmake --build "$BUILD_DIR" -j "$JOBS"

case "$command" in
  build) ;;
  open)
    exec "$BUILD_DIR/bin/diamond" "$@" ;;
  test)
    # Tests run with QT_QPA_PLATFORM=offscreen (set per test), so no display is needed.
    exec ctest --test-dir "$BUILD_DIR" -LE bench --output-on-failure -j "$JOBS" "$@" ;;
  *)
    echo "usage: ./dev.sh [open|test|build|fuzz [SECONDS [TARGET ...]]]" >&2
    exit 2 ;;
esac
