import { crc32, deflateRawSync } from 'node:zlib';
import type { ZipEntry } from './build-zip';

/** One entry as written: its local header and data, and its central-directory record. */
export interface ZipEntryBytes {
  local: Buffer;
  central: Buffer;
}

const UTF8_NAMES = 0x0800;
const LIMIT_32 = 0xffffffff;
/** Entries of an archive without ZIP64 (a 10,000-document export has 20,000). */
export const ZIP_MAX_ENTRIES = 0xffff;

/** MS-DOS time and date of `at` (UTC): the ZIP's timestamp of each entry. */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/**
 * One entry of a ZIP written in parts, at `offset` in the archive: the same entry, offset and time always give the
 * same bytes, so a part written again after a crash is identical to the first try. Entries above 4 GiB (ZIP64)
 * are refused.
 */
export function zipEntryBytes(entry: ZipEntry, offset: number, at: Date): ZipEntryBytes {
  const content = Buffer.isBuffer(entry.content) ? entry.content : Buffer.from(entry.content, 'utf8');
  const data = entry.store ? content : deflateRawSync(content, { level: 6 });
  const name = Buffer.from(entry.name, 'utf8');
  if (offset + 30 + name.length + data.length > LIMIT_32)
    throw new Error('the archive would pass 4 GiB: export fewer documents at a time');
  const { time, date } = dosTime(at);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(UTF8_NAMES, 6);
  local.writeUInt16LE(entry.store ? 0 : 8, 8);
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(date, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(name.length, 26);
  local.writeUInt16LE(0, 28);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  local.copy(central, 8, 6, 30); // flags, method, time, date, crc, sizes, name length, extra length
  central.writeUInt16LE(0, 32); // comment length
  central.writeUInt16LE(0, 34); // disk
  central.writeUInt16LE(0, 36); // internal attributes
  central.writeUInt32LE(0, 38); // external attributes
  central.writeUInt32LE(offset, 42);
  return { local: Buffer.concat([local, name, data]), central: Buffer.concat([central, name]) };
}

/** The end-of-central-directory record of `entries` entries whose directory of `size` bytes starts at `offset`. */
export function zipEnd(entries: number, size: number, offset: number): Buffer {
  if (entries > ZIP_MAX_ENTRIES || offset + size > LIMIT_32)
    throw new Error('the archive needs ZIP64: export fewer documents at a time');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return end;
}
