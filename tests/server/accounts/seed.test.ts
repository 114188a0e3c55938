import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/app';
import { ApiClient } from '../../support/http';
import { DEMO_USERS } from '../../../server/features/demo/demo.service';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ SEED_DEMO: '1', ADMIN_EMAILS: 'marko@aukcije.rs' });
});
afterAll(async () => {
  await t.close();
});

describe('demo data (SEED_DEMO=1)', () => {
  it('creates verified demo users whose README logins work', async () => {
    for (const u of DEMO_USERS) {
      const res = await new ApiClient(t.url).post('/api/login/', { email: u.email, password: u.password });
      expect(res.status, u.email).toBe(200);
    }
  });

  it('gives ADMIN_EMAILS the admin role at start', async () => {
    const res = await new ApiClient(t.url).post('/api/login/', { email: 'marko@aukcije.rs', password: DEMO_USERS[1].password });
    expect(res.body.redirect_url).toBe('/admin/dashboard');
  });

  it('does not seed twice on restart', async () => {
    const before = await t.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const again = await startTestServer({ SEED_DEMO: '1' }, { dataDir: t.dataDir });
    try {
      const after = await again.ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    } finally {
      await again.close();
    }
  });
});
