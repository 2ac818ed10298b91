import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspectCertificate, openPrivateKey, type Csd } from '../src';

/** Repo root is two levels above the package; the shared SAT material sits next to the repo. */
export const SAT_DIR = process.env.SAT_DIR ?? path.resolve(__dirname, '../../..', '../shared/sat');
export const XML_DIR = path.join(SAT_DIR, 'xml');
export const BUNDLE_XSD = path.join(XML_DIR, 'cfdi40-bundle.xsd');
export const CADENA_XSLT = path.join(
  XML_DIR,
  'www.sat.gob.mx/sitio_internet/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt',
);
export const TFD_XSLT = path.join(
  XML_DIR,
  'www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/cadenaoriginal_TFD_1_1.xslt',
);
export const EXAMPLES = path.join(SAT_DIR, 'examples');
export const CERTS = path.join(SAT_DIR, 'test-certs');
export const PASSWORD = '12345678a';

/** Fixed clock: inside the validity of the 2023 test CSDs, so tests survive their expiry. */
export const NOW = new Date('2026-11-21T18:30:00Z');

export function loadCsd(name = 'EKU9003173C9-csd'): Csd {
  return {
    certificateDer: fs.readFileSync(path.join(CERTS, `${name}.cer`)),
    privateKey: openPrivateKey(fs.readFileSync(path.join(CERTS, `${name}.key`)), PASSWORD),
  };
}

export function certInfo(name: string) {
  return inspectCertificate(fs.readFileSync(path.join(CERTS, `${name}.cer`)));
}

/** Fails with the install hint when the SAT reference tools are not on PATH. */
export function requireTools(): void {
  for (const tool of ['xmllint', 'xsltproc']) {
    try {
      execFileSync(tool, ['--version'], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is not installed: run \`apt-get install -y xsltproc libxml2-utils\``);
    }
  }
}

/** Schema validation of one document through a temporary file. */
export function xmllintOk(xml: string): boolean {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-xsd-')), 'doc.xml');
  fs.writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--noout', '--schema', BUNDLE_XSD, file], { stdio: 'pipe' });
    return true;
  } catch (err) {
    process.stderr.write(String((err as { stderr?: Buffer }).stderr ?? err));
    return false;
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** The PDF tests also need poppler and zbar. */
export function requirePdfTools(): void {
  for (const [tool, args] of [
    ['pdftotext', ['-v']],
    ['pdftoppm', ['-v']],
    ['zbarimg', ['--version']],
  ] as const) {
    try {
      execFileSync(tool, [...args], { stdio: 'ignore' });
    } catch {
      throw new Error(`${tool} is not installed: run \`apt-get install -y poppler-utils zbar-tools\``);
    }
  }
}
