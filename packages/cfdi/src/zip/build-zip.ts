import archiver from 'archiver';

export interface ZipEntry {
  name: string;
  content: Buffer | string;
}

/** ZIP with the stamped XML and its PDF (or any other files), in memory. */
export async function buildZip(entries: ZipEntry[]): Promise<Buffer> {
  const archive = archiver('zip', { zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  archive.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    archive.on('end', () => resolve(Buffer.concat(chunks)));
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  for (const e of entries) archive.append(e.content, { name: e.name });
  await archive.finalize();
  return done;
}

/** Conventional file names: <UUID>.xml and <UUID>.pdf. */
export function cfdiZipEntries(uuid: string, xml: string, pdf: Buffer): ZipEntry[] {
  return [{ name: `${uuid}.xml`, content: xml }, { name: `${uuid}.pdf`, content: pdf }];
}
