import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Stands for a value that is bound when the query runs. */
class Slot {
  constructor(readonly name: string) {}
}

/**
 * A kysely query built and compiled once, then run with new values: for the few queries of every request
 * (the logged-in user, the auction a bid is for). kysely builds a frozen syntax tree and compiles it to SQL
 * on each call, which was most of its ~15 % of busy time in B1 (docs/performance.md). It stays a kysely
 * query (same dialect, plugins and executor, so it runs in a transaction too); only the building and
 * compiling are done once per dialect.
 *
 * `build` receives stand-ins for the parameters: use each only as a bound value (`where(col, '=', p.id)`),
 * never in JavaScript logic. Values written literally in `build` stay as they are.
 */
export function precompiled<DB, P extends Record<string, unknown>, R>(
  build: (db: Kysely<DB>, p: P) => Compilable<R>,
): (db: Kysely<DB>, params: P) => Promise<R[]> {
  let cache: { compiled: CompiledQuery<R>; adapter: unknown } | undefined;
  return async (db, params) => {
    // getExecutor() is kysely's own (marked internal); its adapter is one object per dialect instance,
    // shared by its transactions, so a second app (tests) or another dialect compiles anew.
    const adapter = db.getExecutor().adapter;
    if (!cache || cache.adapter !== adapter) {
      const slots = new Proxy({} as P, { get: (_t, key) => new Slot(String(key)) });
      cache = { compiled: build(db, slots).compile(), adapter };
    }
    const { compiled } = cache;
    const parameters = compiled.parameters.map((v) => (v instanceof Slot ? params[v.name] : v));
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
