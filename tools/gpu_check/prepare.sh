#!/usr/bin/env bash
# Run on a Debian machine that builds Diamond (nlohmann-json3-dev, libstb-dev, zlib1g-dev installed), before the GPU
# check: copies the header-only dependencies of an engine-only build into tools/gpu_check/third_party/include, which
# travels to the GPU machine as an ignored path (docs/gpu-check.md) and is passed to CMake as
# -DDIAMOND_THIRD_PARTY_INCLUDE there, used only for what that machine lacks (cmake/DiamondEngineOnlyDeps.cmake).
#   nlohmann/        nlohmann-json (the whole folder: json.hpp includes its detail headers)
#   stb/stb_image.h  the one stb header the engine includes (engine/train/data/image_folder_source.cpp)
#   zlib/            zlib.h and zconf.h (the library itself is libz.so.1, present wherever Python is)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$here/third_party/include"
nlohmann="${NLOHMANN_DIR:-/usr/include/nlohmann}"
stb="${STB_DIR:-/usr/include/stb}"
zlib="${ZLIB_DIR:-/usr/include}"

for f in "$nlohmann/json.hpp" "$stb/stb_image.h" "$zlib/zlib.h" "$zlib/zconf.h"; do
  if [ ! -f "$f" ]; then
    echo "prepare.sh: $f is missing (Debian: apt-get install nlohmann-json3-dev libstb-dev zlib1g-dev)" >&2
    exit 1
  fi
done
# The stb headers diamond-train includes (engine sources outside its tests and fuzz targets).
mapfile -t stb_headers < <(cd "$here/../.." &&
  grep -rhoE --include='*.cpp' --include='*.h' --exclude-dir=tests --exclude-dir=fuzz '#include <stb_[a-z_]+\.h>' engine |
  sed -E 's/.*<(.*)>/\1/' | sort -u)
if [ "${#stb_headers[@]}" -eq 0 ]; then
  echo "prepare.sh: found no stb include in engine/ (run from a Diamond checkout)" >&2
  exit 1
fi

rm -rf "$dest"
mkdir -p "$dest/stb" "$dest/zlib"
cp -r "$nlohmann" "$dest/nlohmann"
for h in "${stb_headers[@]}"; do cp "$stb/$h" "$dest/stb/"; done
cp "$zlib/zlib.h" "$zlib/zconf.h" "$dest/zlib/"
echo "prepare.sh: $(du -sh "$dest" | cut -f1) in $dest:"
(cd "$dest" && find . -maxdepth 2 -mindepth 1 | sort | sed 's/^/  /' | head -20)
