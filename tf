#!/usr/bin/env bash
# training-fabric driver. Every subcommand builds first (incrementally).
#   ./tf build                      install missing Debian packages, configure, build
#   ./tf test [ctest args]          build, then run the whole test suite (ctest)
#   ./tf run SCENARIO.json [--out DIR] [--set key.path=value ...]
#            [--ranks N [--engine granted|null] [--keep-ranks]]
#                                   build, then run a scenario with build/bin/tf-run; --ranks N:
#                                   on N MPI ranks (mpirun), ns-3's granted-time-window
#                                   (default) or null-message engine, the ranks' results merged
#                                   into DIR (--keep-ranks: each rank's own in DIR/ranks/R/)
#   ./tf sweep SCENARIO.json --vary key=v1,v2,... [--vary ...] [--seeds N] [--jobs J] [--out DIR]
#                                   build, then run the grid of runs in parallel, one table
#   ./tf demo [--study NAME]        build, then run the flagship study (or examples/NAME/run.py)
#   ./tf bench                      build, then run every build/bin/bench-* (one JSON line each)
#   ./tf sanitize [ctest args]      build build-sanitize/ with ASan+UBSan, run the suite
#   ./tf dropin [ctest args]        the module dropped into a stock ns-3.37 source tree
#                                   (Debian's ns3 source package, in build/ns3-dropin/):
#                                   build it there the ns-3 way, run its tests there
#   ./tf help                       this text
# Environment: TF_BUILD_TYPE=Debug for ns-3's debug profile (first configure
# only; or rm -rf build), TF_VERBOSE=1 to show the compiler's output,
# TF_PGO=1 for build-pgo/ instead of build/ (build, test, run, sweep, demo,
# bench): the module compiled with GCC's profile feedback from a training
# run of the examples by the same tree instrumented first; about twice the
# build time, 8-33% more events/s where a run is bound by the processor
# rather than memory (model doc, "Profile feedback").
set -euo pipefail

# Debian packages the project needs. libpython3-dev: Debian's ns-3 CMake
# targets list /usr/include/python3.11 as an include directory, and CMake
# refuses to generate when that folder is missing.
PACKAGES=(build-essential cmake ccache libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev
          libpython3-dev nlohmann-json3-dev libprotobuf-dev protobuf-compiler zlib1g-dev libgtest-dev
          gnuplot-nox python3 libopenmpi-dev openmpi-bin)

# The flagship study run by ./tf demo (relative to the repository root).
DEMO_SCRIPT="examples/ecmp-vs-static/run.py"

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
PGO=""
case "${TF_PGO:-}" in "" | 0 | false | no | off) ;; *) PGO=1 ;; esac
BUILD_NAME="build"                  # build/, build-pgo/ (TF_PGO=1), or build-sanitize/
[[ -n "$PGO" ]] && BUILD_NAME="build-pgo"
BUILD="$ROOT/$BUILD_NAME"
BIN="$BUILD/bin"
CMAKE_ARGS=()
BUILD_TARGETS=()                    # empty: all
BUILD_TYPE="${TF_BUILD_TYPE:-Release}"
JOBS="$(nproc 2>/dev/null || echo 2)"

log() { printf '[tf] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# A command as root (through sudo when not root), apt without questions.
as_root() {
  local sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "need root (or sudo) for: $*"
    sudo=(sudo)
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive "$@"
}

install_packages() {
  # Fast path: one dpkg-query call for the whole list.
  local status missing=() pkg rest
  declare -A installed=()
  status="$(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null || true)"
  while read -r pkg rest; do
    if [[ "$rest" == "install ok installed" ]]; then installed["$pkg"]=1; fi
  done <<<"$status"
  for pkg in "${PACKAGES[@]}"; do
    [[ -n "${installed[$pkg]:-}" ]] || missing+=("$pkg")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0

  [[ $(id -u) -eq 0 ]] || command -v sudo >/dev/null ||
    die "missing packages (${missing[*]}) and no sudo to install them"
  log "installing missing Debian packages: ${missing[*]}"
  mkdir -p "$BUILD"
  local aptlog="$BUILD/apt.log"
  if ! { as_root apt-get update -q &&
         as_root apt-get install -y -q --no-install-recommends "${missing[@]}"; } \
       </dev/null >"$aptlog" 2>&1; then
    tail -n 30 "$aptlog" >&2
    die "package installation failed (full log: ${aptlog#"$ROOT"/})"
  fi
}

# Configure (once) and build incrementally. Compiler output goes to
# <build>/build.log and is shown only on failure (or with TF_VERBOSE=1), so that
# a subcommand's own output stays readable.
# What a build depends on: when none of it changed since the last successful
# build of this tree with the same settings, the build is skipped (a few ms,
# where asking make costs over a second). Editing, adding or removing a file
# under these paths changes its own or its folder's modification time.
BUILD_INPUTS=(CMakeLists.txt tf contrib scratch bench)

# The source tree $BUILD's cache was configured for (empty: no cache).
cache_home() {
  local home
  home="$( { grep -m1 '^CMAKE_HOME_DIRECTORY:INTERNAL=' "$BUILD/CMakeCache.txt" 2>/dev/null || true; } | cut -d= -f2-)"
  [[ -z "$home" ]] || realpath -m "$home"
}

build_is_current() {
  local stamp="$BUILD/.tf-built"
  [[ -f "$stamp" && -f "$BUILD/CMakeCache.txt" ]] || return 1
  [[ "$(cat "$stamp")" == "$ROOT $BUILD_TYPE ${CMAKE_ARGS[*]}" ]] || return 1
  local changed
  changed="$(cd "$ROOT" && find "${BUILD_INPUTS[@]}" -newer "$stamp" -print -quit 2>/dev/null)"
  [[ -z "$changed" ]]
}

build() {
  if [[ -n "$PGO" && "$BUILD_NAME" == "build-pgo" ]]; then
    pgo_build
  else
    build_tree
  fi
}

build_tree() {
  if build_is_current; then
    return 0
  fi
  install_packages
  mkdir -p "$BUILD"
  # One build at a time per build tree (several shells may call ./tf at once).
  exec 9>"$BUILD/.tf.lock"
  flock 9

  local cache="$BUILD/CMakeCache.txt"
  # A cache written for another checkout (a copied or moved tree) cannot be reused.
  local home
  home="$(cache_home)"
  if [[ -n "$home" && "$home" != "$ROOT" ]]; then
    log "$BUILD_NAME/ was configured for another source tree; reconfiguring"
    rm -rf "$cache" "$BUILD/CMakeFiles"
  fi
  # ns-3's src/mpi (the MPI engine) comes from the ns3 source package, as for
  # ./tf dropin; a tree configured with another (or no) source is reconfigured.
  local mpisrc
  mpisrc="$(mpi_source)"
  if [[ ! -f "$cache" || ! ( -f "$BUILD/Makefile" || -f "$BUILD/build.ninja" ) ]] ||
     ! grep -qxF "TF_NS3_SOURCE:PATH=$mpisrc" "$cache"; then
    log "configuring $BUILD_NAME/ ($BUILD_TYPE${CMAKE_ARGS[*]:+ ${CMAKE_ARGS[*]}})"
    if ! cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "${CMAKE_ARGS[@]}" \
        -DTF_NS3_SOURCE="$mpisrc" >"$BUILD/configure.log" 2>&1; then
      cat "$BUILD/configure.log" >&2
      die "configure failed (log: $BUILD_NAME/configure.log)"
    fi
  fi

  local buildlog="$BUILD/build.log"
  log "building (log: $BUILD_NAME/build.log)"
  # Stamped before building, so that a file edited during the build is newer
  # than the stamp and the next call builds again.
  rm -f "$BUILD/.tf-built"
  printf '%s\n' "$ROOT $BUILD_TYPE ${CMAKE_ARGS[*]}" >"$BUILD/.tf-building"
  local targets=()
  [[ ${#BUILD_TARGETS[@]} -eq 0 ]] || targets=(--target "${BUILD_TARGETS[@]}")
  if [[ -n "${TF_VERBOSE:-}" ]]; then
    cmake --build "$BUILD" -j"$JOBS" "${targets[@]}" >&2 || die "build failed"
  elif ! cmake --build "$BUILD" -j"$JOBS" "${targets[@]}" >"$buildlog" 2>&1; then
    # The errors with some context (the first 150 lines of them), else the
    # end of the log.
    if grep -q -E 'error|Error|undefined reference|No rule to make' "$buildlog"; then
      grep -E -B3 -A12 'error|Error|undefined reference|No rule to make' "$buildlog" |
        head -n 150 >&2 || true
    else
      tail -n 40 "$buildlog" >&2
    fi
    die "build failed (full log: $BUILD_NAME/build.log; TF_VERBOSE=1 ./tf build to watch it)"
  elif grep -q 'warning:' "$buildlog"; then
    log "compiler warnings: see $BUILD_NAME/build.log"
  fi
  mv -f "$BUILD/.tf-building" "$BUILD/.tf-built"
  exec 9>&- # release the lock before running anything
}

# TF_PGO=1: build-pgo/, the module compiled with GCC's profile feedback, in
# one tree (a profile is named after its object file's full path, and it
# names the files its functions came from, some of them headers in the
# build tree: a second tree would find none, or none that matched):
# 1. configured with TF_PGO=generate, tf-run built (the module instrumented);
# 2. the training run (PGO_TRAINING, below) writes the profiles;
# 3. configured with TF_PGO=use and built whole (the changed flags compile
#    the module's objects again, now with the profiles).
# Again, all three, whenever the tree is out of date.
PGO_PROFILE="$ROOT/build-pgo/profile"
# The training run: scenarios of the examples, each a fraction of a second
# to a few seconds instrumented, that reach the per-frame paths a study
# does: every congestion control, lookahead windows on and off, fat-tree,
# leaf-spine, rail and torus fabrics, every routing mode, PFC and ECN
# under incast, collectives. Fat-tree permutations under ECMP are among
# them, as in the benchmarks, but not the benchmarks' own sizes.
PGO_TRAINING=(
  "fat-tree-k8.json --set workload.bytes=1MB"
  "fat-tree-k8.json --set workload.bytes=512KB --set windows=false"
  "fat-tree-k8.json --set workload.bytes=128KB --set topology.k=16"
  "fat-tree-k8.json --set workload.bytes=512KB --set routing.mode=flowlet"
  "fat-tree-k8.json --set workload.bytes=512KB --set routing.mode=spray"
  "fat-tree-k8.json --set workload.bytes=512KB --set routing.mode=adaptive"
  "fat-tree-k8.json --set workload.bytes=256KB --set routing.mode=static"
  "fat-tree-k8.json --set workload.bytes=256KB --set routing.mode=balanced-static"
  "incast-8to1.json --set nic.cc=dcqcn"
  "incast-8to1.json --set nic.cc=hpcc"
  "incast-8to1.json --set nic.cc=timely"
  "incast-8to1.json --set nic.cc=dctcp"
  "leaf-spine-all-to-all.json"
  "rail-optimized.json"
  "ring-allreduce.json"
  "torus-4x4x4.json"
)

pgo_train() {
  local log="$BUILD/train.log" out run rc
  rm -rf "$PGO_PROFILE"
  mkdir -p "$PGO_PROFILE"
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
  log "training run for the profile (log: build-pgo/train.log)"
  : >"$log"
  for run in "${PGO_TRAINING[@]}"; do
    rc=0
    # shellcheck disable=SC2086 # a run is a file and its --set options
    (cd "$ROOT/contrib/training-fabric/examples" && "$BIN/tf-run" $run --out "$out/run") \
      </dev/null >>"$log" 2>&1 || rc=$?
    # 0: completed, 3: the scenario's stop time reached first
    [[ $rc -eq 0 || $rc -eq 3 ]] ||
      die "training run failed (exit $rc): $run (log: build-pgo/train.log)"
  done
  rm -rf "$out"
  trap - EXIT
  # Without profiles the optimized pass would be a plain build.
  compgen -G "$PGO_PROFILE/*.gcda" >/dev/null ||
    die "the training run wrote no profile into ${PGO_PROFILE#"$ROOT"/}/"
}

# Sets the tree's TF_PGO (a configured tree of this checkout: build_tree
# configures a new one, or one configured for another source tree, anew).
pgo_configure() {
  [[ "$(cache_home)" == "$ROOT" ]] || return 0
  cmake -S "$ROOT" -B "$BUILD" "${CMAKE_ARGS[@]}" >"$BUILD/configure.log" 2>&1 ||
    { cat "$BUILD/configure.log" >&2; die "configure failed (log: build-pgo/configure.log)"; }
}

pgo_build() {
  CMAKE_ARGS=(-DTF_PGO=use "-DTF_PGO_DIR=$PGO_PROFILE")
  build_is_current && return 0
  # One TF_PGO=1 call at a time through all three steps (build_tree's own
  # lock covers only its build): another would reconfigure the tree or
  # remove the profiles under this one. Checked again once it is ours.
  mkdir -p "$BUILD"
  exec 7>"$BUILD/.pgo.lock"
  flock 7
  if build_is_current; then
    exec 7>&-
    return 0
  fi
  CMAKE_ARGS=(-DTF_PGO=generate "-DTF_PGO_DIR=$PGO_PROFILE")
  BUILD_TARGETS=(tf-run)
  pgo_configure
  build_tree
  pgo_train
  CMAKE_ARGS=(-DTF_PGO=use "-DTF_PGO_DIR=$PGO_PROFILE")
  BUILD_TARGETS=()
  pgo_configure
  build_tree
  exec 7>&-
}

# ./tf dropin: the module as a user of a stock ns-3 source tree gets it. The
# tree is Debian's ns3 source package (the same 3.37 as libns3-dev), fetched
# once into build/ns3-dropin/ with apt-get source (adding bookworm's deb-src
# to apt when no source archive offers ns3 3.37). The module is copied into
# its contrib/ (afresh each time), configured with only the modules it needs
# (training-fabric pulls core, network, internet and their dependencies),
# ns-3's examples off and its own tests filtered out, built, and the module's
# tests run with ctest (label training-fabric). Output goes to
# build/ns3-dropin/*.log, shown on failure.
DROPIN="$ROOT/build/ns3-dropin"
DROPIN_TREE="$DROPIN/src/ns3-3.37/ns-3.37"
# ns-3's default profile: -O2 -g, NS_LOG and NS_ASSERT compiled in.
DROPIN_CONFIGURE=(-d default --enable-modules training-fabric --enable-tests --disable-examples
                  --filter-module-examples-and-tests training-fabric)

# Runs a step with its output in build/ns3-dropin/<name>.log; on failure shows
# the errors (or the log's end) and stops.
dropin_step() {
  local name="$1" log="$DROPIN/$1.log"
  shift
  log "dropin: $name (log: build/ns3-dropin/$name.log)"
  if ! "$@" </dev/null >"$log" 2>&1; then
    { grep -E -B3 -A12 'error|Error|undefined reference' "$log" | head -n 150 ||
        tail -n 40 "$log"; } >&2
    die "dropin: $name failed (full log: build/ns3-dropin/$name.log)"
  fi
}

dropin_fetch() {
  local version
  version="$(apt-cache showsrc ns3 2>/dev/null | sed -n 's/^Version: \(3\.37[^ ]*\)$/\1/p' | head -n1)"
  if [[ -z "$version" ]]; then
    [[ $(id -u) -eq 0 ]] || command -v sudo >/dev/null ||
      { echo "no deb-src for ns3 3.37 in apt, and no sudo to add one"; return 1; }
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
      'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
      as_root tee /etc/apt/sources.list.d/training-fabric-src.sources >/dev/null
    as_root apt-get update -q
    version="$(apt-cache showsrc ns3 | sed -n 's/^Version: \(3\.37[^ ]*\)$/\1/p' | head -n1)"
    [[ -n "$version" ]] || { echo "apt offers no ns3 3.37 source package"; return 1; }
  fi
  # Into a fresh folder, moved in place once whole.
  rm -rf "$DROPIN/src" "$DROPIN/src.part"
  mkdir -p "$DROPIN/src.part"
  (cd "$DROPIN/src.part" && apt-get source -q "ns3=$version") &&
    grep -qx '3.37' "$DROPIN/src.part/ns3-3.37/ns-3.37/VERSION" &&
    mv "$DROPIN/src.part" "$DROPIN/src"
}

# The ns-3.37 source tree whose src/mpi ./tf build compiles (TF_NS3_SOURCE, or
# Debian's ns3 source package fetched once into build/ns3-dropin/ as for
# ./tf dropin); empty, after one line saying so, when it cannot be had. A failed
# fetch is not retried until build/ns3-dropin/fetch-failed is removed.
mpi_source() {
  if [[ -n "${TF_NS3_SOURCE:-}" ]]; then
    realpath -m "$TF_NS3_SOURCE"
    return 0
  fi
  if [[ ! -f "$DROPIN_TREE/src/mpi/model/distributed-simulator-impl.cc" ]]; then
    mkdir -p "$DROPIN"
    if [[ -f "$DROPIN/fetch-failed" ]] ||
       ! { exec 8>"$DROPIN/.tf.lock" && flock 8 && dropin_fetch; } </dev/null >"$DROPIN/fetch.log" 2>&1; then
      touch "$DROPIN/fetch-failed"
      log "no MPI engine (--ranks unavailable): ns3 source package not fetched (build/ns3-dropin/fetch.log; rm build/ns3-dropin/fetch-failed to retry)"
      return 0
    fi
  fi
  echo "$DROPIN_TREE"
}

dropin_configure() {
  rm -f "$DROPIN/configured"
  (cd "$DROPIN_TREE" && ./ns3 configure "${DROPIN_CONFIGURE[@]}") &&
    echo "${DROPIN_CONFIGURE[*]}" >"$DROPIN/configured"
}

dropin() {
  install_packages
  mkdir -p "$DROPIN"
  exec 9>"$DROPIN/.tf.lock"
  flock 9
  [[ -x "$DROPIN_TREE/ns3" ]] || dropin_step fetch dropin_fetch
  rm -rf "$DROPIN_TREE/contrib/training-fabric"
  cp -a "$ROOT/contrib/training-fabric" "$DROPIN_TREE/contrib/"
  # Configured once (again when the options above change).
  [[ "$(cat "$DROPIN/configured" 2>/dev/null)" == "${DROPIN_CONFIGURE[*]}" ]] ||
    dropin_step configure dropin_configure
  # What ./ns3 build runs, with all the cores: ns-3.37's ./ns3 uses at most
  # nproc - 1 jobs, whatever -j asks (one job on a 2-core machine).
  dropin_step build cmake --build "$DROPIN_TREE/cmake-cache" -j "$JOBS"
  exec 9>&-
}

usage() {
  sed -n '/^set -euo/q;2,$p' "$ROOT/tf" | sed 's/^# \{0,1\}//'
}

cmd="${1:-help}"
[[ $# -gt 0 ]] && shift
case "$cmd" in
  build)
    build
    log "build ready: programs in $BUILD_NAME/bin/"
    ;;
  test)
    build
    cd "$ROOT"
    # --no-tests=error: a run that finds no test at all is a failure.
    exec ctest --test-dir "$BUILD" --output-on-failure --no-tests=error -j"$JOBS" "$@"
    ;;
  run)
    [[ $# -ge 1 ]] || { usage >&2; exit 2; }
    build
    # Runs in the caller's directory, so relative paths mean what they say.
    # --ranks/--engine are ./tf's: mpirun starts N tf-run processes with --mpi.
    ranks="" engine="granted" keep="" out="" name="" args=()
    while [[ $# -gt 0 ]]; do
      case "$1" in
        --ranks | --engine)
          [[ $# -ge 2 ]] || { log "$1 needs a value"; exit 2; }
          if [[ "$1" == --ranks ]]; then ranks="$2"; else engine="$2"; fi
          shift 2 ;;
        --keep-ranks) keep="$1"; shift ;;
        --out | --set)
          # Seen here too: the ranks' folders are merged into the output directory.
          [[ $# -ge 2 ]] || { log "$1 needs a value"; exit 2; }
          [[ "$1" == --out ]] && out="$2"
          [[ "$1" == --set && "$2" == name=* ]] && name="${2#name=}"
          args+=("$1" "$2"); shift 2 ;;
        *) args+=("$1"); shift ;;
      esac
    done
    [[ -z "$keep" || -n "$ranks" ]] || { log "--keep-ranks: only with --ranks"; exit 2; }
    [[ -z "$ranks" || "$ranks" =~ ^[1-9][0-9]*$ ]] || { log "--ranks: expected a positive integer, got $ranks"; exit 2; }
    [[ "$engine" == granted || "$engine" == null ]] || { log "--engine: expected granted or null, got $engine"; exit 2; }
    [[ -z "$ranks" ]] && exec "$BIN/tf-run" "${args[@]}"
    [[ -f "$BUILD/lib/libtraining-fabric-mpi.so" ]] ||
      { log "--ranks: this build has no MPI engine (ns3 source or libopenmpi-dev missing; see ./tf build)"; exit 2; }
    # Open MPI refuses root unless told (containers, CI).
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    # tf-run's own default output directory, results/<name>, so that every
    # rank's folder (rank r: DIR.rank<r>) is named after rank 0's.
    if [[ -z "$out" && -z "$name" && ${#args[@]} -gt 0 && -f "${args[0]}" ]]; then
      name="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("name",""))' \
              "${args[0]}" 2>/dev/null || true)"
    fi
    if [[ -z "$out" && -n "$name" ]]; then out="results/$name"; args+=(--out "$out"); fi
    rc=0
    mpirun --oversubscribe -np "$ranks" "$BIN/tf-run" "${args[@]}" --mpi "$engine" || rc=$?
    # One set of result files, as a one-process run writes (tools/merge-ranks.py).
    # Only after a run that wrote results: completed (0), stop reached (3), stalled (4).
    if [[ -n "$out" && ($rc -eq 0 || $rc -eq 3 || $rc -eq 4) ]]; then
      python3 "$ROOT/contrib/training-fabric/tools/merge-ranks.py" "$out" "$ranks" $keep ||
        { [[ $rc -ne 0 ]] || rc=1; }
    fi
    exit "$rc"
    ;;
  sweep)
    build
    # build-pgo/bin's tf-run under TF_PGO=1 (sweep.py reads TF_BIN_DIR).
    [[ -z "$PGO" ]] || export TF_BIN_DIR="$BIN"
    # Runs in the caller's directory, as ./tf run does.
    exec python3 "$ROOT/contrib/training-fabric/tools/sweep.py" "$@"
    ;;
  demo)
    build
    [[ -z "$PGO" ]] || export TF_BIN_DIR="$BIN" # the studies run tf-run through sweep.py
    cd "$ROOT"
    # The flagship study: ECMP (20 hash seeds) vs balanced static routing;
    # --study NAME runs examples/NAME/run.py instead.
    script="$DEMO_SCRIPT"
    if [[ "${1:-}" == "--study" ]]; then
      [[ $# -ge 2 && -f "examples/$2/run.py" ]] ||
        { log "--study: expected one of: $(cd examples && ls -d */ | tr -d / | paste -sd, -)"; exit 2; }
      script="examples/$2/run.py"
      shift 2
    fi
    exec python3 "$script" "$@"
    ;;
  bench)
    build
    cd "$ROOT"
    # bench/<name>.cc -> build/bin/bench-<name> (not a glob of build/bin,
    # which may still hold the binary of a deleted benchmark).
    shopt -s nullglob
    sources=(bench/*.cc)
    [[ ${#sources[@]} -gt 0 ]] || die "no benchmarks in bench/"
    status=0
    for src in "${sources[@]}"; do
      b="$BIN/bench-$(basename "$src" .cc)"
      [[ -x "$b" ]] || { log "missing $b"; status=1; continue; }
      "$b" || { log "$(basename "$b") failed"; status=1; }
    done
    exit $status
    ;;
  sanitize)
    # The same suite built with AddressSanitizer and UndefinedBehaviorSanitizer
    # (-O1: sanitizers need no more, and it compiles fastest); its
    # HostileInputs test runs every hostile input against the sanitized
    # tf-run. Any report fails the run.
    BUILD_NAME="build-sanitize"
    BUILD="$ROOT/$BUILD_NAME"
    BIN="$BUILD/bin"
    BUILD_TYPE="Sanitize"
    CMAKE_ARGS=(-DTF_SANITIZE=ON)
    build
    cd "$ROOT"
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
    export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
    exec ctest --test-dir "$BUILD" --output-on-failure --no-tests=error -j"$JOBS" "$@"
    ;;
  dropin)
    dropin
    # --no-tests=error: a run that finds no test at all is a failure.
    exec ctest --test-dir "$DROPIN_TREE/cmake-cache" -L '^training-fabric$' --output-on-failure \
      --no-tests=error -j"$JOBS" "$@"
    ;;
  help | -h | --help)
    usage
    ;;
  *)
    log "unknown command: $cmd"
    usage >&2
    exit 2
    ;;
esac
