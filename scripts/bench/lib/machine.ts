import os from 'node:os';
import { execFileSync, execSync } from 'node:child_process';
import { sqliteDriverPackage } from '../../../server/db/sqlite-driver';
import { SERVER_NODE } from './proc';

/** What the figures were measured on. */
export function machine(): Record<string, string> {
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  let load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  let sqlite = '';
  try {
    sqlite = execSync(`${JSON.stringify(process.execPath)} -e "const D=require('${sqliteDriverPackage()}');console.log(new D(':memory:').prepare('select sqlite_version() v').get().v)"`, { encoding: 'utf8' }).trim();
  } catch {
    sqlite = 'unknown';
  }
  if (!load) load = 'n/a';
  return {
    nproc: String(os.availableParallelism()),
    cpu,
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    ...(SERVER_NODE !== process.execPath
      ? { 'server node (BENCH_SERVER_NODE)': execFileSync(SERVER_NODE, ['--version'], { encoding: 'utf8' }).trim() }
      : {}),
    platform: `${os.platform()} ${os.release()}`,
    sqlite,
    'load average at start': load,
  };
}
