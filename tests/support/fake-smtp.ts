import net from 'node:net';

/**
 * A tiny SMTP server on loopback (RFC 5321's happy path, no TLS, no auth): `refusing` answers every connection
 * with 421 and closes it; otherwise each mail's DATA is kept as received (an .eml).
 */
export interface FakeSmtp {
  url: string;
  received: string[];
  /** How many connections were refused. */
  refusals: number;
  refusing: boolean;
  close(): Promise<void>;
}

export async function startFakeSmtp(opts: { refusing?: boolean } = {}): Promise<FakeSmtp> {
  const sockets = new Set<net.Socket>();
  const smtp: FakeSmtp = { url: '', received: [], refusals: 0, refusing: opts.refusing ?? false, close: async () => undefined };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (smtp.refusing) {
      smtp.refusals += 1;
      socket.end('421 fake.test Service not available, try again later\r\n');
      return;
    }
    socket.write('220 fake.test ESMTP\r\n');
    let buffer = '';
    let data: string | null = null;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          smtp.received.push(data.replace(/^\.\./gm, '.'));
          data = null;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake.test\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  smtp.url = `smtp://127.0.0.1:${port}`;
  smtp.close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return smtp;
}
