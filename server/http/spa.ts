import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../context';
import { findShareRow } from '../features/auctions/auctions.repository';
import { escapeHtml } from '@shared/texts/html';
import { precompressedStatic } from './precompressed';

const OG_DESCRIPTION_MAX = 200;

/** The first ~200 characters of a description on one line, cut at a word boundary. */
export function ogDescription(text: string, max = OG_DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface ShareMeta {
  title: string;
  description: string;
  url: string;
  image: string | null;
}

/** index.html with the auction's Open Graph tags and <title> (spec §2 "Sharing metadata"). */
export function injectShareMeta(html: string, meta: ShareMeta): string {
  const t = escapeHtml(meta.title);
  const d = escapeHtml(meta.description);
  const tags = [
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="Aukcije" />`,
    `<meta property="og:title" content="${t}" />`,
    `<meta property="og:description" content="${d}" />`,
    `<meta name="description" content="${d}" />`,
    `<meta property="og:url" content="${escapeHtml(meta.url)}" />`,
    meta.image ? `<meta property="og:image" content="${escapeHtml(meta.image)}" />` : '',
    `<meta name="twitter:card" content="${meta.image ? 'summary_large_image' : 'summary'}" />`,
    `<link rel="canonical" href="${escapeHtml(meta.url)}" />`,
  ]
    .filter(Boolean)
    .join('\n    ');
  const withTitle = /<title>[\s\S]*?<\/title>/i.test(html)
    ? html.replace(/<title>[\s\S]*?<\/title>/i, () => `<title>${t} | Aukcije</title>`)
    : html.replace(/<\/head>/i, () => `<title>${t} | Aukcije</title></head>`);
  return withTitle.replace(/<\/head>/i, () => `    ${tags}\n  </head>`);
}

async function loadShareMeta(ctx: AppContext, id: number): Promise<ShareMeta | null> {
  const row = await findShareRow(ctx.db, id);
  if (!row) return null;
  const base = ctx.config.publicUrl;
  return {
    title: row.title,
    description: ogDescription(row.description),
    url: `${base}/aukcija/${row.id}`,
    image: row.first_large_path !== null ? `${base}/media/${row.first_large_path.split('/').map(encodeURIComponent).join('/')}` : null,
  };
}

/**
 * The built React client (dist/client, precompressed: server/http/precompressed.ts) with index.html fallback;
 * a plain page until the client is built.
 */
export function serveClient(app: Express, ctx: AppContext, sessionMiddleware: RequestHandler): void {
  app.use('/media', express.static(ctx.config.mediaDir, { immutable: true, maxAge: '365d', index: false, fallthrough: false }));
  const clientDir = path.resolve(process.env.CLIENT_DIR ?? 'dist/client');
  const indexFile = path.join(clientDir, 'index.html');
  // Vite names everything in assets/ by its content hash: a changed file is a new URL, so browsers keep these
  // for a year without asking. Other files (favicon, placeholder) keep their names and an hour.
  app.use('/assets', precompressedStatic(path.join(clientDir, 'assets'), { index: false, immutable: true, maxAge: '365d' }));
  app.use(precompressedStatic(clientDir, { index: false, maxAge: '1h' }));

  // index.html is read once and kept in memory; its mtime is checked so a rebuild is picked up.
  let cached: { html: string; mtimeMs: number } | null = null;
  const readIndex = (): string | null => {
    try {
      const st = fs.statSync(indexFile);
      if (!cached || cached.mtimeMs !== st.mtimeMs) cached = { html: fs.readFileSync(indexFile, 'utf8'), mtimeMs: st.mtimeMs };
      return cached.html;
    } catch {
      cached = null;
      return null;
    }
  };

  const sendIndex = (res: Response, html: string) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  };

  const handler = async (req: Request, res: Response) => {
    const html = readIndex();
    if (html === null) {
      res.type('html').send('<!doctype html><html lang="sr"><meta charset="utf-8"><title>Aukcije</title><h1>Aukcije</h1><p>Klijent još nije izgrađen (npm run build).</p></html>');
      return;
    }
    const m = /^\/aukcija\/(\d{1,15})\/?$/.exec(req.path);
    if (m) {
      const id = Number(m[1]);
      try {
        const meta = Number.isSafeInteger(id) ? await loadShareMeta(ctx, id) : null;
        if (meta) {
          sendIndex(res, injectShareMeta(html, meta));
          return;
        }
      } catch (err) {
        ctx.logger.warn({ err, id }, 'share metadata failed; serving the plain page');
      }
    }
    sendIndex(res, html);
  };

  app.get(/.*/, sessionMiddleware, ctx.csrf.ensureCookie, (req, res, next) => {
    handler(req, res).catch(next);
  });
}
