#!/usr/bin/env bash
# Runs a command with Node.js NODE_MAJOR (default 22, the Dockerfile's) first on PATH:
#   bash scripts/with-node.sh node node_modules/jest/bin/jest.js --selectProjects unit
# The binary is the official build that npm publishes as the package `node-<platform>-<arch>`
# (what the `node` package installs, without its install script): only the npm registry is asked,
# once, and it is kept in NODE_CACHE (default ~/.cache/vision-node), outside the repository.
set -euo pipefail
major=${NODE_MAJOR:-22}
platform=$(node -p process.platform)
arch=$(node -p process.arch)
# Apple silicon's build has its own name (as in the `node` package's installer).
prefix=node
[ "$platform-$arch" = darwin-arm64 ] && prefix=node-bin
pkg="$prefix-$platform-$arch"
dir="${NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vision-node}/$major"
bin="$dir/node_modules/$pkg/bin/node"

if ! "$bin" --version 2>/dev/null | grep -q "^v$major\."; then
  echo "Installing Node.js $major ($pkg) into $dir" >&2
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$pkg@$major" >&2
fi
version=$("$bin" --version)
case "$version" in
  "v$major."*) ;;
  *) echo "Expected Node.js $major at $bin, found $version" >&2; exit 1 ;;
esac
echo "Node.js $version: $*" >&2
PATH="$(dirname "$bin"):$PATH" exec "$@"
