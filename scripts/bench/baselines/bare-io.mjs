#!/usr/bin/env node
// Baseline for B2/B6/B7: a bare socket.io server on PORT. Sockets join rooms with `auction:join`;
// POST /bid {auction_id, amount} broadcasts a `bid:placed` payload of the same shape as Aukcije's.
import http from 'node:http';
import { Server } from 'socket.io';

let seq = 0;
let bidId = 0;
const server = http.createServer((req, res) => {
  if (req.url === '/hello') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"hello":"world"}');
    return;
  }
  if (req.method === 'POST' && req.url === '/bid') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const { auction_id, amount } = JSON.parse(body);
      seq += 1;
      bidId += 1;
      const now = new Date().toISOString();
      const bid = { id: bidId, bidder: 2, bidder_name: 'Licitant 1', amount, created_at: now };
      io.to(`auction:${auction_id}`).emit('bid:placed', {
        auction_id,
        seq,
        bid,
        current_price: amount,
        bid_count: seq,
        end_date: new Date(Date.now() + 86_400_000).toISOString(),
      });
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...bid, current_price: amount }));
    });
    return;
  }
  res.writeHead(404).end();
});
const io = new Server(server, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('auction:join', async (payload, ack) => {
    await socket.join(`auction:${payload.auction_id}`);
    if (typeof ack === 'function') ack({ ok: true, server_time: Date.now(), seq });
  });
});
server.listen(Number(process.env.PORT ?? 3998), '127.0.0.1');
process.on('SIGTERM', () => {
  io.close();
  process.exit(0);
});
