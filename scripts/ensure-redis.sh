#!/usr/bin/env bash
# Makes sure Debian's redis-server is installed for the scale-out tests (two instances sharing one
# Redis). Installs it with apt-get when running as root.
set -euo pipefail
if command -v "${REDIS_SERVER:-redis-server}" > /dev/null; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "redis-server is missing: run 'sudo apt-get install -y redis-server' (or set REDIS_SERVER)." >&2
  exit 1
fi
echo "Installing Debian's redis-server for the scale-out tests…"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq redis-server > /dev/null
redis-server --version
