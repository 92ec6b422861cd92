#!/usr/bin/env bash
# The GPU check of issue #20 (docs/gpu-check.md): on a machine with an NVIDIA GPU and PyTorch 2.x (no network, no
# apt), builds diamond-train against that PyTorch's libtorch with CUDA, then checks it on the GPU (every example,
# deterministic resume after SIGKILL, GPU checkpoint -> CPU resume, ResNet-18 throughput against PyTorch eager,
# 2-rank NCCL) and writes one JSON report, OUT/gpu_check.json. A failing step is recorded with its error text and the
# next one runs anyway. Loopback only; nothing is fetched.
#
#   tools/gpu_check.sh [--out DIR] [--build DIR] [--work DIR] [--skip-build] [-- checks.py options]
#
# Run tools/gpu_check/prepare.sh on a Debian build machine first: it copies the header-only dependencies that a GPU
# machine may lack into tools/gpu_check/third_party/include (carry that ignored folder along).
set -u

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT=/tmp/diamond-gpu-check
BUILD=""
WORK=/tmp/diamond-gpu-check-work
SKIP_BUILD=0
CHECK_ARGS=()
TARGET_S=300

usage() {
  sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="${2:?--out needs a folder}"; shift 2 ;;
    --out=*) OUT="${1#*=}"; shift ;;
    --build) BUILD="${2:?--build needs a folder}"; shift 2 ;;
    --build=*) BUILD="${1#*=}"; shift ;;
    --work) WORK="${2:?--work needs a folder}"; shift 2 ;;
    --work=*) WORK="${1#*=}"; shift ;;
    --skip-build) SKIP_BUILD=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; CHECK_ARGS=("$@"); break ;;
    *) echo "gpu_check.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done

CLEAN_BUILD=0
if [ -z "$BUILD" ]; then
  BUILD=/tmp/diamond-gpu-check-build
  CLEAN_BUILD=1 # the default folder is built from scratch, so the build time is a clean build's
fi
mkdir -p "$OUT" "$WORK" || { echo "gpu_check.sh: cannot create $OUT or $WORK" >&2; exit 2; }
OUT="$(cd "$OUT" && pwd)"
WORK="$(cd "$WORK" && pwd)"
BUILD_LOG="$OUT/build.log"
RECORD="$WORK/build_record.json"
: >"$BUILD_LOG"

PYTHON="${PYTHON:-$(command -v python3 || true)}" # the Python whose torch is built against and compared with
if [ -z "$PYTHON" ]; then
  echo "gpu_check.sh: python3 is required (the PyTorch installation to build against; or set PYTHON)" >&2
  exit 2
fi
# cmake and ninja may come as Python packages next to torch (a virtual environment's bin folder).
PYBIN="$(dirname "$("$PYTHON" -c 'import sys; print(sys.executable)')")"
case ":$PATH:" in *":$PYBIN:"*) ;; *) PATH="$PATH:$PYBIN" ;; esac
export PATH

now() { date +%s.%N; }

# record STATUS START END ERROR [KEY=VALUE ...]: writes the build step's record (figures as strings, numbers or
# booleans) to $RECORD; ERROR "" = none, ERROR "@log" = the significant lines of the build log.
record() {
  "$PYTHON" - "$RECORD" "$BUILD_LOG" "$TARGET_S" "$@" <<'PY'
import json, sys
path, log, target, status, start, end, error = sys.argv[1:8]
figures = {}
for item in sys.argv[8:]:
    key, _, value = item.partition("=")
    if value in ("true", "false"):
        value = value == "true"
    elif key == "jobs" or key.endswith("_s"):
        value = float(value) if "." in value else int(value)
    figures[key] = value
seconds = round(float(end) - float(start), 2) if start and end else 0.0
if status != "skipped":
    figures["target_s"] = int(target)
    figures["within_target"] = status == "ok" and seconds < int(target)
if error == "@log":
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        lines = []
    key = [l for l in lines if any(w in l for w in ("error", "Error", "ERROR", "undefined reference", "not found"))]
    error = "\n".join(key[:25] + ["--- last lines of build.log:"] + lines[-15:])[-6000:]
record = {"name": "build", "status": status, "seconds": seconds, "figures": figures, "error": error or None}
json.dump(record, open(path, "w"), indent=2, sort_keys=True)
PY
}

build() {
  local start configured end prefix gen jobs nvcc cuda_root arch nccl_dir cxx_flags tp cuda_build missing hdf5
  start="$(now)"
  jobs="$(nproc 2>/dev/null || echo 4)"
  if ! command -v cmake >/dev/null; then
    record failed "$start" "$(now)" "cmake not found (PATH and $PYBIN)"
    return
  fi
  if command -v ninja >/dev/null; then gen=Ninja; else gen="Unix Makefiles"; fi
  prefix="$("$PYTHON" -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>>"$BUILD_LOG")"
  if [ -z "$prefix" ]; then
    record failed "$start" "$(now)" "@log" generator="$gen"
    return
  fi
  [ "$CLEAN_BUILD" = 1 ] && rm -rf "$BUILD"
  local args=(-S "$ROOT" -B "$BUILD" -G "$gen" -DDIAMOND_ENGINE_ONLY=ON -DCMAKE_BUILD_TYPE=Release
              "-DCMAKE_PREFIX_PATH=$prefix")
  tp="$ROOT/tools/gpu_check/third_party/include"
  if [ -d "$tp" ]; then args+=("-DDIAMOND_THIRD_PARTY_INCLUDE=$tp"); else tp=""; fi
  # The CUDA toolkit that libtorch's CMake files look for (nvcc, headers).
  nvcc="$(command -v nvcc || true)"
  if [ -z "$nvcc" ]; then
    for c in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc /opt/cuda/bin/nvcc; do
      if [ -x "$c" ]; then nvcc="$c"; break; fi
    done
  fi
  cuda_root=""
  if [ -n "$nvcc" ]; then
    cuda_root="$(cd "$(dirname "$nvcc")/.." && pwd)"
    export CUDACXX="$nvcc" CUDA_HOME="${CUDA_HOME:-$cuda_root}"
    PATH="$PATH:$(dirname "$nvcc")"
    args+=("-DCUDAToolkit_ROOT=$cuda_root" "-DCUDA_TOOLKIT_ROOT_DIR=$cuda_root")
  fi
  # The GPU's architecture, so libtorch's CMake files need not compile a probe to find it.
  arch="$("$PYTHON" -c 'import torch; print("%d.%d" % torch.cuda.get_device_capability(0))' 2>/dev/null || true)"
  if [ -n "$arch" ]; then
    export TORCH_CUDA_ARCH_LIST="$arch"
    args+=("-DCMAKE_CUDA_ARCHITECTURES=${arch/./}")
  fi
  # nccl.h (ProcessGroupNCCL.hpp includes it): the toolkit's or the system's, else the NCCL wheel's headers.
  nccl_dir=""
  for d in "${cuda_root:-/nonexistent}/include" /usr/include /usr/local/include; do
    if [ -f "$d/nccl.h" ]; then nccl_dir="$d"; break; fi
  done
  cxx_flags=""
  if [ -z "$nccl_dir" ]; then
    nccl_dir="$("$PYTHON" - <<'PY' 2>/dev/null
import glob, os, site, sys
roots = list(site.getsitepackages()) + [site.getusersitepackages()] + [os.path.dirname(os.path.dirname(
    __import__("torch").__file__))]
for root in roots:
    for path in sorted(glob.glob(os.path.join(root, "nvidia", "**", "nccl.h"), recursive=True)):
        print(os.path.dirname(path))
        sys.exit(0)
PY
)"
    [ -n "$nccl_dir" ] && cxx_flags="-idirafter $nccl_dir"
  fi
  [ -n "$cxx_flags" ] && args+=("-DCMAKE_CXX_FLAGS=$cxx_flags")

  echo "== cmake ${args[*]}" >>"$BUILD_LOG"
  if ! cmake "${args[@]}" >>"$BUILD_LOG" 2>&1; then
    record failed "$start" "$(now)" "@log" phase=configure generator="$gen" torch_prefix="$prefix" \
      nvcc="${nvcc:-none}" nccl_include="${nccl_dir:-none}" arch="${arch:-unknown}"
    return
  fi
  configured="$(now)"
  echo "== cmake --build $BUILD --target diamond-train -j $jobs" >>"$BUILD_LOG"
  if ! cmake --build "$BUILD" --target diamond-train -j "$jobs" >>"$BUILD_LOG" 2>&1; then
    record failed "$start" "$(now)" "@log" phase=compile generator="$gen" jobs="$jobs" torch_prefix="$prefix" \
      nvcc="${nvcc:-none}" nccl_include="${nccl_dir:-none}" arch="${arch:-unknown}"
    return
  fi
  end="$(now)"
  cuda_build=false
  grep -q 'DIAMOND_WITH_CUDA' "$BUILD/compile_commands.json" 2>/dev/null && cuda_build=true
  hdf5=true
  grep -q 'without the hdf5 data source' "$BUILD_LOG" && hdf5=false
  missing="$(ldd "$BUILD/bin/diamond-train" 2>&1 | grep 'not found' | tr -s ' \t\n' ' ')"
  local status=ok error=""
  if [ "$cuda_build" = false ]; then
    status=failed
    error="built without CUDA: the libtorch in $prefix gave no TORCH_CUDA_LIBRARIES (a CPU-only PyTorch?)"
  elif [ -n "$missing" ]; then
    status=failed
    error="diamond-train misses shared libraries: $missing"
  fi
  record "$status" "$start" "$end" "$error" generator="$gen" jobs="$jobs" torch_prefix="$prefix" \
    configure_s="$("$PYTHON" -c "print(round($configured - $start, 2))")" \
    compile_s="$("$PYTHON" -c "print(round($end - $configured, 2))")" cuda_build="$cuda_build" hdf5="$hdf5" \
    nvcc="${nvcc:-none}" nccl_include="${nccl_dir:-none}" arch="${arch:-unknown}" third_party="${tp:-none}"
}

if [ "$SKIP_BUILD" = 1 ]; then
  record skipped "" "" "--skip-build: using $BUILD/bin/diamond-train as it is"
else
  echo "gpu_check.sh: building diamond-train in $BUILD (log: $BUILD_LOG)"
  build
fi
ENGINE="$BUILD/bin/diamond-train"
[ -x "$ENGINE" ] || echo "gpu_check.sh: $ENGINE does not exist; the checks will record that" >&2

"$PYTHON" "$ROOT/tools/gpu_check/checks.py" --engine "$ENGINE" --out "$OUT" --repo "$ROOT" --work "$WORK" \
  --build-record "$RECORD" "${CHECK_ARGS[@]}"
rc=$?
# checks.py writes the report after every check; should it die before the first, the report still exists.
"$PYTHON" - "$OUT/gpu_check.json" "$RECORD" "$rc" <<'PY'
import json, os, sys
report, record, rc = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    json.load(open(report))
except (OSError, ValueError):
    checks = []
    if os.path.exists(record):
        checks.append(json.load(open(record)))
    checks.append({"name": "checks", "status": "failed", "seconds": 0, "figures": {},
                   "error": f"tools/gpu_check/checks.py exited with {rc} before writing a report (see its output)"})
    json.dump({"format": "diamond.gpu_check/1", "checks": checks}, open(report, "w"), indent=2)
    print(f"gpu_check.sh: wrote a minimal report to {report}", file=sys.stderr)
PY
exit "$rc"
