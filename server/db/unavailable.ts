/**
 * Whether an error says that the database cannot be reached right now (PostgreSQL restarting, the network to
 * it cut, the pool unable to hand out a connection in time), as opposed to a query that is wrong. The error
 * handler answers those with 503 `unavailable` and a Serbian message instead of 500 (docs/api.md §1), and the
 * node keeps running: the pool replaces its broken connections by itself once the database answers again.
 */

/** Socket errors of a connection that was refused, reset or timed out (Node's `code`). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * PostgreSQL SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now), 53300 (too many connections).
 */
const SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** What `pg` and its pool throw when a connection dies or none can be had (they carry no code). */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Client was closed',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATE.test(code)) return true;
  const message = 'message' in err && typeof err.message === 'string' ? err.message : '';
  if (PG_MESSAGES.some((m) => message.includes(m))) return true;
  // An AggregateError (a connect that tried several addresses) is unavailable when its parts are.
  return err instanceof AggregateError && err.errors.length > 0 && err.errors.every(isDatabaseUnavailable);
}
