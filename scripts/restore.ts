/**
 * `npm run restore -- FILE DATA_DIR`: a backup of `npm run backup` into an empty (or new) DATA_DIR; the images
 * into MEDIA_DIR when it is set (empty or new too), else DATA_DIR/media (scripts/lib/backup.ts). Then start the
 * server with that DATA_DIR (and MEDIA_DIR).
 */
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config';
import { BackupError, restore } from './lib/backup';

const [file, dataDirArg] = process.argv.slice(2);
if (!file || !dataDirArg || process.argv.length > 4) {
  console.error('Upotreba: npm run restore -- FAJL DATA_DIR   (DATA_DIR mora biti prazan ili nepostojeći; slike idu u MEDIA_DIR ako je postavljen)');
  process.exit(2);
}
try {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDirArg });
  if (config.databaseUrl) throw new BackupError('DATABASE_URL je postavljen: bazu na PostgreSQL-u vratite sa pg_restore (README, „Rezervne kopije”).');
  const s = restore(path.resolve(file), config.dataDir, config.mediaDir);
  if (s.integrity !== 'ok') {
    console.error(`Vraćeno u ${s.dataDir}, ali PRAGMA integrity_check kaže: ${s.integrity}`);
    process.exit(1);
  }
  console.log(`Vraćeno u ${s.dataDir} (kopija od ${s.manifest.created_at}; ${s.mediaFiles} slika u ${s.mediaDir}; PRAGMA integrity_check: ok).`);
  if (s.manifest.session_secret === 'env') console.log('Kopija nema session-secret: pokrenite server sa istim SESSION_SECRET kao pre.');
} catch (err) {
  if (err instanceof BackupError || err instanceof ConfigError) {
    console.error(`Vraćanje nije uspelo: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
