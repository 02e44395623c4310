/** An ISO-BMFF box: a 32-bit size, the type, the payload. */
export function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'ascii');
  return Buffer.concat([header, body]);
}

/** A box with a 64-bit size (size field 1, then the real size after the type). */
function largeBox(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(1, 0);
  header.write(type, 4, 'ascii');
  header.writeBigUInt64BE(BigInt(16 + payload.length), 8);
  return Buffer.concat([header, payload]);
}

const IDENTITY_MATRIX = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];

/** The part of mvhd after the duration: rate, volume, reserved, matrix, pre_defined, next_track_ID. */
function mvhdTail(): Buffer {
  const tail = Buffer.alloc(4 + 2 + 10 + 36 + 24 + 4);
  tail.writeUInt32BE(0x0001_0000, 0);
  tail.writeUInt16BE(0x0100, 4);
  IDENTITY_MATRIX.forEach((value, index) => tail.writeUInt32BE(value, 16 + index * 4));
  tail.writeUInt32BE(2, tail.length - 4);
  return tail;
}

/** A movie header box, version 0 (32-bit times) or 1 (64-bit times). */
export function mvhd(version: 0 | 1, timescale: number, duration: number): Buffer {
  const fields = Buffer.alloc(version === 0 ? 20 : 32);
  fields.writeUInt32BE(version << 24, 0);
  if (version === 0) {
    fields.writeUInt32BE(3_800_000_000, 4);
    fields.writeUInt32BE(3_800_000_001, 8);
    fields.writeUInt32BE(timescale, 12);
    fields.writeUInt32BE(duration, 16);
  } else {
    fields.writeBigUInt64BE(3_800_000_000n, 4);
    fields.writeBigUInt64BE(3_800_000_001n, 12);
    fields.writeUInt32BE(timescale, 20);
    fields.writeBigUInt64BE(BigInt(duration), 24);
  }
  return box('mvhd', fields, mvhdTail());
}

export interface Mp4Options {
  durationS: number;
  mvhdVersion?: 0 | 1;
  timescale?: number;
  /** Bytes of media data before `moov` (default 200 000). */
  mdatBytes?: number;
  /** Write `mdat` with a 64-bit size header. */
  largeMdat?: boolean;
}

/**
 * A minimal MP4: ftyp, free, a large mdat, then moov (an iods box, then mvhd, then a trak),
 * so reading the duration walks four top-level boxes and two inside moov.
 */
export function buildMp4(options: Mp4Options): Buffer {
  const { durationS, mvhdVersion = 0, timescale = 1000, mdatBytes = 200_000, largeMdat = false } = options;
  const ftyp = box('ftyp', Buffer.from('isom', 'ascii'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41', 'ascii'));
  const free = box('free', Buffer.alloc(8));
  const media = Buffer.alloc(mdatBytes, 0x5a);
  const mdat = largeMdat ? largeBox('mdat', media) : box('mdat', media);
  const moov = box('moov', box('iods', Buffer.alloc(16)), mvhd(mvhdVersion, timescale, Math.round(durationS * timescale)), box('trak', box('tkhd', Buffer.alloc(84))));
  return Buffer.concat([ftyp, free, mdat, moov]);
}
