/**
 * The pure, dependency-free part of the socket contract (room names, limits, seq and clock helpers).
 * Split out of ./socket-events so the browser bundle can use these without pulling in zod (which the
 * server's input schemas in ./socket-events need); ./socket-events re-exports everything here, so server
 * imports are unchanged.
 */

// ---------------------------------------------------------------- rooms

export const auctionRoom = (id: number) => `auction:${id}`;
export const userRoom = (id: number) => `user:${id}`;
/** The auction id of an `auction:{id}` room name, or null for any other room. */
export function auctionIdOfRoom(room: string): number | null {
  const m = /^auction:(\d+)$/.exec(room);
  return m ? Number(m[1]) : null;
}

/** How many auction rooms one socket may watch at once (a list page's cards fit easily). */
export const MAX_AUCTION_ROOMS_PER_SOCKET = 100;

// ---------------------------------------------------------------- client helpers (pure)

/**
 * What to do with an auction-room event, given the last seq applied for that auction
 * (docs/socket-contract.md §4): `stale` → ignore, `next` → apply, `gap` → refetch the snapshot.
 */
export function seqVerdict(known: number, incoming: number): 'stale' | 'next' | 'gap' {
  if (incoming <= known) return 'stale';
  return incoming === known + 1 ? 'next' : 'gap';
}

/**
 * NTP-style clock offset from one time:sync round trip: server ≈ Date.now() + offset.
 * `sentAt` = client clock when sending, `receivedAt` = client clock when the ack arrived.
 */
export function clockOffset(sentAt: number, receivedAt: number, serverTime: number): { offset: number; rtt: number } {
  const rtt = Math.max(0, receivedAt - sentAt);
  return { offset: serverTime - (sentAt + receivedAt) / 2, rtt };
}
