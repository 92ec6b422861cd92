#!/usr/bin/env bash
# Runs the libFuzzer targets of the engine readers and the package importer one after the other, each for
# SECONDS, from a copy of its corpus (tests/fuzz/corpus/<name>/), with the memory limits of tests/fuzz/README.md.
# Prints one summary line per target (executions, coverage, corpus) and exits non-zero when any target found a
# crash, a leak, a timeout or an allocation above the limit; the input is kept in OUT/<name>/ as crash-*, leak-*,
# oom-* or timeout-*.
#   tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS OUT [TARGET ...]     (FUZZ_FLAGS: more libFuzzer flags)
set -uo pipefail
build=${1:?build folder with bin/fuzz_*}
seconds=${2:?seconds per target}
out=${3:?folder for corpora, logs and findings}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(spec csv npy npz hdf5 idx image_folder checkpoint safetensors package)

# allocator_may_return_null: libhdf5 itself asks malloc for what a damaged file declares (2 TB for one corpus
# file); outside ASan that malloc fails and the open is refused, which is what the fuzzer should see too.
export ASAN_OPTIONS=detect_leaks=1:detect_container_overflow=0:allocator_may_return_null=1
export LSAN_OPTIONS=suppressions=$here/lsan.supp
export UBSAN_OPTIONS=print_stacktrace=1
status=0
mkdir -p "$out"
for t in "${targets[@]}"; do
  work=$out/$t
  mkdir -p "$work/corpus"
  extra=()
  if [ "$t" = spec ]; then # the spec corpus is the flat corpus/ folder
    find "$here/corpus" -maxdepth 1 -type f -exec cp -n {} "$work/corpus/" \;
    extra=(-dict="$here/spec.dict")
  else
    cp -n "$here/corpus/$t"/* "$work/corpus/" 2>/dev/null
  fi
  log=$work/fuzz.log
  (cd "$work" && "$build/bin/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -malloc_limit_mb=512 -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/" ${FUZZ_FLAGS:-} \
      "${extra[@]}" corpus) >"$log" 2>&1
  rc=$?
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -nE 's/.* cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/.*/cov \1, features \2, corpus \3/p' <<<"$last")
  inputs=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)
  # A finding ends the fuzzer with a non-zero exit. fuzz_hdf5's reading child (data/isolated_reader.cpp) inherits
  # libFuzzer's handlers and saves the inputs that crash libhdf5 there too, while the engine carries on.
  if [ "$rc" -eq 0 ]; then
    echo "fuzz_$t: clean, ${execs:-?} executions in ${seconds} s, ${cov:-no stats}" \
      "$([ "$inputs" -gt 0 ] && echo "($inputs inputs crashed the isolated reading child and became errors)")"
  else
    echo "fuzz_$t: FINDING (exit $rc), ${execs:-?} executions in ${seconds} s, ${cov:-no stats}"
  fi
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -m1 -A12 -E 'ERROR|runtime error|out-of-memory|timeout' "$log" | sed 's/^/  /'
  fi
done
exit $status
