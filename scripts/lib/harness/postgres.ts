/**
 * PostgreSQL databases of their own for test and bench servers: created (empty or from a template) and dropped
 * through an admin connection, named after the run (its pid) so that a run sweeps only what runs that are gone
 * left behind. `pg` is imported only when one of these is called.
 */

/** Where test and bench runs create their databases when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is unset. */
export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export type AdminClient = {
  query<R = unknown>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
};

/** Runs `fn` with a connection of its own to `adminUrl`, closed afterwards. */
export async function withAdmin<T>(adminUrl: string, fn: (c: AdminClient) => Promise<T>): Promise<T> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client as unknown as AdminClient);
  } finally {
    await client.end();
  }
}

/** Creates database `name` (a copy of `template` when given). Names are lower-case letters, digits and _. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  await withAdmin(adminUrl, (c) => c.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`));
  return databaseUrl(adminUrl, name);
}

/** Drops database `name` if it exists, closing whatever is still connected to it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Whether process `pid` still runs (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Drops the databases whose name matches `like` (an SQL LIKE pattern) and whose owner, the pid `ownerOf` reads
 * from the name, is gone; never this process's own, never those of a run still going (CI and a developer, two
 * checkouts on one server).
 */
export async function dropDatabasesOfGoneRuns(adminUrl: string, like: string, ownerOf: (name: string) => number | undefined): Promise<void> {
  const { rows } = await withAdmin(adminUrl, (c) => c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [like]));
  for (const { datname } of rows) {
    const pid = ownerOf(datname);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    await dropDatabase(adminUrl, datname);
  }
}
