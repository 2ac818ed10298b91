import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipEnd, zipEntryBytes } from './zip-parts';

it('writes a ZIP in parts that unzip reads back: deflated and stored entries, identical bytes when repeated', () => {
  const at = new Date('2026-11-28T10:20:30Z');
  const entries = [
    { name: 'A.xml', content: '<cfdi:Comprobante Version="4.0"/>'.repeat(50) },
    { name: 'A.pdf', content: Buffer.from('%PDF-1.7 ñ'), store: true },
    { name: 'B.xml', content: 'ñandú' },
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const bytes = zipEntryBytes(entry, offset, at);
    expect(zipEntryBytes(entry, offset, at)).toEqual(bytes);
    locals.push(bytes.local);
    centrals.push(bytes.central);
    offset += bytes.local.length;
  }
  const central = Buffer.concat(centrals);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-parts-'));
  const file = path.join(dir, 'parts.zip');
  fs.writeFileSync(file, Buffer.concat([...locals, central, zipEnd(entries.length, central.length, offset)]));
  execFileSync('unzip', ['-tq', file]);
  expect(execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n')).toEqual([
    'A.xml',
    'A.pdf',
    'B.xml',
  ]);
  for (const entry of entries)
    expect(execFileSync('unzip', ['-p', file, entry.name])).toEqual(Buffer.from(entry.content));
  expect(() => zipEnd(70_000, 0, 0)).toThrow('ZIP64');
});
