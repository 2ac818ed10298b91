import type archiver from 'archiver';

export interface ZipEntry {
  name: string;
  content: Buffer | string;
  /** Stored without compression: for content that is compressed already, where deflate only costs CPU. */
  store?: boolean;
}

/** ZIP with the stamped XML and its PDF (or any other files), in memory. */
export async function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  // zlib's default level: level 9 took twice the CPU on large XML for about 4 % smaller files.
  // Required here, not at load: the API builds a ZIP only on its first download (see pdf/pdfkit.ts).
  const archive = (require('archiver') as typeof archiver)('zip', { zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    archive.on('end', () => resolve(Buffer.concat(chunks)));
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  for (const e of entries) archive.append(e.content, { name: e.name, store: e.store ?? false });
  await archive.finalize();
  return done;
}

/** Conventional file names: <UUID>.xml and <UUID>.pdf. The PDF's streams are deflated already, so it is stored. */
export function cfdiZipEntries(uuid: string, xml: string, pdf: Buffer): ZipEntry[] {
  return [
    { name: `${uuid}.xml`, content: xml },
    { name: `${uuid}.pdf`, content: pdf, store: true },
  ];
}

/**
 * A ZIP streamed as its entries come: the next entry is read only once archiver has taken the previous one, and
 * archiver waits while the reader is slow, so memory holds about one entry whatever the archive's size.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>): NodeJS.ReadableStream {
  const archive = (require('archiver') as typeof archiver)('zip', { zlib: { level: 6 } });
  void (async () => {
    try {
      for await (const e of entries) {
        const taken = new Promise((resolve) => archive.once('entry', resolve));
        archive.append(e.content, { name: e.name, store: e.store ?? false });
        await taken;
      }
      await archive.finalize();
    } catch (error) {
      archive.destroy(error as Error);
    }
  })();
  return archive;
}
