#!/usr/bin/env bash
# Fuzz the input readers with libFuzzer for a bounded time.
#   fuzz/run.sh [seconds] [target ...]     (default 60 s each, all targets; needs clang and ./tf build)
# Targets:
#   chakra-reader-fuzz    Chakra ET and text traces      seeds: fuzz/corpus
#   scenario-reader-fuzz  scenario files + --set values  seeds: fuzz/corpus-scenario
#   topology-file-fuzz    HPCC-style topology files      seeds: fuzz/corpus-topology
# Each target and the readers it exercises are compiled with clang's fuzzer,
# address and undefined-behaviour instrumentation; the rest of the module
# links from the regular build (files that register ns-3 TypeIds or log
# components cannot be compiled twice into one process). New inputs go to
# build/fuzz/<target>/corpus, crashes to build/fuzz/<target>/ (keep each as a
# regression seed in the target's seed folder once fixed). The last line per
# target gives its runs and time; the exit code is non-zero if any target
# found a crash, leak, timeout or out-of-memory input.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_TO_RUN="${1:-60}"
shift || true
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(chakra-reader-fuzz scenario-reader-fuzz topology-file-fuzz)
command -v clang++ >/dev/null || { echo "fuzz: clang++ is needed (apt-get install clang)" >&2; exit 2; }
[[ -f "$ROOT/build/lib/libtraining-fabric.so" ]] || "$ROOT/tf" build
PROTO="$ROOT/build/contrib/training-fabric/proto"
H="$ROOT/contrib/training-fabric/helper"
FLAGS=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$ROOT/build/include" -I"$PROTO" -I/usr/include -I/usr/include/libxml2)
LIBS=(-L"$ROOT/build/lib" -Wl,-rpath,"$ROOT/build/lib" -ltraining-fabric
      -lns3-core -lns3-network -lns3-internet -lprotobuf -lz)

sources() {
  case "$1" in
    chakra-reader-fuzz)
      echo "$H/execution-trace.cc $H/text-trace.cc $H/trace-workload.cc $H/input-file.cc" \
           "$PROTO/et_def.pb.cc" ;;
    scenario-reader-fuzz)
      echo "$H/scenario-config.cc $H/input-file.cc $H/run-cost.cc $H/collective-plan.cc" \
           "$H/execution-trace.cc $H/topology-file-helper.cc $PROTO/et_def.pb.cc" ;;
    topology-file-fuzz)
      echo "$H/topology-file-helper.cc $H/fabric-topology-helper.cc $H/input-file.cc" \
           "$H/scenario-config.cc" ;;
    *) echo "fuzz: unknown target $1" >&2; exit 2 ;;
  esac
}
seeds() {
  case "$1" in
    chakra-reader-fuzz) echo "$ROOT/fuzz/corpus" ;;
    scenario-reader-fuzz) echo "$ROOT/fuzz/corpus-scenario" ;;
    topology-file-fuzz) echo "$ROOT/fuzz/corpus-topology" ;;
  esac
}

status=0
for t in "${TARGETS[@]}"; do
  out="$ROOT/build/fuzz/$t"
  mkdir -p "$out/corpus"
  # shellcheck disable=SC2046
  clang++ "${FLAGS[@]}" -o "$out/$t" "$ROOT/fuzz/$t.cc" $(sources "$t") "${LIBS[@]}"
  # Runs from the repository root: scenario seeds name traces/ and examples/ files.
  log="$out/fuzz.log"
  if ! (cd "$ROOT" && "$out/$t" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=25 \
          -rss_limit_mb=2048 -artifact_prefix="$out/" "$out/corpus" "$(seeds "$t")") \
        >"$log" 2>&1; then
    status=1
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5 >&2 || tail -n 20 "$log" >&2
  fi
  echo "$t: $(grep -E '^Done [0-9]+ runs' "$log" | tail -1 || echo 'no summary (see '"$log"')')"
done
exit $status
