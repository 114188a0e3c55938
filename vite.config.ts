import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** This file's folder (the project root): an ES module has no `__dirname`, and Vite warns when a config uses it. */
const projectRoot = path.dirname(fileURLToPath(import.meta.url));

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  root: path.resolve(projectRoot, 'client'),
  plugins: [react()],
  resolve: { alias: { '@shared': path.resolve(projectRoot, 'shared') } },
  build: {
    outDir: path.resolve(projectRoot, 'dist/client'),
    emptyOutDir: true,
    sourcemap: false,
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
