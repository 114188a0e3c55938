/**
 * `npm run backup -- FILE` and `npm run restore -- FILE DATA_DIR` (scripts/backup.ts, scripts/restore.ts): one
 * tar file that holds everything a SQLite installation needs to come back as it was.
 *
 *   backup.json      what this is (format, version, when, what it holds)
 *   aukcije.sqlite   the database, taken with SQLite's online backup API while the server runs: one step, so
 *                    one read transaction and one consistent snapshot (WAL: the server keeps writing meanwhile)
 *   session-secret   DATA_DIR/session-secret: without it every session cookie and every signed link (e-mail
 *                    verification, password reset, unsubscribe) dies; absent when SESSION_SECRET is set
 *   media/…          every file of MEDIA_DIR (DATA_DIR/media, or a folder elsewhere), copied after the snapshot,
 *                    so every image the snapshot names is there
 *
 * DATA_DIR/outbox (mails already written) is not kept. PostgreSQL installations use pg_dump and pg_restore
 * (README, "Rezervne kopije"); this refuses DATABASE_URL.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../server/config';
import { sqliteDriver } from '../../server/db/sqlite-driver';
import { readTar, TarError, TarWriter } from './tar';

export const BACKUP_FORMAT = 'aukcije-backup';
export const BACKUP_VERSION = 1;
const DB_NAME = 'aukcije.sqlite';
const SECRET_NAME = 'session-secret';

export class BackupError extends Error {}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  database: typeof DB_NAME;
  /** `file`: DATA_DIR/session-secret is inside; `env`: SESSION_SECRET was set, keep it with the backup. */
  session_secret: 'file' | 'env';
  media_files: number;
}

export interface BackupSummary extends Manifest {
  file: string;
  bytes: number;
  /** When the snapshot's read transaction began (every commit before it is inside). */
  snapshotAt: string;
}

/** Every file below `dir`, as paths relative to it with `/`, sorted (folders first by name order). */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) out.push(r);
    }
  };
  walk('');
  return out;
}

/** The database at `source` copied to `target` with SQLite's online backup API, in one step; checked afterwards. */
async function snapshot(source: string, target: string): Promise<string> {
  const Database = sqliteDriver();
  const db = new Database(source, { fileMustExist: true });
  let at = '';
  try {
    db.pragma('busy_timeout = 5000');
    at = new Date().toISOString();
    // better-sqlite3's first step only opens the backup; returning the whole page count makes the next one copy
    // everything under one read lock (a writer in another process never restarts it, as it would between steps).
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const check = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const result = check.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`kopija baze nije ispravna (PRAGMA integrity_check: ${String(result)})`);
  } finally {
    check.close();
  }
  return at;
}

/** Writes the backup of `config`'s installation to `file` (replaced atomically: a failed backup leaves no file). */
export async function backup(config: Config, file: string): Promise<BackupSummary> {
  if (config.databaseUrl) throw new BackupError('DATABASE_URL je postavljen: bazu na PostgreSQL-u kopirajte sa pg_dump (README, „Rezervne kopije”), a MEDIA_DIR posebno.');
  const dbFile = path.join(config.dataDir, DB_NAME);
  if (!fs.existsSync(dbFile)) throw new BackupError(`nema baze ${dbFile} (DATA_DIR=${config.dataDir})`);
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const work = fs.mkdtempSync(path.join(path.dirname(target), '.aukcije-backup-'));
  const partial = path.join(work, 'archive.tar');
  try {
    const dbCopy = path.join(work, DB_NAME);
    const snapshotAt = await snapshot(dbFile, dbCopy);
    const secretFile = path.join(config.dataDir, SECRET_NAME);
    const hasSecret = fs.existsSync(secretFile) && !config.sessionSecret;
    const media = filesBelow(config.mediaDir);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: snapshotAt,
      database: DB_NAME,
      session_secret: hasSecret ? 'file' : 'env',
      media_files: media.length,
    };
    const fd = fs.openSync(partial, 'wx', 0o600);
    try {
      const tar = new TarWriter(fd);
      tar.bytes('backup.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      tar.file(DB_NAME, dbCopy);
      if (hasSecret) tar.file(SECRET_NAME, secretFile);
      tar.dir('media');
      for (const rel of media) tar.file(`media/${rel}`, path.join(config.mediaDir, rel));
      tar.end();
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(partial, target);
    return { ...manifest, file: target, bytes: fs.statSync(target).size, snapshotAt };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Whether `dir` is missing or an empty folder. */
function isEmptyOrMissing(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  if (!fs.statSync(dir).isDirectory()) return false;
  return fs.readdirSync(dir).length === 0;
}

const inside = (dir: string, parent: string) => dir === parent || dir.startsWith(parent + path.sep);

export interface RestoreSummary {
  manifest: Manifest;
  dataDir: string;
  mediaDir: string;
  mediaFiles: number;
  integrity: string;
}

/**
 * Restores the backup `file` into `dataDir` (which must be empty or missing) and the images into `mediaDir`
 * (DATA_DIR/media, or MEDIA_DIR: empty or missing too when it is outside DATA_DIR). Ends with PRAGMA
 * integrity_check on the restored database.
 */
export function restore(file: string, dataDir: string, mediaDir: string): RestoreSummary {
  if (!fs.existsSync(file)) throw new BackupError(`nema fajla ${file}`);
  if (!isEmptyOrMissing(dataDir)) throw new BackupError(`DATA_DIR ${dataDir} nije prazan: vraćam samo u prazan ili nov direktorijum (ništa nije izmenjeno).`);
  if (!inside(mediaDir, dataDir) && !isEmptyOrMissing(mediaDir)) throw new BackupError(`MEDIA_DIR ${mediaDir} nije prazan: vraćam samo u prazan ili nov direktorijum (ništa nije izmenjeno).`);
  const { manifest, mediaFiles } = extract(file, dataDir, mediaDir);
  const dbFile = path.join(dataDir, DB_NAME);
  if (!fs.existsSync(dbFile)) throw new BackupError('u kopiji nema baze');
  const Database = sqliteDriver();
  const db = new Database(dbFile, { fileMustExist: true });
  let integrity: string;
  try {
    integrity = String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
  return { manifest, dataDir, mediaDir, mediaFiles, integrity };
}

/** Writes the archive's entries to their places; the folders are made only once backup.json proved what it is. */
function extract(file: string, dataDir: string, mediaDir: string): { manifest: Manifest; mediaFiles: number } {
  let manifest: Manifest | undefined;
  let mediaFiles = 0;
  try {
    readTar(file, (entry, content) => {
      if (!manifest) {
        manifest = parseManifest(entry.name === 'backup.json' && entry.type === 'file' ? content.read() : null);
        fs.mkdirSync(dataDir, { recursive: true });
        fs.mkdirSync(mediaDir, { recursive: true });
      } else if (entry.name === DB_NAME && entry.type === 'file') content.to(path.join(dataDir, DB_NAME));
      else if (entry.name === SECRET_NAME && entry.type === 'file') content.to(path.join(dataDir, SECRET_NAME), 0o600);
      else if (entry.name === 'media' && entry.type === 'dir') return;
      else if (entry.name.startsWith('media/')) {
        const target = path.join(mediaDir, entry.name.slice('media/'.length));
        fs.mkdirSync(entry.type === 'dir' ? target : path.dirname(target), { recursive: true });
        if (entry.type === 'file') {
          content.to(target);
          mediaFiles += 1;
        }
      } else throw new BackupError(`neočekivan sadržaj u kopiji: ${entry.name}`);
    });
  } catch (err) {
    if (err instanceof TarError) throw new BackupError(`${file} nije ispravna rezervna kopija (${err.message})`);
    throw err;
  }
  if (!manifest) throw new BackupError(`${file} je prazna arhiva`);
  return { manifest, mediaFiles };
}

function parseManifest(raw: Buffer | null): Manifest {
  let m: Partial<Manifest> | undefined;
  try {
    m = raw ? (JSON.parse(raw.toString('utf8')) as Partial<Manifest>) : undefined;
  } catch {
    m = undefined;
  }
  if (!m || m.format !== BACKUP_FORMAT) throw new BackupError('ovo nije rezervna kopija Aukcija (nema backup.json na početku)');
  if (m.version !== BACKUP_VERSION) throw new BackupError(`nepoznata verzija kopije: ${String(m.version)}`);
  return m as Manifest;
}
