import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStorage, StoredFile, StoredFileStream } from './file-storage';
import { assertStorageKey } from './storage-key';

const META_DIR = '.meta';
const TMP_DIR = '.tmp';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * Files under one directory. Each put writes and fsyncs a temp file in the same filesystem and renames it over
 * the target, so a crash or a concurrent reader never sees a partial file and an answered put survives a power
 * loss (acuses and logos exist nowhere else). The content type lives in a sidecar under `.meta/` (keys cannot
 * start with a dot, so the names never collide), keeping stored files raw.
 */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  async put(key: string, bytes: Buffer, contentType: string): Promise<void> {
    assertStorageKey(key);
    // Metadata first: a reader racing the first put sees no file at all rather than one without a type.
    await this.writeAtomically(this.metaPath(key), Buffer.from(JSON.stringify({ contentType })));
    await this.writeAtomically(this.dataPath(key), bytes);
  }

  /** As `put`, with the data written first: a source failing halfway leaves the previous file and its type as they were. */
  async putStream(key: string, chunks: AsyncIterable<Uint8Array>, contentType: string): Promise<number> {
    assertStorageKey(key);
    let size = 0;
    await this.writeAtomically(
      this.dataPath(key),
      async (handle) => {
        for await (const chunk of chunks) {
          await handle.write(chunk);
          size += chunk.byteLength;
        }
      },
      () => this.writeAtomically(this.metaPath(key), Buffer.from(JSON.stringify({ contentType }))),
    );
    return size;
  }

  async getStream(key: string): Promise<StoredFileStream | null> {
    assertStorageKey(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.dataPath(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // Opened before the size is read: a replacing put renames a new file in, and this handle keeps the old one whole.
    const { size } = await handle.stat();
    const meta = await readOrNull(this.metaPath(key));
    const contentType = meta
      ? (JSON.parse(meta.toString('utf8')) as { contentType?: string }).contentType
      : undefined;
    return {
      stream: handle.createReadStream(),
      contentType: contentType ?? DEFAULT_CONTENT_TYPE,
      size,
    };
  }

  async get(key: string): Promise<StoredFile | null> {
    assertStorageKey(key);
    const bytes = await readOrNull(this.dataPath(key));
    if (!bytes) return null;
    const meta = await readOrNull(this.metaPath(key));
    const contentType = meta
      ? (JSON.parse(meta.toString('utf8')) as { contentType?: string }).contentType
      : undefined;
    return { bytes, contentType: contentType ?? DEFAULT_CONTENT_TYPE };
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await fs.rm(this.dataPath(key), { force: true });
    await fs.rm(this.metaPath(key), { force: true });
  }

  private dataPath(key: string): string {
    return path.join(this.root, ...key.split('/'));
  }

  private metaPath(key: string): string {
    return path.join(this.root, META_DIR, ...key.split('/')) + '.json';
  }

  /** Temp file written and fsynced, renamed over the target, then the directory fsynced: the file survives a power loss. */
  private async writeAtomically(
    target: string,
    content: Buffer | Writer,
    beforeRename?: () => Promise<void>,
  ): Promise<void> {
    const tmp = path.join(this.root, TMP_DIR, `${randomBytes(12).toString('hex')}.part`);
    try {
      await withParentDir(tmp, () => writeDurably(tmp, content));
      await beforeRename?.();
      await withParentDir(target, () => fs.rename(tmp, target));
      await syncDirectory(path.dirname(target));
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }
}

/** Writes a file's content through its handle, in as many writes as it likes. */
type Writer = (handle: fs.FileHandle) => Promise<void>;

async function writeDurably(file: string, content: Buffer | Writer): Promise<void> {
  const handle = await fs.open(file, 'wx');
  try {
    if (Buffer.isBuffer(content)) await handle.writeFile(content);
    else await content(handle);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A rename is durable once its directory entry is on disk. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Runs `op` and, when it fails because the file's directory is missing, creates the directory and runs it once
 * more. Directories almost always exist already, so this saves the mkdir calls a write would otherwise make.
 */
async function withParentDir(file: string, op: () => Promise<void>): Promise<void> {
  try {
    await op();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await fs.mkdir(path.dirname(file), { recursive: true });
    await op();
  }
}

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
