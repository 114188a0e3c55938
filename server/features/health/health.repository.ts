import { sql } from 'kysely';
import type { DbOrTx } from '../../db/types';

/** One round trip that needs a working connection and nothing else. */
export async function pingDatabase(db: DbOrTx): Promise<void> {
  await sql`select 1`.execute(db);
}
