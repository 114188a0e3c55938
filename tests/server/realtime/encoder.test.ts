/**
 * The acks that reuse an encoded-once value (server/realtime/encoder.ts, issue 30 B9): every packet is written
 * byte for byte as socket.io's own encoder writes it, whatever it holds, and the kept text is really reused.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Server } from 'socket.io';
import { encodeOnce, reuseEncodedValues, splicedAck } from '../../../server/realtime/encoder';

const ACK = 3;
const EVENT = 2;
const plain = new Server();
const patched = new Server();
reuseEncodedValues(patched);
type Packet = Parameters<Server['encoder']['encode']>[0];
const both = (p: Packet) => ({ ours: patched.encoder.encode(p), theirs: plain.encoder.encode(p) });

const auction = () => ({ id: 7, title: 'Sat "Omega" \u2028 ćš', current_price: 1500, images: [{ url: '/m/1.png' }], winner: null, seller_rating: { positive: 1, negative: 0 } });

describe('reuseEncodedValues', () => {
  it("a join ack that carries an encoded-once auction is the frame socket.io writes, in any namespace, with any id", () => {
    const a = encodeOnce(auction());
    for (const nsp of ['/', '/admin']) {
      for (const id of [0, 12, 123456]) {
        const p: Packet = { type: ACK, nsp, id, data: [{ ok: true, server_time: 1_764_000_000_000, seq: 4, auction: a }] };
        const { ours, theirs } = both(p);
        expect(ours).toEqual(theirs);
        expect(splicedAck(p)).toBe(theirs[0]);
      }
    }
  });

  it('any answer of primitives around encoded-once values (undefined keys, NaN, escapes) encodes as socket.io does', () => {
    const prim = fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.integer());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), prim), fc.string(), fc.jsonValue(), (fields, key, kept) => {
        const value = encodeOnce({ kept });
        const p: Packet = { type: ACK, nsp: '/', id: 1, data: [{ ...fields, [key]: value }] };
        const { ours, theirs } = both(p);
        expect(ours).toEqual(theirs);
      }),
    );
  });

  it('the kept text is what goes out: the value is encoded once, not per ack', () => {
    const a = encodeOnce(auction());
    // Changing a kept value breaks encodeOnce's promise; here it shows that the text was taken at the first call.
    a.current_price = 9999;
    const text = patched.encoder.encode({ type: ACK, nsp: '/', id: 3, data: [{ ok: true, auction: a }] })[0] as string;
    expect(JSON.parse(text.slice(2))[0].auction.current_price).toBe(1500);
  });

  it('every other packet is left to socket.io: events, acks without a kept value, several answers, binary, nested values', () => {
    const a = encodeOnce(auction());
    const packets: Packet[] = [
      { type: EVENT, nsp: '/', data: ['bid:placed', { auction_id: 1, auction: a }] },
      { type: ACK, nsp: '/', id: 2, data: [{ ok: false, detail: 'Nije pronađeno.' }] },
      { type: ACK, nsp: '/', id: 2, data: [{ ok: true, auction: a }, 'second'] },
      { type: ACK, nsp: '/', id: 2, data: [{ ok: true, auction: a, list: [1, 2] }] },
      { type: ACK, nsp: '/', id: 2, data: [{ ok: true, auction: a, file: Buffer.from('x') }] },
      { type: ACK, nsp: '/', id: 2, data: [{ wrapped: { auction: a } }] },
    ];
    for (const p of packets) {
      expect(splicedAck(p)).toBeNull();
      const { ours, theirs } = both(p);
      expect(ours).toEqual(theirs);
    }
  });
});
