/** The inbound events of a socket: joining and leaving auction rooms (with their snapshots), and time:sync. */
import type { Logger } from 'pino';
import {
  AuctionJoinInput,
  AuctionLeaveInput,
  AuctionsUnwatchInput,
  AuctionsWatchInput,
  MAX_AUCTION_ROOMS_PER_SOCKET,
  TimeSyncInput,
  auctionIdOfRoom,
  auctionRoom,
  type AuctionJoinAck,
  type AuctionsWatchAck,
} from '@shared/socket-events';
import type { AuctionDetail } from '@shared/schemas/auctions';
import type { Metrics } from '../lib/metrics';
import { acked } from './acks';
import { encodeOnce } from './encoder';
import type { IoSocket } from './io';
import { rtTexts } from '@shared/texts/realtime';

/** An auction's detail (what GET /api/auction/{id}/ answers) with the seq that describes exactly it. */
export interface AuctionSnapshot {
  seq: number;
  auction: AuctionDetail;
}

/** What the rooms read, handed to createRealtime() by the app (the auctions feature implements them). */
export interface LiveReads {
  /** The snapshot of an auction as `viewerId` sees it (none: a visitor), or undefined when it does not exist. */
  snapshot(auctionId: number, viewerId?: number): Promise<AuctionSnapshot | undefined>;
  /** The current seq of each existing auction among `ids`. */
  seqs(ids: number[]): Promise<Map<number, number>>;
}

const auctionRoomsOf = (socket: IoSocket) => [...socket.rooms].filter((r) => auctionIdOfRoom(r) !== null).length;

/** The room handlers of one server, shared by all its sockets (each is called with its socket as `this`). */
export type RoomHandlers = ReturnType<typeof roomHandlers>;

export function roomHandlers(reads: LiveReads, logger: Logger, metrics: Metrics) {
  return [
    acked(logger, 'time:sync', TimeSyncInput, (_socket, p) => ({ client_time: p.client_time, server_time: Date.now() })),
    acked(logger, 'auction:join', AuctionJoinInput, (socket, { auction_id }) => join(socket, reads, auction_id, metrics)),
    acked(logger, 'auction:leave', AuctionLeaveInput, async (socket, { auction_id }) => {
      await socket.leave(auctionRoom(auction_id));
      return { ok: true as const };
    }),
    acked(logger, 'auctions:watch', AuctionsWatchInput, (socket, { auction_ids }) => watch(socket, reads, auction_ids, metrics)),
    acked(logger, 'auctions:unwatch', AuctionsUnwatchInput, async (socket, { auction_ids }) => {
      for (const id of new Set(auction_ids)) await socket.leave(auctionRoom(id));
      return { ok: true as const };
    }),
  ] as const;
}

/** Puts a connected socket behind the server's room handlers (no closure per socket). */
export function registerRoomHandlers(socket: IoSocket, handlers: RoomHandlers): void {
  for (const [event, listener] of handlers) socket.on(event, listener as never);
}

async function join(socket: IoSocket, reads: LiveReads, auctionId: number, metrics: Metrics): Promise<AuctionJoinAck> {
  if (!socket.connected) return { ok: false, detail: rtTexts.internal };
  const room = auctionRoom(auctionId);
  const already = socket.rooms.has(room);
  if (!already && auctionRoomsOf(socket) >= MAX_AUCTION_ROOMS_PER_SOCKET) return { ok: false, detail: rtTexts.tooManyRooms };
  // Join before reading: an event committed after the read carries a larger seq and is delivered to
  // this socket; one committed before is already inside the snapshot (seq ≤ snapshot seq).
  await socket.join(room);
  const snap = await reads.snapshot(auctionId, socket.data.userId ?? undefined);
  if (!snap) {
    if (!already) await socket.leave(room);
    return { ok: false, detail: rtTexts.notFound };
  }
  if (!already) metrics.roomJoins('join', 1);
  // A visitors' cached snapshot is shared by every socket served from it: its JSON is made once (encoder.ts).
  return { ok: true, server_time: Date.now(), seq: snap.seq, auction: encodeOnce(snap.auction) };
}

async function watch(socket: IoSocket, reads: LiveReads, auctionIds: number[], metrics: Metrics): Promise<AuctionsWatchAck> {
  if (!socket.connected) return { ok: false, detail: rtTexts.internal };
  const ids = [...new Set(auctionIds)];
  const fresh = ids.filter((id) => !socket.rooms.has(auctionRoom(id)));
  if (auctionRoomsOf(socket) + fresh.length > MAX_AUCTION_ROOMS_PER_SOCKET) return { ok: false, detail: rtTexts.tooManyRooms };
  await socket.join(fresh.map(auctionRoom));
  const seqs = await reads.seqs(ids);
  const missing = ids.filter((id) => !seqs.has(id));
  for (const id of missing) if (fresh.includes(id)) await socket.leave(auctionRoom(id));
  metrics.roomJoins('watch', fresh.filter((id) => seqs.has(id)).length);
  return {
    ok: true,
    server_time: Date.now(),
    auctions: ids.filter((id) => seqs.has(id)).map((id) => ({ auction_id: id, seq: seqs.get(id)! })),
    missing,
  };
}
