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
  const shutdown = () => {
    void server.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** Settles once the server listens (dist/server/index.js then writes its code cache, scripts/server-loader.mjs). */
export const ready = main().catch((err) => {
  if (err instanceof SqliteDriverError) {
    console.error(`Pokretanje nije uspelo: ${err.message}`);
    process.exit(1);
  }
  console.error('Pokretanje nije uspelo:', err);
  process.exit(1);
});
