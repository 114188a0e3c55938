#!/usr/bin/env node
// Baseline for B1/B3: Express 5 hello-world JSON route on PORT (any method, body ignored).
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.all('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
app.all('/api/bids/', (_req, res) => {
  res.status(201).json({ hello: 'world' });
});
const server = app.listen(Number(process.env.PORT ?? 3999), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
