/**
 * The little of the tar format (POSIX ustar) that a backup needs: regular files and folders, written and read
 * in order, in chunks (a database of gigabytes never sits in memory). Any `tar` reads what this writes
 * (`tar -tvf FILE` lists a backup); sizes of 8 GiB and more use GNU's base-256 size field, which GNU tar and
 * bsdtar read too. Reading refuses what a backup never holds: links, devices, absolute names, `..`.
 */
import fs from 'node:fs';

const BLOCK = 512;
const CHUNK = 1 << 20;

export class TarError extends Error {}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtimeMs: number, dir: boolean): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    // ustar splits a long name at a slash: up to 155 bytes of folders in `prefix`, up to 100 in `name`.
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100 || Buffer.byteLength(name.slice(0, cut)) > 155) throw new TarError(`name too long for tar: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  h.write(base, 0, 100, 'utf8');
  h.write(octal(dir ? 0o755 : 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  if (size < 8 ** 11) h.write(octal(size, 12), 124, 'ascii');
  else {
    // GNU base-256: the high bit of the first byte set, then the size big-endian.
    h[124] = 0x80;
    h.writeBigUInt64BE(BigInt(size), 124 + 4);
  }
  h.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'ascii');
  h.write(dir ? '5' : '0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  h.fill(' ', 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** Writes a tar archive to `fd`, entry by entry; end() writes the two empty blocks that close it. */
export class TarWriter {
  constructor(private readonly fd: number) {}

  dir(name: string, mtimeMs = Date.now()): void {
    fs.writeSync(this.fd, header(name.endsWith('/') ? name : `${name}/`, 0, mtimeMs, true));
  }

  /** An entry with `data` as its content. */
  bytes(name: string, data: Buffer, mtimeMs = Date.now()): void {
    fs.writeSync(this.fd, header(name, data.length, mtimeMs, false));
    fs.writeSync(this.fd, data);
    this.pad(data.length);
  }

  /** An entry copied from the file at `source`, in chunks. */
  file(name: string, source: string): void {
    const st = fs.statSync(source);
    fs.writeSync(this.fd, header(name, st.size, st.mtimeMs, false));
    const src = fs.openSync(source, 'r');
    try {
      const buf = Buffer.allocUnsafe(CHUNK);
      let left = st.size;
      while (left > 0) {
        const n = fs.readSync(src, buf, 0, Math.min(CHUNK, left), null);
        if (n === 0) throw new TarError(`${source} became shorter while it was copied`);
        fs.writeSync(this.fd, buf, 0, n);
        left -= n;
      }
    } finally {
      fs.closeSync(src);
    }
    this.pad(st.size);
  }

  end(): void {
    fs.writeSync(this.fd, Buffer.alloc(BLOCK * 2));
  }

  private pad(size: number): void {
    const rest = size % BLOCK;
    if (rest) fs.writeSync(this.fd, Buffer.alloc(BLOCK - rest));
  }
}

export interface TarEntry {
  name: string;
  type: 'file' | 'dir';
  size: number;
}

function field(h: Buffer, start: number, length: number): string {
  const raw = h.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function sizeOf(h: Buffer): number {
  if (h[124] & 0x80) return Number(h.readBigUInt64BE(124 + 4));
  return parseInt(field(h, 124, 12).trim() || '0', 8);
}

function parseHeader(h: Buffer): TarEntry {
  const stored = parseInt(field(h, 148, 8).trim(), 8);
  const copy = Buffer.from(h);
  copy.fill(' ', 148, 156);
  let sum = 0;
  for (const b of copy) sum += b;
  if (sum !== stored) throw new TarError('not a tar archive (bad header checksum)');
  const prefix = field(h, 345, 155);
  const name = (prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100)).replace(/\/$/, '');
  const flag = String.fromCharCode(h[156]);
  if (flag !== '0' && flag !== '\0' && flag !== '5') throw new TarError(`unexpected entry type '${flag}' (${name})`);
  if (name === '' || name.startsWith('/') || name.split('/').some((part) => part === '..' || part === '')) throw new TarError(`unsafe name in archive: ${name}`);
  return { name, type: flag === '5' ? 'dir' : 'file', size: flag === '5' ? 0 : sizeOf(h) };
}

/**
 * Reads the archive at `file` entry by entry: `onEntry` gets each entry and a function that copies its content
 * to a file (`to(path)`) or returns it (`read()`, for small entries); content it does not take is skipped.
 */
export function readTar(file: string, onEntry: (entry: TarEntry, content: { to(target: string, mode?: number): void; read(): Buffer }) => void): void {
  const fd = fs.openSync(file, 'r');
  try {
    const h = Buffer.alloc(BLOCK);
    let pos = 0;
    for (;;) {
      if (fs.readSync(fd, h, 0, BLOCK, pos) < BLOCK) throw new TarError('archive ends too early');
      if (h.every((b) => b === 0)) return;
      const entry = parseHeader(h);
      const start = pos + BLOCK;
      const take = (write: (chunk: Buffer) => void) => {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(entry.size, 1)));
        let done = 0;
        while (done < entry.size) {
          const n = fs.readSync(fd, buf, 0, Math.min(buf.length, entry.size - done), start + done);
          if (n === 0) throw new TarError('archive ends too early');
          write(buf.subarray(0, n));
          done += n;
        }
      };
      onEntry(entry, {
        to(target, mode = 0o644) {
          const out = fs.openSync(target, 'wx', mode);
          try {
            take((chunk) => fs.writeSync(out, chunk));
          } finally {
            fs.closeSync(out);
          }
        },
        read() {
          const parts: Buffer[] = [];
          take((chunk) => parts.push(Buffer.from(chunk)));
          return Buffer.concat(parts);
        },
      });
      pos = start + Math.ceil(entry.size / BLOCK) * BLOCK;
    }
  } finally {
    fs.closeSync(fd);
  }
}
