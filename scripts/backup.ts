/**
 * `npm run backup -- FILE`: the whole installation (SQLite database, session secret, images) in one tar file,
 * while the server runs (scripts/lib/backup.ts). Reads DATA_DIR, MEDIA_DIR and SESSION_SECRET like the server.
 */
import { ConfigError, loadConfig } from '../server/config';
import { backup, BackupError } from './lib/backup';
import { TarError } from './lib/tar';

const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('Upotreba: npm run backup -- FAJL   (npr. npm run backup -- /var/backups/aukcije-2026-11-25.tar)');
  process.exit(2);
}
try {
  const s = await backup(loadConfig(), file);
  console.log(`Rezervna kopija: ${s.file} (${(s.bytes / 1024 / 1024).toFixed(1)} MB; baza u trenutku ${s.snapshotAt}, ${s.media_files} slika).`);
  if (s.session_secret === 'env') console.log('SESSION_SECRET je postavljen u okruženju: čuvajte ga uz kopiju (bez njega prestaju da važe sesije i potpisani linkovi).');
} catch (err) {
  if (err instanceof BackupError || err instanceof ConfigError || err instanceof TarError) {
    console.error(`Rezervna kopija nije napravljena: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
