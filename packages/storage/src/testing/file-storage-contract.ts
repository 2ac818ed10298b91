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
