import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileStorage } from '../file-storage';

/**
 * Checks shared by every driver's tests: many writers replace one key at once, and each read in between sees one
 * whole version, never a mix or a truncated object.
 */
export async function expectWholeReadsUnderConcurrentWrites(
  storage: FileStorage,
  key: string,
): Promise<void> {
  const versions = Array.from({ length: 8 }, (_, i) => Buffer.alloc(256 * 1024, i));
  const reads: Promise<unknown>[] = [];
  await Promise.all(
    versions.map(async (bytes) => {
      await storage.put(key, bytes, 'application/octet-stream');
      reads.push(storage.get(key));
    }),
  );
  for (const read of await Promise.all(reads)) {
    const bytes = (read as { bytes: Buffer }).bytes;
    expect(bytes.length).toBe(256 * 1024);
    expect(bytes.every((b) => b === bytes[0])).toBe(true);
  }
}

/** Deterministic chunks of `total` bytes (64 KiB each), produced as they are read. */
async function* generated(total: number, failAt?: number): AsyncGenerator<Uint8Array> {
  const size = 64 * 1024;
  for (let offset = 0; offset < total; offset += size) {
    if (failAt !== undefined && offset + size > failAt) throw new Error('the source failed');
    const chunk = Buffer.alloc(Math.min(size, total - offset));
    for (let i = 0; i < chunk.length; i++) chunk[i] = (offset + i) % 251;
    yield chunk;
  }
}

async function sha256(stream: NodeJS.ReadableStream): Promise<{ hash: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { hash: hash.digest('hex'), bytes };
}

/**
 * A streamed put of `total` bytes reads back whole, as a stream and as bytes; a source that fails halfway leaves
 * the previous version in place, never a truncated file.
 */
export async function expectStreamedPutsWhole(
  storage: FileStorage,
  key: string,
  total: number,
): Promise<void> {
  expect(await storage.getStream(key)).toBeNull();
  expect(await storage.putStream(key, generated(total), 'application/zip')).toBe(total);
  const expected = await sha256(Readable.from(generated(total)));
  const read = await storage.getStream(key);
  expect({ contentType: read?.contentType, size: read?.size }).toEqual({
    contentType: 'application/zip',
    size: total,
  });
  expect(await sha256(read!.stream)).toEqual(expected);
  await expect(storage.putStream(key, generated(total, total / 2), 'text/plain')).rejects.toThrow(
    'the source failed',
  );
  const after = await storage.get(key);
  expect({ contentType: after?.contentType, bytes: after?.bytes.length }).toEqual({
    contentType: 'application/zip',
    bytes: total,
  });
}
