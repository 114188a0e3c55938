/**
 * Login and upload cost under different environments of the server process, interleaved round by round
 * (issue 21: glibc's malloc settings). Per round and variant: the built server on a fresh copy of `<grown dir>`
 * with npm start's variables and the variant's added (and, when the variant has `NODE_FLAGS`, those node flags instead of npm
 * start's: `{"before":{"NODE_FLAGS":""},"after":{}}`), `n` logins and `n` uploads of a 1600×1200 JPEG one at a time
 * (`timeLoginsAndUploads`), then its RSS. Prints per variant: wall p50/p95 (first request of each series left
 * out), the server's CPU per login and per upload by round, and the RSS by round.
 *
 *   npx tsx scripts/bench/allocator-ab.ts '{"none":{},"arena1":{"MALLOC_ARENA_MAX":"1"}}' [rounds=3] [n=20] [grown dir]
 *
 * The grown dir only needs `aukcije.sqlite` (and `session-secret`): e.g. the database file of one grown by
 * `scripts/bench/lib/grow.ts`, without its media.
 */
import fs from 'node:fs';
import { timeLoginsAndUploads } from './lib/memory-on-grown-db';
import { freshDataDir, rssBytes, startServer } from './lib/proc';
import { fmt, median, percentile } from './lib/stats';

interface Figures {
  login: number[];
  upload: number[];
  loginCpu: number[];
  uploadCpu: number[];
  rss: number[];
}

async function main(): Promise<void> {
  const [variantsJson, roundsArg, nArg, grown] = process.argv.slice(2);
  if (!variantsJson || !grown) {
    console.error("usage: npx tsx scripts/bench/allocator-ab.ts '{\"name\":{\"VAR\":\"value\"},…}' [rounds] [n] <grown dir>");
    process.exit(2);
  }
  const variants = JSON.parse(variantsJson) as Record<string, Record<string, string>>;
  const rounds = Number(roundsArg ?? 3);
  const n = Number(nArg ?? 20);
  const res: Record<string, Figures> = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, env] of Object.entries(variants)) {
      const dir = freshDataDir('ab');
      fs.cpSync(grown, dir, { recursive: true });
      const { NODE_FLAGS, ...vars } = env;
      const nodeFlags = NODE_FLAGS === undefined ? undefined : NODE_FLAGS.split(/\s+/).filter(Boolean);
      const server = await startServer({ dataDir: dir, env: vars, nodeFlags });
      try {
        const t = await timeLoginsAndUploads(server.url, dir, n, `ab${r}-${name.replace(/\W/g, '')}-`, server.pid);
        const f = (res[name] ??= { login: [], upload: [], loginCpu: [], uploadCpu: [], rss: [] });
        f.login.push(...t.loginMs.slice(1));
        f.upload.push(...t.uploadMs.slice(1));
        f.loginCpu.push(t.loginCpuMs);
        f.uploadCpu.push(t.uploadCpuMs);
        f.rss.push(rssBytes(server.pid) / 1e6);
        console.error(`round ${r + 1} ${name}: login CPU ${fmt(t.loginCpuMs)} ms, upload CPU ${fmt(t.uploadCpuMs)} ms`);
      } finally {
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const list = (xs: number[], d = 1) => xs.map((x) => fmt(x, d)).join('/');
  for (const [name, f] of Object.entries(res)) {
    console.log(
      `${name}: login p50 ${fmt(median(f.login))} p95 ${fmt(percentile(f.login, 95))} ms, CPU ${list(f.loginCpu)} ms; ` +
        `upload p50 ${fmt(median(f.upload))} p95 ${fmt(percentile(f.upload, 95))} ms, CPU ${list(f.uploadCpu)} ms; RSS ${list(f.rss, 0)} MB`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
