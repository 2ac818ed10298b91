import fs from 'node:fs';
import path from 'node:path';

const dir = path.join(__dirname, '..', 'fixtures');

/** A recorded request or response (Finkok-shaped SOAP, recorded against the sandbox PAC). */
export function fixture(name: string): string {
  return fs.readFileSync(path.join(dir, name), 'utf8');
}
