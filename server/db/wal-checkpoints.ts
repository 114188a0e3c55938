import type SQLite from 'better-sqlite3';

/**
 * WAL pages a commit may leave before SQLite checkpoints inside that commit (its own automatic checkpoint, here
 * only a backstop: 40 MB of 4 KiB pages). SQLite's default is 1,000 pages, and the commit that crosses it copies
 * them into the database file and fsyncs it before it returns: 4–6 ms on a bid's path, before its broadcast,
 * about once every 50 bids (docs/performance.md, "B2 / B7").
 */
export const WAL_BACKSTOP_PAGES = 10_000;

/** Commits after which a checkpoint runs, once the committing request has been answered. */
export const CHECKPOINT_EVERY_COMMITS = 32;

/**
 * A server that wrote and then went quiet has its WAL checkpointed within about twice this. The timer checkpoints
 * whenever no transaction committed for this long, whether or not one did before: the session store's writes and
 * single-statement writes are not counted as commits, and a PASSIVE checkpoint of an empty WAL costs a few µs.
 */
export const CHECKPOINT_IDLE_MS = 1000;

/**
 * The app's WAL checkpoints, moved off the request that happens to cross SQLite's threshold. SQLite's automatic
 * checkpoint is raised to a backstop; instead, after every CHECKPOINT_EVERY_COMMITS transactions a PASSIVE
 * checkpoint runs in a `setImmediate`: after the committing request's own continuation (on SQLite everything
 * from the commit to its events' broadcast and its answer runs without I/O in between), before the event loop
 * takes the next request. PASSIVE never waits for a lock (another process's writer or reader: it copies what
 * it can). A server that wrote less and went quiet is checkpointed by a timer. Nothing changes for durability:
 * a commit is in the WAL either way (synchronous = NORMAL), and a checkpoint fsyncs what it copies.
 */
export class WalCheckpoints {
  #commits = 0;
  #scheduled = false;
  #lastCommitAt = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly every = CHECKPOINT_EVERY_COMMITS,
    idleMs = CHECKPOINT_IDLE_MS,
  ) {
    sqlite.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
    this.#timer = setInterval(() => {
      if (Date.now() - this.#lastCommitAt >= idleMs) this.run();
    }, idleMs);
    this.#timer.unref();
  }

  /** A transaction committed on the app's connection. */
  committed(): void {
    this.#commits++;
    this.#lastCommitAt = Date.now();
    if (this.#commits < this.every || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.run();
    });
  }

  /** A PASSIVE checkpoint now, unless a transaction is open on the connection (the next commit tries again). */
  run(): void {
    if (!this.sqlite.open || this.sqlite.inTransaction) return;
    try {
      this.sqlite.pragma('wal_checkpoint(PASSIVE)');
      this.#commits = 0;
    } catch {
      // The file is busy or gone: the next commit, the timer or the backstop checkpoints.
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
