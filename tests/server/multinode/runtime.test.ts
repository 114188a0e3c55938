/**
 * The runtime contract of several nodes that a single node can show: SESSION_SECRET required with
 * DATABASE_URL, MEDIA_DIR, the health check, the "only node" log line, and Redis not loaded without REDIS_URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ConfigError, loadConfig } from '../../../server/config';
import { connectCluster } from '../../../server/app';
import { startTestServer, tempDataDir, type TestServer } from '../../support/app';
import { createAuction } from '../../support/auctions';
import { createUser, loginAs } from '../../support/factories';
import { ApiClient } from '../../support/http';
import { imagesForm, pngBuffer } from '../../support/images';

describe('configuration for several nodes', () => {
  it('refuses DATABASE_URL without SESSION_SECRET (a generated secret would differ per node)', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(/SESSION_SECRET/);
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(32) }).sharedDatabase).toBe(true);
    expect(loadConfig({}).sharedDatabase).toBe(false);
  });

  it('takes MEDIA_DIR, by default DATA_DIR/media', () => {
    expect(loadConfig({ DATA_DIR: '/srv/a' }).mediaDir).toBe(path.resolve('/srv/a/media'));
    expect(loadConfig({ DATA_DIR: '/srv/a', MEDIA_DIR: '/mnt/shared/slike' }).mediaDir).toBe(path.resolve('/mnt/shared/slike'));
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(() => loadConfig({ REDIS_URL: 'nije url' })).toThrow(/REDIS_URL/);
  });
});

describe('a node with DATABASE_URL and no REDIS_URL', () => {
  it('says in its log that it runs as the only node', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const config = loadConfig({ DATABASE_URL: 'postgres://unused', SESSION_SECRET: 'x'.repeat(32) });
    expect(await connectCluster(config, logger)).toBeUndefined();
    expect(lines.some((l) => /only node/.test(l))).toBe(true);
    lines.length = 0;
    expect(await connectCluster(loadConfig({}), logger)).toBeUndefined();
    expect(lines).toEqual([]);
  });
});

describe('GET /api/health/ and MEDIA_DIR on one SQLite node', () => {
  let t: TestServer;
  let media: string;
  beforeAll(async () => {
    media = path.join(tempDataDir(), 'deljene-slike');
    t = await startTestServer({ MEDIA_DIR: media });
  });
  afterAll(() => t?.close());

  it('answers 200 with the database up and Redis off', async () => {
    const res = await new ApiClient(t.url).get('/api/health/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok', redis: 'off' });
  });

  it('answers 503 once the database no longer answers', async () => {
    const other = await startTestServer();
    await other.ctx.db.destroy();
    const res = await new ApiClient(other.url).get('/api/health/');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', database: 'down', redis: 'off' });
    await other.close().catch(() => undefined);
  });

  it('writes uploads to MEDIA_DIR and serves them from there', async () => {
    const user = await createUser(t.ctx);
    const client = await loginAs(t.url, user);
    const auction = await createAuction(t.ctx, user.id);
    const res = await client.post(`/api/auction-items/${auction.id}/images/`, imagesForm([{ name: 'a.png', data: await pngBuffer() }]));
    expect(res.status).toBe(201);
    const url = res.body.images[0].image;
    expect(fs.existsSync(path.join(media, url.replace(/^\/media\//, '')))).toBe(true);
    expect(fs.existsSync(path.join(t.dataDir, 'media'))).toBe(false);
    const file = await fetch(t.url + url);
    expect(file.status).toBe(200);
  });

  it('has no Redis handle without REDIS_URL', () => {
    expect(t.ctx.redis).toBeUndefined();
  });
});
