#!/usr/bin/env bash
# training-fabric driver. Every subcommand builds first when needed.
#   ./tf build                      install missing Debian packages, configure, build
#   ./tf test [ctest args]          build, then run the whole test suite
#   ./tf run SCENARIO.json [--out DIR] [--set key.path=value ...]
#   ./tf demo                       the flagship study
#   ./tf bench                      simulation-speed benchmarks, one JSON line each
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD="$ROOT/build"
BIN="$BUILD/bin"
DEMO_SCENARIO="examples/leaf-spine-all-to-all.json"

# Debian packages the project needs (ns-3's CMake package needs the last four
# of the first line as well).
PACKAGES=(build-essential cmake ccache pkg-config
          libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev
          nlohmann-json3-dev libprotobuf-dev protobuf-compiler libgtest-dev
          gnuplot-nox python3)

log() { printf '[tf] %s\n' "$*" >&2; }

install_packages() {
  local missing=() pkg
  for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  local sudo=()
  [[ $(id -u) -ne 0 ]] && sudo=(sudo)
  log "installing missing packages: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}" >&2
}

build() {
  install_packages
  if [[ ! -f "$BUILD/CMakeCache.txt" ]]; then
    log "configuring build/ (Release)"
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >"$BUILD.configure.log" 2>&1 || {
      cat "$BUILD.configure.log" >&2; log "configure failed"; exit 1; }
  fi
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  local out
  if ! out=$(cmake --build "$BUILD" -j"$jobs" 2>&1); then
    printf '%s\n' "$out" | grep -E -B2 -A12 'error|Error' >&2 || printf '%s\n' "$out" >&2
    log "build failed"
    exit 1
  fi
}

usage() {
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
}

cmd="${1:-help}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  build)
    build
    log "build ready in build/"
    ;;
  test)
    build
    cd "$ROOT"
    ctest --test-dir "$BUILD" --output-on-failure -j"$(nproc 2>/dev/null || echo 2)" "$@"
    ;;
  run)
    [[ $# -ge 1 ]] || { usage >&2; exit 2; }
    build
    cd "$ROOT"
    exec "$BIN/tf-run" "$@"
    ;;
  demo)
    build
    cd "$ROOT"
    exec "$BIN/tf-run" "$DEMO_SCENARIO" "$@"
    ;;
  bench)
    build
    cd "$ROOT"
    status=0
    for b in "$BIN"/bench-*; do
      [[ -x "$b" ]] || continue
      "$b" || status=1
    done
    exit $status
    ;;
  help|-h|--help)
    usage
    ;;
  *)
    log "unknown command: $cmd"
    usage >&2
    exit 2
    ;;
esac
