/**
 * Acks that reuse the JSON of a shared value (issue 30, B9). 10,000 visitors that join one auction get the same
 * cached snapshot (features/auctions/snapshot-cache.ts) in their join acks; socket.io would walk it for binary and
 * JSON-encode it once per socket. A value passed through `encodeOnce()` is encoded the first time, and an ack whose
 * answer carries it at its top level, beside primitives only, reuses that text. The frames are byte for byte what
 * socket.io's own encoder writes (tests/server/realtime/encoder.test.ts); every other packet goes to it unchanged.
 * Broadcasts are untouched: socket.io encodes those once per emit already.
 */
import type { Io } from './io';

type Packet = Parameters<Io['encoder']['encode']>[0];

/** socket.io-parser's packet type of an ack (protocol 5). */
const ACK = 3;

const texts = new WeakMap<object, string>();

/**
 * `value`, whose JSON is now kept for the acks that carry it. The caller promises that `value` is never changed
 * afterwards (a cached snapshot already is: every socket served from the cache shares it).
 */
export function encodeOnce<T extends object>(value: T): T {
  if (!texts.has(value)) texts.set(value, JSON.stringify(value));
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype && !('toJSON' in v);

const PRIMITIVES = new Set(['string', 'number', 'boolean', 'undefined']);
const isPrimitive = (v: unknown) => v === null || PRIMITIVES.has(typeof v);

/** The JSON of `answer` with its encoded-once fields spliced in; null when none is, or another field is no primitive. */
function splicedAnswer(answer: Record<string, unknown>): string | null {
  let spliced = false;
  const parts: string[] = [];
  for (const key of Object.keys(answer)) {
    const value = answer[key];
    const kept = typeof value === 'object' && value !== null ? texts.get(value) : undefined;
    if (kept === undefined && !isPrimitive(value)) return null;
    if (kept !== undefined) spliced = true;
    // JSON.stringify leaves out a key whose value is undefined.
    if (value !== undefined) parts.push(`${JSON.stringify(key)}:${kept ?? JSON.stringify(value)}`);
  }
  return spliced ? `{${parts.join(',')}}` : null;
}

/** The text of an ack of one plain answer holding an encoded-once value, as socket.io-parser writes it; else null. */
export function splicedAck(packet: Packet): string | null {
  const data: unknown = packet.data;
  if (packet.type !== ACK || !Array.isArray(data) || data.length !== 1 || !isPlainObject(data[0])) return null;
  const body = splicedAnswer(data[0]);
  if (body === null) return null;
  const nsp = packet.nsp && packet.nsp !== '/' ? `${packet.nsp},` : '';
  return `${ACK}${nsp}${packet.id ?? ''}[${body}]`;
}

/** Makes `io`'s encoder (the one its clients and adapter share) reuse encoded-once values in acks. */
export function reuseEncodedValues(io: Io): void {
  const encoder = io.encoder;
  const encode = encoder.encode.bind(encoder);
  encoder.encode = (packet) => {
    const text = splicedAck(packet);
    return text === null ? encode(packet) : [text];
  };
}
