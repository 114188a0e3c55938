/**
 * The structure rules of eslint.config.js (docs/architecture.md) catch what they are for: each case lints a
 * snippet as if it were the named file, with the project's real configuration.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

const longBody = Array.from({ length: 61 }, (_, i) => `  total += ${i};`).join('\n');

describe('lint: structure rules', () => {
  it('SQL is built only in repositories and server/db', async () => {
    const query = "export const q = (db: any) => db.selectFrom('users').selectAll().execute();\n";
    expect(await ruleIds('server/features/bids/bids.service.ts', query)).toContain('no-restricted-syntax');
    expect(await ruleIds('server/http/spa.ts', "import { sql } from 'kysely';\nexport const s = sql`select 1`;\n")).toEqual(
      expect.arrayContaining(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']),
    );
    expect(await ruleIds('server/realtime/x.ts', 'export const p = (d: any) => d.prepare("select 1");\n')).toContain('no-restricted-syntax');
    expect(await ruleIds('server/features/bids/bids.repository.ts', query)).not.toContain('no-restricted-syntax');
    expect(await ruleIds('server/db/connection.ts', query)).not.toContain('no-restricted-syntax');
  });

  it('Serbian texts live in shared/texts/, not in server or client modules', async () => {
    const text = "export const t = 'Aukcija je završena.';\n";
    expect(await ruleIds('server/features/bids/bids.service.ts', text)).toContain('aukcije/texts-in-shared');
    expect(await ruleIds('client/src/features/auctions/components/X.tsx', 'export const X = () => <p>Čestitamo!</p>;\n')).toContain('aukcije/texts-in-shared');
    expect(await ruleIds('server/realtime/x.ts', 'export const t = (n: number) => `Još ${n} minuta`;\n')).toContain('aukcije/texts-in-shared');
    expect(await ruleIds('shared/texts/bids.ts', text)).not.toContain('aukcije/texts-in-shared');
    expect(await ruleIds('server/features/demo/demo-auctions.ts', text)).not.toContain('aukcije/texts-in-shared');
  });

  it('functions longer than 60 lines are refused on the server and in client hooks and api modules, not in migrations', async () => {
    const code = `export function long(): number {\n  let total = 0;\n${longBody}\n  return total;\n}\n`;
    for (const file of ['server/features/bids/bids.service.ts', 'client/src/features/auctions/api/bids.ts', 'client/src/features/auctions/hooks/use-x.ts', 'client/src/lib/api.ts']) {
      expect(await ruleIds(file, code), file).toContain('max-lines-per-function');
    }
    expect(await ruleIds('server/db/migrations/2099-01-01-0000-x.ts', code)).not.toContain('max-lines-per-function');
  });

  it('features stay out of client/src/app and out of each other\'s internals', async () => {
    expect(await ruleIds('client/src/features/auctions/components/X.tsx', "import { App } from '../../../app/App';\nexport const x = App;\n")).toContain('aukcije/feature-boundaries');
    expect(await ruleIds('client/src/features/landing/pages/X.tsx', "import { AuctionCard } from '../../auctions/components/AuctionCard';\nexport const x = AuctionCard;\n")).toContain('aukcije/feature-boundaries');
    expect(await ruleIds('client/src/features/landing/pages/X.tsx', "import { useDeleteAuction } from '../../auctions/api/delete-auction';\nexport const x = useDeleteAuction;\n")).not.toContain('aukcije/feature-boundaries');
    expect(await ruleIds('server/features/comments/x.ts', "import { bidsRoutes } from '../bids/bids.routes';\nexport const x = bidsRoutes;\n")).toContain('aukcije/feature-boundaries');
    expect(await ruleIds('server/features/index.ts', "import { bidsRoutes } from './bids/bids.routes';\nexport const x = bidsRoutes;\n")).not.toContain('aukcije/feature-boundaries');
  });

  it('the client speaks the contract: api() by route, no forced casts, socket payloads by the generated checks', async () => {
    const restricted = '@typescript-eslint/no-restricted-imports';
    expect(await ruleIds('client/src/features/auctions/api/x.ts', "import { apiFetch } from '../../../lib/api';\nexport const x = apiFetch;\n")).toContain(restricted);
    expect(await ruleIds('client/src/features/auctions/api/x.ts', "import { api } from '../../../lib/api';\nexport const x = api;\n")).not.toContain(restricted);
    expect(await ruleIds('client/src/features/auctions/x.ts', 'export const x = (v: string) => v as unknown as number;\n')).toContain('no-restricted-syntax');
    expect(await ruleIds('client/src/lib/api.ts', 'export async function apiFetch<T>(p: string): Promise<T> {\n  return (await fetch(p)).json();\n}\n')).toContain('no-restricted-syntax');
    expect(await ruleIds('client/src/features/live/x.ts', "import { check } from './guards';\nexport const x = check;\n")).toContain(restricted);
    expect(await ruleIds('client/src/features/live/x.ts', "import { BidPlacedEvent } from '@shared/schemas/bids';\nexport const x = BidPlacedEvent;\n")).toContain(restricted);
    expect(await ruleIds('client/src/features/live/x.ts', "import type { BidPlacedEvent } from '@shared/schemas/bids';\nexport type X = BidPlacedEvent;\n")).not.toContain(restricted);
    expect(await ruleIds('tests/server/x.test.ts', 'export const x = (v: any) => v;\n')).toContain('@typescript-eslint/no-explicit-any');
  });

  it('layers: shared imports neither side, the client never imports the server, server/lib is the bottom', async () => {
    expect(await ruleIds('shared/rules/x.ts', "import { x } from '../../server/lib/time';\nexport const y = x;\n")).toContain('aukcije/layers');
    expect(await ruleIds('client/src/lib/x.ts', "import { x } from '../../../server/lib/time';\nexport const y = x;\n")).toContain('aukcije/layers');
    expect(await ruleIds('server/lib/x.ts', "import { x } from '../features/bids/bids.service';\nexport const y = x;\n")).toContain('aukcije/layers');
  });
});
