#!/usr/bin/env bash
# Builds pkg/core.wasm byte-for-byte reproducibly with Debian's rustc (1.63) and wasm-opt; an
# argument names another output file (the reproducibility check builds beside pkg/, never over it).
# Installs the toolchain with apt when it is missing (see docs/ARCHITECTURE.md §10).
set -euo pipefail
out=$(realpath -m "${1:-$(dirname "$0")/../pkg/core.wasm}")
cd "$(dirname "$0")/.."

if [ ! -d /usr/lib/rustlib/wasm32-unknown-unknown ] || ! command -v wasm-opt >/dev/null || [ ! -x /usr/bin/cargo ]; then
  echo "installing the Debian Rust/WASM toolchain" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 \
    rustc cargo libstd-rust-dev-wasm32 lld binaryen >/dev/null
fi

if command -v rustup >/dev/null; then
  rustup toolchain list | grep -q '^debian' || rustup toolchain link debian /usr
  cargo=(cargo +debian)
else
  cargo=(/usr/bin/cargo)
fi

# Paths of this checkout and of the user's cargo home must not end up in the module. Saturating
# float-to-int (WASM 2.0, in every engine we target) turns each f64-to-i64 cast into one instruction.
export RUSTFLAGS="-C target-feature=+nontrapping-fptoint --remap-path-prefix=$PWD=/core-wasm --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
export SOURCE_DATE_EPOCH=0
"${cargo[@]}" build --quiet --locked --release --lib --target wasm32-unknown-unknown

mkdir -p "$(dirname "$out")"
wasm-opt -O3 --strip-debug --strip-producers --enable-sign-ext --enable-mutable-globals --enable-nontrapping-float-to-int \
  target/wasm32-unknown-unknown/release/access_window.wasm -o "$out"
echo "$out: $(wc -c <"$out") bytes, sha256 $(sha256sum "$out" | cut -c1-16)"
