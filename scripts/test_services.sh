#!/usr/bin/env bash
# Sourced by scripts/test.sh: installs and starts the system parts the tests need.
#   - Debian's chromium + fonts-ipafont-gothic (browser tests, Japanese glyphs)
#   - Debian's postgresql: a throw-away cluster on 127.0.0.1 (database tests), stopped on exit
#   - bcdice@4.9.0 from the npm registry (`npm pack`), for BCDice's own test data
# Each exports the variable the tests read.  With CI=true a part that cannot be had is a
# failure of the test that needs it (the tests never skip in CI).
set -u

IKUSA_CACHE="${IKUSA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ikusa}"
mkdir -p "$IKUSA_CACHE"

_apt_updated=""
_apt_install() {  # install Debian packages that are missing (as root, apt-get update once)
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "test_services: cannot install ${missing[*]} (not root or no apt-get)" >&2; return 1
  fi
  if [ -z "$_apt_updated" ]; then apt-get update -qq >/dev/null && _apt_updated=yes; fi
  echo "test_services: installing ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- browser --------------------------------------------------------------------------
if _apt_install chromium fonts-ipafont-gothic && [ -x /usr/bin/chromium ]; then
  export IKUSA_CHROMIUM=/usr/bin/chromium
fi

# --- BCDice test data ---------------------------------------------------------------------
BCDICE_DIR="$IKUSA_CACHE/bcdice-4.9.0"
if [ ! -f "$BCDICE_DIR/package/lib/bcdice/test_data.json" ] && command -v npm >/dev/null; then
  rm -rf "$BCDICE_DIR.tmp" && mkdir -p "$BCDICE_DIR.tmp"
  if (cd "$BCDICE_DIR.tmp" && npm pack --silent bcdice@4.9.0 >/dev/null 2>&1 && tar xzf bcdice-4.9.0.tgz); then
    rm -rf "$BCDICE_DIR" && mv "$BCDICE_DIR.tmp" "$BCDICE_DIR"
  else
    echo "test_services: npm pack bcdice@4.9.0 failed" >&2; rm -rf "$BCDICE_DIR.tmp"
  fi
fi
if [ -f "$BCDICE_DIR/package/lib/bcdice/test_data.json" ]; then
  export IKUSA_BCDICE_TEST_DATA="$BCDICE_DIR/package/lib/bcdice/test_data.json"
fi

# --- PostgreSQL -------------------------------------------------------------------------
_pg_stop() {
  if [ -n "${_PG_DATA:-}" ] && [ -d "$_PG_DATA" ]; then
    runuser -u postgres -- "$_PG_BIN/pg_ctl" -D "$_PG_DATA" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$_PG_DATA"
  fi
}
if [ -z "${IKUSA_TEST_PG_URL:-}" ] && _apt_install postgresql; then
  _PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$_PG_BIN" ] && id postgres >/dev/null 2>&1; then
    _PG_DATA=$(mktemp -d /tmp/ikusa-pg.XXXXXX) && chown postgres "$_PG_DATA"
    _PG_PORT=$((40000 + RANDOM % 20000))
    if runuser -u postgres -- "$_PG_BIN/initdb" -D "$_PG_DATA" -A trust -U postgres >/dev/null 2>&1 \
       && runuser -u postgres -- "$_PG_BIN/pg_ctl" -D "$_PG_DATA" -w -l "$_PG_DATA/log" \
            -o "-h 127.0.0.1 -p $_PG_PORT -k $_PG_DATA -c max_connections=200 -c fsync=off" start >/dev/null; then
      export IKUSA_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$_PG_PORT/postgres"
      trap _pg_stop EXIT
    else
      echo "test_services: could not start a PostgreSQL cluster" >&2; cat "$_PG_DATA/log" >&2 2>/dev/null; rm -rf "$_PG_DATA"
    fi
  fi
fi
