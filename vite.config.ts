import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** This file's folder (the project root): an ES module has no `__dirname`, and Vite warns when a config uses it. */
const projectRoot = path.dirname(fileURLToPath(import.meta.url));

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

/**
 * Writes `.vite/modules.json` beside Vite's manifest: for each JS chunk, the modules that put code in it
 * (paths relative to the repo). The manifest says which chunk loads which; this says what is inside, so
 * tests/bench/first-load.test.ts can refuse classic zod anywhere a first visit loads.
 */
function chunkModules(): Plugin {
  return {
    name: 'aukcije:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const out: Record<string, string[]> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        out[chunk.fileName] = Object.entries(chunk.modules)
          .filter(([, m]) => m.renderedLength > 0)
          .map(([id]) => path.relative(projectRoot, id.replace(/^\0/, '')).split(path.sep).join('/'))
          .sort();
      }
      this.emitFile({ type: 'asset', fileName: '.vite/modules.json', source: JSON.stringify(out, null, 1) });
    },
  };
}

export default defineConfig({
  root: path.resolve(projectRoot, 'client'),
  plugins: [react(), chunkModules()],
  resolve: { alias: { '@shared': path.resolve(projectRoot, 'shared') } },
  build: {
    outDir: path.resolve(projectRoot, 'dist/client'),
    emptyOutDir: true,
    sourcemap: false,
    // No modulepreload polyfill (0.5 KiB gz in every first load): every browser of the build target but Safari
    // 16.x supports <link rel="modulepreload">, and there the preloads are only fetched a moment later.
    modulePreload: { polyfill: false },
    // .vite/manifest.json: which chunks a page loads (read by the first-load budget test). Not served: the
    // static handler ignores dot-folders.
    manifest: true,
    // Everything a page needs before its own chunk (React, the router, react-query, the texts, the shell) in the
    // entry chunk: left to itself Rolldown cut it into four more chunks (sr, queryOptions, useMutation…), each
    // one more request and ~0.7 kB gz of its own (issue 21).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    proxy: {
      '/api': apiTarget,
      '/media': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
