import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from '../context';

/** The built React client (dist/client) with index.html fallback; a plain page until the client is built. */
export function serveClient(app: Express, ctx: AppContext, sessionMiddleware: RequestHandler): void {
  app.use('/media', express.static(path.join(ctx.config.dataDir, 'media'), { immutable: true, maxAge: '365d', index: false }));
  const clientDir = path.resolve(process.env.CLIENT_DIR ?? 'dist/client');
  const indexFile = path.join(clientDir, 'index.html');
  app.use(express.static(clientDir, { index: false, maxAge: '1h' }));
  app.get(/.*/, sessionMiddleware, ctx.csrf.ensureCookie, (_req, res) => {
    if (fs.existsSync(indexFile)) {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(indexFile);
    } else {
      res.type('html').send('<!doctype html><html lang="sr"><meta charset="utf-8"><title>Aukcije</title><h1>Aukcije</h1><p>Klijent još nije izgrađen (npm run build).</p></html>');
    }
  });
}
