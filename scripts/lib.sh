# Shared by start.sh and test.sh: installs what the project needs on a fresh machine.
export WRANGLER_SEND_METRICS=false
export CI=${CI:-true}
export NPM_CONFIG_AUDIT=false NPM_CONFIG_FUND=false NPM_CONFIG_UPDATE_NOTIFIER=false

apt_updated=0
apt_install() {
  # apt_install <command-to-check> <package...>
  local probe=$1; shift
  command -v "$probe" >/dev/null 2>&1 && return 0
  if [ "$apt_updated" = 0 ]; then apt-get update -qq >/dev/null; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# npm ci for a package folder, skipped when its lock file has not changed since the last install.
npm_install() {
  local dir=$1 stamp="$1/node_modules/.installed-lock"
  [ -f "$dir/package-lock.json" ] || return 0
  if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then return 0; fi
  echo "Installing npm packages in $dir ..."
  # npm ci installs exactly the lock and never rewrites it (the lock lists every platform's packages).
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$dir/package-lock.json" "$stamp"
}

build_console() {
  echo "Building the console ..."
  npx remix vite:build >/dev/null
}

# rustfmt over the core crate, read-only. rustup's default toolchain when there is one, else
# Debian's cargo with Debian's rustfmt (installed when missing).
core_fmt_check() {
  if ! cargo fmt --version >/dev/null 2>&1; then apt_install rustfmt rustfmt cargo || return 1; fi
  cargo fmt --check --manifest-path core-wasm/Cargo.toml
}
