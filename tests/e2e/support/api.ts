import sharp from 'sharp';
import { ApiClient } from '../../support/http';
import type { E2EServer } from './server';
import { linkFrom } from './server';
import type { TestUser } from './browser';

/** Registers over HTTP, follows the mailed verification link and logs in: a ready API client. */
export async function apiUser(server: E2EServer, user: TestUser): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const reg = await client.post('/api/user/register/', {
    first_name: user.name,
    email: user.email,
    phone_number: user.phone,
    password: user.password,
  });
  if (reg.status !== 201) throw new Error(`register ${reg.status}: ${reg.text}`);
  const mail = await server.waitForMail(user.email, '/api/verify/');
  const verify = await fetch(linkFrom(mail, '/api/verify/'), { redirect: 'manual' });
  if (verify.status !== 302) throw new Error(`verify ${verify.status}`);
  const login = await client.post('/api/login/', { email: user.email, password: user.password });
  if (login.status !== 200) throw new Error(`login ${login.status}: ${login.text}`);
  return client;
}

/** A real JPEG of one colour (the server re-encodes uploads, so it must be a genuine image). */
export function jpeg(color: string, width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).jpeg({ quality: 70 }).toBuffer();
}

/** Creates an auction with one image through the API; returns its id. */
export async function apiAuction(
  client: ApiClient,
  fields: { title: string; description?: string; price?: number; category?: string; color?: string },
): Promise<number> {
  const created = await client.post('/api/auctionItems/', {
    title: fields.title,
    description: fields.description ?? `${fields.title}: očuvano, malo korišćeno, preuzimanje lično ili slanje kurirskom službom.`,
    current_price: fields.price ?? 1500,
    auction_duration: 4,
    city: 'Beograd',
    phone_number: '0641234567',
    category: fields.category ?? 'electronics',
  });
  if (created.status !== 201) throw new Error(`create ${created.status}: ${created.text}`);
  const id = created.body.id as number;
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(await jpeg(fields.color ?? '#3a7bd5'))], { type: 'image/jpeg' }), 'slika.jpg');
  const images = await client.post(`/api/auction-items/${id}/images/`, form);
  if (images.status !== 201) throw new Error(`images ${images.status}: ${images.text}`);
  return id;
}

export async function apiBid(client: ApiClient, auctionId: number, amount: number): Promise<void> {
  const res = await client.post('/api/bids/', { auction_item_id: auctionId, amount });
  if (res.status !== 201 && res.status !== 200) throw new Error(`bid ${res.status}: ${res.text}`);
}
