import { ConfigError, loadConfig } from './config';
import { createApp } from './app';
import { SqliteDriverError } from './db/sqlite-driver';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const server = await createApp({ config });
  const port = await server.listen();
  server.ctx.logger.info(`Aukcije: http://localhost:${port} (PUBLIC_URL ${config.publicUrl})`);
  // The graceful shutdown (server/lifecycle.ts). A second signal while it runs (npm forwards the terminal's
  // Ctrl+C, which the node also got) changes nothing; a shutdown that overruns its limits by HARD_STOP_MS exits 1.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    server.ctx.logger.info(`${signal}: shutting down (SHUTDOWN_DRAIN_SECONDS=${config.shutdownDrainSeconds}, SHUTDOWN_TIMEOUT_SECONDS=${config.shutdownTimeoutSeconds})`);
    const limitMs = (config.shutdownDrainSeconds + config.shutdownTimeoutSeconds) * 1000 + HARD_STOP_MS;
    setTimeout(() => {
      server.ctx.logger.error('shutdown overran its limits: exiting');
      process.exit(1);
    }, limitMs).unref();
    server.shutdown().then(
      () => process.exit(0),
      (err: unknown) => {
        server.ctx.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** What closing the sockets, the closer's last auction, Redis and the database may take after the drain and the timeout. */
const HARD_STOP_MS = 5000;

/** Settles once the server listens (dist/server/index.js then writes its code cache, scripts/server-loader.mjs). */
export const ready = main().catch((err) => {
  if (err instanceof SqliteDriverError) {
    console.error(`Pokretanje nije uspelo: ${err.message}`);
    process.exit(1);
  }
  console.error('Pokretanje nije uspelo:', err);
  process.exit(1);
});
