import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** This file's folder (the project root): an ES module has no `__dirname`, and Vite warns when a config uses it. */
const projectRoot = path.dirname(fileURLToPath(import.meta.url));

const alias = { '@shared': path.resolve(projectRoot, 'shared') };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/shared/**/*.test.ts', 'tests/security/**/*.test.ts', 'tests/reliability/**/*.test.ts', 'tests/bench/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['tests/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/client-setup.ts'],
          testTimeout: 15_000,
        },
      },
    ],
  },
});
