#!/usr/bin/env bash
# Fuzz the execution-trace readers with libFuzzer for a bounded time.
#   fuzz/run.sh [seconds]      (default 60; needs clang and ./tf build)
# The reader and the target are compiled with clang's fuzzer, address and
# undefined-behaviour instrumentation; the rest of the module links from the
# regular build. The small seed corpus lives in fuzz/corpus; new inputs go to
# build/fuzz/corpus, crashes to build/fuzz/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_TO_RUN="${1:-60}"
OUT="$ROOT/build/fuzz"
command -v clang++ >/dev/null || { echo "fuzz: clang++ is needed (apt-get install clang)" >&2; exit 2; }
[[ -f "$ROOT/build/lib/libtraining-fabric.so" ]] || "$ROOT/tf" build
mkdir -p "$OUT/corpus"
PROTO="$ROOT/build/contrib/training-fabric/proto"
FLAGS=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I"$ROOT/build/include" -I"$PROTO" -I/usr/include -I/usr/include/libxml2)
clang++ "${FLAGS[@]}" -o "$OUT/chakra-reader-fuzz" \
  "$ROOT/fuzz/chakra-reader-fuzz.cc" \
  "$ROOT/contrib/training-fabric/helper/execution-trace.cc" \
  "$ROOT/contrib/training-fabric/helper/text-trace.cc" \
  "$ROOT/contrib/training-fabric/helper/trace-workload.cc" \
  "$PROTO/et_def.pb.cc" \
  -L"$ROOT/build/lib" -Wl,-rpath,"$ROOT/build/lib" -ltraining-fabric \
  -lns3-core -lns3-network -lns3-internet -lprotobuf -lz
cd "$OUT"
./chakra-reader-fuzz -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=10 \
  corpus "$ROOT/fuzz/corpus"
