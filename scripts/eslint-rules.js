// Project rules for eslint.config.js: which layer may import which (docs/architecture.md explains the layers).
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** { area, feature, rest } for a file under server/features/X or client/src/features/X, else null. */
function featureOf(file) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  const m = /^(server\/features|client\/src\/features)\/([^/]+)\/(.*)$/.exec(rel);
  return m ? { area: m[1], feature: m[2], rest: m[3] } : null;
}

function inClientApp(file) {
  return path.relative(root, file).split(path.sep).join('/').startsWith('client/src/app/');
}

/**
 * What another feature may not reach into. Server: a feature's routes are mounted once, by
 * server/features/index.ts; its services, repositories (reads inside the caller's transaction) and presenters
 * are there to be called. Client: a feature's components/, pages/ and hooks/ are its own; others use its
 * api/ modules and the modules at its top level.
 */
function internalReason(target) {
  if (target.area === 'server/features') {
    return /\.routes(\.ts)?$/.test(target.rest) ? 'its routes (server/features/index.ts mounts them)' : null;
  }
  const [top, ...inside] = target.rest.split('/');
  if (inside.length > 0 && ['components', 'pages', 'hooks'].includes(top)) return `its ${top}/ (use its api/ or top-level modules)`;
  return null;
}

const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps features out of each other\'s internals and out of client/src/app.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = featureOf(file);
    const isFeaturesIndex = path.relative(root, file).split(path.sep).join('/') === 'server/features/index.ts';
    function check(node) {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), spec);
      if (from && from.area === 'client/src/features' && inClientApp(target)) {
        context.report({ node, message: 'A feature does not import client/src/app: move what it needs into the feature or lib/.' });
        return;
      }
      const to = featureOf(target);
      if (!from || !to || isFeaturesIndex) return;
      if (from.area === to.area && from.feature === to.feature) return;
      const reason = internalReason(to);
      if (reason) context.report({ node, message: `Feature "${to.feature}" keeps ${reason}.` });
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

/** Top-level folders (and server/lib) and what each must never import: the direction of the layers. */
const FORBIDDEN = [
  { from: 'shared/', to: ['server/', 'client/'], why: 'shared/ is imported by both sides and imports neither' },
  { from: 'client/', to: ['server/'], why: 'the client reaches the server over HTTP and socket.io only' },
  { from: 'server/', to: ['client/'], why: 'the server serves the built client, it does not import it' },
  { from: 'server/lib/', to: ['server/features/', 'server/http/', 'server/realtime/', 'server/db/'], why: 'server/lib is the bottom layer' },
];

const layers = {
  meta: { type: 'problem', docs: { description: 'Imports follow the layers of docs/architecture.md.' }, schema: [] },
  create(context) {
    const rel = (f) => path.relative(root, f).split(path.sep).join('/');
    const from = rel(context.filename);
    const rules = FORBIDDEN.filter((r) => from.startsWith(r.from));
    function check(node) {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string' || rules.length === 0) return;
      const target = spec.startsWith('.') ? rel(path.resolve(path.dirname(context.filename), spec)) : spec.replace(/^@server\//, 'server/');
      for (const r of rules) {
        if (r.to.some((t) => target.startsWith(t))) context.report({ node, message: `${from} may not import ${target}: ${r.why}.` });
      }
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

// Serbian letters with diacritics: a string that has one is a Serbian text (design.md: texts in one tree).
const SERBIAN = /[čćšžđČĆŠŽĐ]/;

/**
 * Every Serbian text lives in shared/texts/ (issue 22 §5): a string literal or template with Serbian letters
 * anywhere else in server/ or client/src is refused. Plain-ASCII Serbian words cannot be told from names, so the
 * rule catches most texts, not every one; the reviewer does the rest.
 */
const textsInShared = {
  meta: { type: 'suggestion', docs: { description: 'Serbian texts live in shared/texts/.' }, schema: [] },
  create(context) {
    const report = (node) => context.report({ node, message: 'A Serbian text belongs in shared/texts/<area>.ts (one tree a reviewer can hold against the spec).' });
    return {
      Literal(node) {
        if (typeof node.value === 'string' && SERBIAN.test(node.value)) report(node);
      },
      TemplateElement(node) {
        if (SERBIAN.test(node.value.raw)) report(node);
      },
      JSXText(node) {
        if (SERBIAN.test(node.value)) report(node);
      },
    };
  },
};

export default { rules: { 'feature-boundaries': featureBoundaries, layers, 'texts-in-shared': textsInShared } };
