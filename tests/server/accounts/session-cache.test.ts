/**
 * The session cache on one node (issue 30; SQLite, and PostgreSQL under scripts/test-pg.mjs): its promise
 * (tests/support/session-cache.ts), and that a warm logged-in request really reads neither its session row nor
 * its user row, while one after a change reads them again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { createUser, loginAs } from '../../support/factories';
import { sessionCacheSuite } from '../../support/session-cache';
import { recordStatementsOf, type StatementLog } from '../../support/statements';

let t: TestServer;
let log: StatementLog | undefined;
beforeAll(async () => {
  t = await startTestServer();
});
afterEach(() => log?.stop());
afterAll(() => t?.close());

describe('one node', () => sessionCacheSuite(() => ({ reader: t, writer: t })));

/** The statements that read a session row or a user row by id (both databases' SQL). */
const sessionOrUserReads = (sources: string[]) => sources.filter((s) => /from "?sessions"? where/i.test(s) || /from "users" where "id" = /i.test(s));

describe('a warm logged-in request', () => {
  it('reads neither the session row nor the user row; after a profile edit the next one reads the user again', async () => {
    const user = await createUser(t.ctx);
    const api = await loginAs(t.url, user);
    expect((await api.get('/api/current_user_data/')).status).toBe(200);

    log = recordStatementsOf(t.ctx, { sessions: true });
    const res = await api.get('/api/current_user_data/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: user.first_name });
    expect(sessionOrUserReads(log.sources)).toEqual([]);

    expect((await api.put('/api/update-profile/', { first_name: 'Nova Imena', phone_number: user.phone_number, city: user.city })).status).toBe(200);
    log.reset();
    expect((await api.get('/api/current_user_data/')).body).toMatchObject({ first_name: 'Nova Imena' });
    expect(sessionOrUserReads(log.sources)).toHaveLength(2);
  });
});
