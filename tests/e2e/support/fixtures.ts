import type { E2EServer } from './server';
import { makeUser, type TestUser } from './browser';
import { apiAuction, apiBid, apiUser } from './api';

export interface Marketplace {
  seller: TestUser;
  bidder: TestUser;
  admin: TestUser;
  auctionIds: number[];
}

const TITLES = ['Bicikl Capriolo', 'Laptop Lenovo ThinkPad', 'Ručni sat Seiko', 'Gitara Yamaha', 'Fotoaparat Canon'];
const COLORS = ['#d1495b', '#00798c', '#edae49', '#30638e', '#6a4c93'];

/**
 * A small marketplace over HTTP: a seller with five auctions, a bidder who bid on three of them (so the
 * seller has three unread notifications), and an admin (the server must run with ADMIN_EMAILS=admin.email).
 */
export async function seedMarketplace(server: E2EServer, admin: TestUser): Promise<Marketplace> {
  const seller = makeUser('prodavac');
  const bidder = makeUser('kupac');
  const sellerApi = await apiUser(server, seller);
  const bidderApi = await apiUser(server, bidder);
  await apiUser(server, admin);
  const auctionIds: number[] = [];
  for (let i = 0; i < TITLES.length; i++) {
    auctionIds.push(await apiAuction(sellerApi, { title: TITLES[i], price: 1000 + i * 2500, color: COLORS[i] }));
  }
  for (const id of auctionIds.slice(0, 3)) await apiBid(bidderApi, id, 20_000);
  return { seller, bidder, admin, auctionIds };
}

export function adminUser(): TestUser {
  return makeUser('admin');
}
