/**
 * The session cache's promise (issue 30, server/features/accounts/session-cache.ts), as one suite run on one node
 * and on two: a browser's session, read (warm) on the reading node, shows a logout, a block, a password change
 * or a profile edit made on the writing node as soon as that change's answer arrived.
 */
import { expect, it } from 'vitest';
import type { TestServer } from './app';
import { createAuction } from './auctions';
import { createUser, loginAs } from './factories';
import { ApiClient } from './http';
import { auctionRow, bid } from './marketplace';

/** The same browser (its cookies, the session's among them) talking to `node`. */
export function sameBrowserOn(client: ApiClient, node: TestServer): ApiClient {
  const other = new ApiClient(node.url);
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  return other;
}

/** Who the server takes `client` for: its first name, or null when anonymous (GET /api/user/status/). */
async function whoAmI(client: ApiClient): Promise<string | null> {
  const res = await client.get('/api/user/status/');
  expect(res.status).toBe(200);
  return (res.body as { username: string | null }).username;
}

/** Reads twice as `client`, so the session and its user are held by that node's cache, and returns the name. */
async function warm(client: ApiClient): Promise<string | null> {
  const first = await whoAmI(client);
  expect(await whoAmI(client)).toBe(first);
  return first;
}

export function sessionCacheSuite(nodes: () => { reader: TestServer; writer: TestServer }): void {
  async function loggedIn(opts: { admin?: boolean } = {}) {
    const { reader, writer } = nodes();
    const user = await createUser(writer.ctx, { admin: opts.admin });
    const onWriter = await loginAs(writer.url, user);
    const onReader = sameBrowserOn(onWriter, reader);
    expect(await warm(onReader)).toBe(user.first_name);
    return { user, onWriter, onReader };
  }

  it('a logout on the writing node leaves the same cookie anonymous on the reading node at once', async () => {
    const { onWriter, onReader } = await loggedIn();
    expect((await onReader.get('/api/current_user_data/')).status).toBe(200);
    expect((await onWriter.post('/api/logout/', {})).status).toBe(200);
    const after = await onReader.get('/api/current_user_data/');
    expect(after.status).toBe(403);
    expect(after.body).toMatchObject({ code: 'not_authenticated' });
    expect(await whoAmI(onReader)).toBeNull();
  });

  it("a block on the writing node refuses the member's very next bid on the reading node", async () => {
    const { writer } = nodes();
    const { user, onReader } = await loggedIn();
    const seller = await createUser(writer.ctx);
    const auction = await createAuction(writer.ctx, seller.id, { starting_price: 1000 });
    expect((await bid(onReader, auction.id, 1010)).status).toBe(201);

    const admin = await loginAs(writer.url, await createUser(writer.ctx, { admin: true }));
    expect((await admin.post(`/api/admin/users/${user.id}/block/`, {})).status).toBe(200);
    const refused = await bid(onReader, auction.id, 1020);
    expect(refused.status).toBe(403);
    expect(await whoAmI(onReader)).toBeNull();
    expect((await auctionRow(writer, auction.id)).current_price).toBe(1010);
  });

  it("a password change on the writing node ends the account's other sessions on the reading node; the changing browser stays in", async () => {
    const { reader } = nodes();
    const { user, onWriter } = await loggedIn();
    const otherBrowser = await loginAs(reader.url, user);
    expect(await warm(otherBrowser)).toBe(user.first_name);

    expect((await onWriter.post('/api/change-password/', { old_password: user.password, new_password: 'NovaLozinka9' })).status).toBe(200);
    expect((await otherBrowser.get('/api/current_user_data/')).status).toBe(403);
    expect(await whoAmI(sameBrowserOn(onWriter, reader))).toBe(user.first_name);
  });

  it('a profile edit on the writing node shows on the reading node in the very next request', async () => {
    const { user, onWriter, onReader } = await loggedIn();
    const edited = await onWriter.put('/api/update-profile/', { first_name: 'Preimenovana', phone_number: user.phone_number, city: user.city });
    expect(edited.status).toBe(200);
    expect(await whoAmI(onReader)).toBe('Preimenovana');
    expect((await onReader.get('/api/current_user_data/')).body).toMatchObject({ first_name: 'Preimenovana' });
  });

  it('an unblocked member logs in again on the writing node and is taken for themselves on the reading node', async () => {
    const { reader, writer } = nodes();
    const { user, onReader } = await loggedIn();
    const admin = await loginAs(writer.url, await createUser(writer.ctx, { admin: true }));
    expect((await admin.post(`/api/admin/users/${user.id}/block/`, {})).status).toBe(200);
    expect(await whoAmI(onReader)).toBeNull();
    expect((await admin.post(`/api/admin/users/${user.id}/unblock/`, {})).status).toBe(200);
    const again = sameBrowserOn(await loginAs(writer.url, user), reader);
    expect(await whoAmI(again)).toBe(user.first_name);
  });
}
