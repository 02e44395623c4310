import { gunzipSync } from 'node:zlib';

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

/** The `path=` record of a pax extended header, which overrides the next entry's name. */
function paxPath(body: Buffer): string | undefined {
  for (const record of body.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match !== null) return match[1];
  }
  return undefined;
}

/**
 * The content of the file at `path` inside a gzipped tar archive (an npm package tarball,
 * whose files sit under `package/`), or `undefined` when it holds no such file. Reads ustar,
 * pax and GNU long names, which is every form npm writes.
 */
export function readTarballFile(tarball: Buffer, path: string): Buffer | undefined {
  const tar = gunzipSync(tarball);
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return undefined;
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const body = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = paxPath(body) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = field(body, 0, body.length);
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`);
    longName = undefined;
    if ((type === '0' || type === '\0') && name === path) return Buffer.from(body);
  }
  return undefined;
}
