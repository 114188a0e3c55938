#!/usr/bin/env node
// What the PostgreSQL and multi-node suites need: a PostgreSQL and a Redis on loopback. `npm test` never skips
// those suites: where nothing answers it starts the service, installs Debian's package first when it runs as
// root (as it does for Chromium), or stops with the exact command to run.
import fs from 'node:fs';
import net from 'node:net';
import { execSync } from 'node:child_process';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function sh(cmd) {
  console.log(`$ ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
}

function aptInstall(pkg) {
  sh('apt-get update -qq');
  sh(`env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`);
}

/** Answers a Redis PING over a raw socket (no client library needed for the check). */
function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(2000, () => done(false));
    s.on('error', () => done(false));
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

async function postgresError(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err;
  } finally {
    await client.end().catch(() => {});
  }
}

function isLoopback(url) {
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(new URL(url).hostname);
}

function clusterVersions() {
  return fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql') : [];
}

/** A cluster this script installed itself: the test user connects over loopback without a password. */
function trustLoopback(version) {
  const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
  const line = 'host all postgres 127.0.0.1/32 trust';
  const text = fs.readFileSync(hba, 'utf8');
  if (!text.includes(line)) fs.writeFileSync(hba, `${line}\n${text}`);
}

function createDatabaseIfMissing(url) {
  const db = new URL(url).pathname.slice(1) || 'postgres';
  if (db === 'postgres') return;
  sh(`su postgres -c "psql -tAc \\"select 1 from pg_database where datname='${db}'\\" | grep -q 1 || createdb ${db}"`);
}

export async function ensurePostgres(url = TEST_DATABASE_URL) {
  if (!(await postgresError(url))) return url;
  const start = `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`;
  if (!isLoopback(url)) throw new Error(`PostgreSQL na ${url} ne odgovara (TEST_DATABASE_URL). Pokrenite ga, pa ponovo npm test.`);
  if (!isRoot) {
    throw new Error(`PostgreSQL ne odgovara na ${url}. Pokrenite: sudo ${start} (ili: sudo apt-get install -y postgresql), pa ponovo npm test.`);
  }
  let installed = false;
  if (clusterVersions().length === 0) {
    console.log('Instaliram Debian postgresql za testove na PostgreSQL-u...');
    aptInstall('postgresql');
    installed = true;
  }
  const [version] = clusterVersions();
  if (installed) trustLoopback(version);
  sh(`pg_ctlcluster --skip-systemctl-redirect ${version} main start || pg_ctlcluster --skip-systemctl-redirect ${version} main reload`);
  for (let i = 0; i < 30 && (await postgresError(url.replace(/\/[^/]*$/, '/postgres'))); i++) await sleep(500);
  createDatabaseIfMissing(url);
  const err = await postgresError(url);
  if (err) throw new Error(`PostgreSQL na ${url} i dalje ne odgovara (${err.message}). Pokrenite: ${start}`);
  return url;
}

export async function ensureRedis(url = TEST_REDIS_URL) {
  if (await redisAnswers(url)) return url;
  const start = 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no';
  if (!isLoopback(url)) throw new Error(`Redis na ${url} ne odgovara (TEST_REDIS_URL). Pokrenite ga, pa ponovo npm test.`);
  if (!isRoot) throw new Error(`Redis ne odgovara na ${url}. Pokrenite: ${start} (ili: sudo apt-get install -y redis-server), pa ponovo npm test.`);
  try {
    execSync('command -v redis-server', { stdio: 'ignore', shell: '/bin/sh' });
  } catch {
    console.log('Instaliram Debian redis-server za testove sa više čvorova...');
    aptInstall('redis-server');
  }
  const port = new URL(url).port || '6379';
  sh(`redis-server --daemonize yes --bind 127.0.0.1 --port ${port} --save "" --appendonly no`);
  for (let i = 0; i < 20 && !(await redisAnswers(url)); i++) await sleep(250);
  if (!(await redisAnswers(url))) throw new Error(`Redis na ${url} i dalje ne odgovara. Pokrenite: ${start}`);
  return url;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await ensurePostgres();
  await ensureRedis();
  console.log(`PostgreSQL: ${TEST_DATABASE_URL}\nRedis: ${TEST_REDIS_URL}`);
}
