import type { Migration } from 'kysely';
import * as m0001 from './2026-11-22-0001-init';

/** Every migration, in order. Names are dated; add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-init': m0001,
};
