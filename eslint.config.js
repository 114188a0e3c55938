import tseslint from 'typescript-eslint';
import aukcije from './scripts/eslint-rules.js';

// No package named better-sqlite3 is installed: two builds are, one per Node line (README, „Verzije Node-a“).
const betterSqlite = {
  name: 'better-sqlite3',
  allowTypeImports: true,
  message: 'Use sqliteDriver() from server/db/sqlite-driver.ts (it loads better-sqlite3-node20 or -node22 for the running Node); type imports are fine.',
};

// A second database dialect must touch one layer: SQL is built only in *.repository.ts files and server/db/.
const SQL_ONLY_IN_REPOSITORIES = 'SQL belongs in a *.repository.ts file (or server/db/): call a repository function.';

// Issue 22, point 3: the client speaks the contract.
const API_BY_ROUTE = "Call api('METHOD /api/path/', input) (or upload()) from lib/api.ts: typed by shared/api.ts's table.";
const LIVE_PAYLOADS =
  'Socket payloads are checked with checkPayload() of features/live/payload-checks.js, generated from the shared schemas (npm run gen:payload-checks).';
const CLIENT_PATHS = [
  betterSqlite,
  ...['../lib/api', '../../lib/api', '../../../lib/api'].map((name) => ({ name, importNames: ['apiFetch', 'apiUpload'], message: API_BY_ROUTE })),
];
const NO_GUARDS = { group: ['**/live/guards'], message: LIVE_PAYLOADS };
const NO_FORCED_CASTS = [
  {
    selector: "TSAsExpression[expression.type='TSAsExpression'][expression.typeAnnotation.type='TSUnknownKeyword']",
    message: 'No `as unknown as` in the client: type the value (the contract types every answer and payload).',
  },
];
const NO_GENERIC_FETCH = [
  {
    selector: "CallExpression[callee.name=/^(apiFetch|apiUpload)$/][typeArguments]",
    message: API_BY_ROUTE,
  },
];
const NO_GENERIC_TRANSPORT = [
  {
    selector: "FunctionDeclaration[id.name=/^(apiFetch|apiUpload|send)$/][typeParameters]",
    message: 'apiFetch/apiUpload answer `unknown`: a caller gets a type from api()/upload(), i.e. from the route.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'artifacts/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { aukcije },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [betterSqlite] }],
      'aukcije/feature-boundaries': 'error',
      'aukcije/layers': 'error',
    },
  },
  {
    files: ['server/**/*.ts'],
    ignores: ['server/db/**', 'server/**/*.repository.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [betterSqlite, { name: 'kysely', allowTypeImports: true, message: SQL_ONLY_IN_REPOSITORIES }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|selectNoFrom|prepare)$/]',
          message: SQL_ONLY_IN_REPOSITORIES,
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: SQL_ONLY_IN_REPOSITORIES },
      ],
    },
  },
  {
    // Features talk to the sockets only through events (server/events.ts, unit-of-work.ts); dependency-cruiser
    // keeps their imports out of server/realtime, this keeps them off the context's socket port.
    files: ['server/features/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'ctx', property: 'realtime', message: 'Return events (server/events.ts) and let the unit of work publish them; ctx.realtime is for the app shell and tests.' },
      ],
    },
  },
  {
    // Long functions hide the steps a reader needs to see; migrations are frozen history and stay as written.
    files: ['server/**/*.ts', 'client/src/**/api/**/*.ts', 'client/src/**/hooks/**/*.ts', 'client/src/**/hooks.ts', 'client/src/**/use-*.ts', 'client/src/lib/api.ts'],
    ignores: ['server/db/migrations/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Serbian texts in one tree (shared/texts/); demo data, migrations and operator messages at start-up are not UI.
    files: ['server/**/*.ts', 'client/src/**/*.{ts,tsx}'],
    ignores: ['server/db/migrations/**', 'server/features/demo/**', 'server/config.ts', 'server/db/sqlite-driver.ts', 'server/http/spa.ts'],
    rules: { 'aukcije/texts-in-shared': 'error' },
  },
  {
    // The client speaks the REST contract (issue 22): requests go through api()/upload() of client/src/lib/api.ts,
    // typed by shared/api.ts, and a type is never forced through `unknown`.
    files: ['client/src/**/*.{ts,tsx}'],
    ignores: ['client/src/lib/api.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: CLIENT_PATHS, patterns: [NO_GUARDS] }],
      'no-restricted-syntax': ['error', ...NO_FORCED_CASTS, ...NO_GENERIC_FETCH],
    },
  },
  {
    // Socket payloads are checked by payload-checks.js, which zod's compiler writes from the shared schemas.
    files: ['client/src/features/live/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...CLIENT_PATHS, { name: 'zod', allowTypeImports: true, message: LIVE_PAYLOADS }],
          patterns: [
            { group: ['./guards', '**/live/guards'], message: LIVE_PAYLOADS },
            { group: ['zod/*'], allowTypeImports: true, message: LIVE_PAYLOADS },
            { group: ['@shared/schemas/*'], allowTypeImports: true, message: LIVE_PAYLOADS },
          ],
        },
      ],
    },
  },
  {
    // The transport itself: no generic apiFetch/apiUpload that would let a caller pick the answer's type.
    files: ['client/src/lib/api.ts'],
    rules: { 'no-restricted-syntax': ['error', ...NO_FORCED_CASTS, ...NO_GENERIC_TRANSPORT] },
  },
  {
    files: ['tests/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
