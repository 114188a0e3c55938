/**
 * A value that is ready now (SQLite: better-sqlite3 answers synchronously) or later (PostgreSQL). Code that
 * must stay synchronous on SQLite (the session store, the socket session check) handles both without
 * turning the SQLite path into promises.
 */
export type MaybeAsync<T> = T | Promise<T>;

/** `f(value)`, now if `value` is ready, else once it is. */
export function andThen<T, R>(value: MaybeAsync<T>, f: (v: T) => MaybeAsync<R>): MaybeAsync<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Runs `run` and hands its result or error to a Node-style callback, synchronously when it can. */
export function settle<T>(run: () => MaybeAsync<T>, done: (err: unknown, value?: T) => void): void {
  let value: MaybeAsync<T>;
  try {
    value = run();
  } catch (err) {
    done(err);
    return;
  }
  if (value instanceof Promise) value.then((v) => done(null, v), (err: unknown) => done(err));
  else done(null, value);
}
