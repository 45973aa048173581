#!/usr/bin/env bash
# Installs Debian's redis-server and mosquitto when missing (tests and the bench run their own
# instances on 127.0.0.1; the system services the packages bring are not used).
set -euo pipefail
missing=()
command -v redis-server >/dev/null || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || missing+=(mosquitto)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
