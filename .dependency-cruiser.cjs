/**
 * The import rules of docs/architecture.md ("Layers and what each may import"), checked by dependency-cruiser
 * in `npm run lint`. Type-only imports count (tsPreCompilationDeps): a type import is still a dependency a
 * reader has to follow, and a circle of them is still a circle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle anywhere in server/, client/src or shared/ (type-only imports included).',
      from: { path: '^(server|client/src|shared)/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-neither-side',
      severity: 'error',
      comment: 'shared/ is imported by both sides and imports neither.',
      from: { path: '^shared/' },
      to: { path: '^(server|client)/' },
    },
    {
      name: 'client-not-server',
      severity: 'error',
      comment: 'The client reaches the server over HTTP and socket.io only; the server serves the built client.',
      from: { path: '^client/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-not-client',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^client/' },
    },
    {
      name: 'lib-is-the-bottom',
      severity: 'error',
      comment: 'server/lib imports shared/ and packages only.',
      from: { path: '^server/lib/' },
      to: { path: '^server/(?!lib/)' },
    },
    {
      name: 'ground-floor',
      severity: 'error',
      comment:
        'context.ts (the ports), events.ts (the event vocabulary) and unit-of-work.ts are imported by every layer: ' +
        'they import no feature, no route, no realtime module.',
      from: { path: '^server/(context|events|unit-of-work)[.]ts$' },
      to: { path: '^server/(features|realtime)/' },
    },
    {
      name: 'db-not-above',
      severity: 'error',
      comment: 'server/db (connection, dialect, migrations, types) knows no feature, route or socket.',
      from: { path: '^server/db/' },
      to: { path: '^server/(features|realtime|http)/' },
    },
    {
      name: 'realtime-not-features',
      severity: 'error',
      comment:
        'The live layer imports no feature: snapshots, seqs and the session check are handed to createRealtime() ' +
        'as functions, and the events come from the sink (server/events.ts).',
      from: { path: '^server/realtime/' },
      to: { path: '^server/(features|http)/' },
    },
    {
      name: 'features-not-realtime',
      severity: 'error',
      comment: 'Features return events; the unit of work (server/unit-of-work.ts) hands them to the sink after the commit.',
      from: { path: '^server/features/' },
      to: { path: '^server/realtime/' },
    },
    {
      name: 'repositories-below-services',
      severity: 'error',
      comment: 'A repository is SQL and rows: it calls no service, route or presenter and never answers HTTP.',
      from: { path: '^server/features/.+[.]repository[.]ts$' },
      to: { path: '([.](service|routes|presenter)[.]ts$)|^server/http/' },
    },
    {
      name: 'services-not-routes',
      severity: 'error',
      comment: 'Services know no routes and no Express (the routes call them).',
      from: { path: '^server/features/.+[.]service[.]ts$' },
      to: { path: '([.]routes[.]ts$)|(^node_modules/express/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
