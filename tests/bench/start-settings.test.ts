/**
 * Issue 21's memory settings live in one place, package.json's start script, and the bench's servers run
 * with them (scripts/bench/lib/proc.ts reads that script), so a figure in docs/performance.md is what a user's
 * `npm start` does. Guards that the settings are there, that this Node accepts every flag (a V8 flag a later
 * Node drops would stop `npm start`), and that the bench passes them on.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, serverCommand, startSettings } from '../../scripts/bench/lib/proc';

const script = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;

describe('npm start memory settings (issue 21)', () => {
  it('keeps one malloc arena and a small V8 heap, without compacting the whole heap in every full GC', () => {
    const s = startSettings(script);
    expect(s.env).toEqual({ MALLOC_ARENA_MAX: '1' });
    // --compact-on-every-full-gc (issue 21) was dropped in issue 30: with 1,000 sockets each full GC paused the
    // server 32–68 ms (4–12 ms without), while B6g up stayed within its noise (docs/performance.md, "B2 / B7").
    expect(s.nodeFlags).toEqual(['--max-semi-space-size=4', '--gc-memory-reducer-start-delay-ms=1000']);
    expect(script.endsWith('scripts/start.mjs')).toBe(true);
  });

  it('uses only flags this Node accepts', () => {
    const { nodeFlags } = startSettings(script);
    const r = spawnSync(process.execPath, [...nodeFlags, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ok');
  });

  it('starts the bench servers with the same flags', () => {
    const cmd = serverCommand(false);
    const { nodeFlags } = startSettings(script);
    expect(cmd.slice(0, nodeFlags.length)).toEqual(nodeFlags);
  });

  it('reads variables and flags from any start line, and refuses one it cannot read', () => {
    expect(startSettings('A=1 B_C=x node --foo=2 --bar scripts/start.mjs')).toEqual({ env: { A: '1', B_C: 'x' }, nodeFlags: ['--foo=2', '--bar'] });
    expect(() => startSettings('tsx scripts/start.mjs')).toThrow(/expected "node"/);
  });
});
