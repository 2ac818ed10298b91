import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { verifySeal } from '../src';
import { BUNDLE_XSD, CADENA_XSLT } from './sat-dir';

const run = promisify(execFile);
const MAX_BUFFER = 1 << 30;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs tasks with at most `limit` in flight (the CI box has 2 cores). */
async function pool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!);
      }
    }),
  );
  return results;
}

/** XSD validation, many files per xmllint process. Returns "file: message" for failures. */
export async function xmllintFailures(files: string[], schema = BUNDLE_XSD): Promise<string[]> {
  const out = await pool(chunks(files, 400), 2, async (batch) => {
    const result = await run('xmllint', ['--noout', '--schema', schema, ...batch], {
      maxBuffer: MAX_BUFFER,
    }).catch((e: { stderr: string }) => e);
    return result.stderr.split('\n').filter((l) => l.trim() !== '' && !l.endsWith(' validates'));
  });
  return out.flat();
}

/**
 * xsltproc accepts many documents and writes their results back to back on stdout. Every
 * cadena starts and ends with "||", so comparing the concatenation with the
 * concatenated TS cadenas checks them all; a mismatching batch is re-run file by file to
 * name the culprit.
 */
export async function xsltprocMismatches(
  files: string[],
  expected: Map<string, string>,
  stylesheet = CADENA_XSLT,
): Promise<string[]> {
  const out = await pool(chunks(files, 60), 2, async (batch) => {
    const { stdout } = await run('xsltproc', [stylesheet, ...batch], {
      maxBuffer: MAX_BUFFER,
      encoding: 'utf8',
    });
    if (stdout === batch.map((f) => expected.get(f)).join('')) return [];
    const bad: string[] = [];
    for (const f of batch) {
      const single = await run('xsltproc', [stylesheet, f], { maxBuffer: MAX_BUFFER, encoding: 'utf8' });
      if (single.stdout !== expected.get(f)) bad.push(f);
    }
    return bad;
  });
  return out.flat();
}

/**
 * `openssl dgst -sha256 -verify` for every (cadena, sello) pair, driven by one shell loop
 * per batch so the cost is one openssl exec per document and no node round trips.
 */
export async function opensslFailures(
  dir: string,
  items: Array<{ name: string; cadena: string; sello: string }>,
  publicKeyPem: string,
): Promise<string[]> {
  const pub = path.join(dir, 'pub.pem');
  fs.writeFileSync(pub, publicKeyPem);
  for (const it of items) {
    fs.writeFileSync(path.join(dir, `${it.name}.cadena`), it.cadena);
    fs.writeFileSync(path.join(dir, `${it.name}.sig`), Buffer.from(it.sello, 'base64'));
  }
  const script =
    'for n in "$@"; do openssl dgst -sha256 -verify "$PUB" -signature "$DIR/$n.sig" "$DIR/$n.cadena" >/dev/null 2>&1 || echo "$n"; done';
  const out = await pool(
    chunks(
      items.map((i) => i.name),
      Math.ceil(items.length / 2),
    ),
    2,
    async (names) => {
      const { stdout } = await run('bash', ['-c', script, 'verify', ...names], {
        env: { ...process.env, PUB: pub, DIR: dir },
        maxBuffer: MAX_BUFFER,
        encoding: 'utf8',
      });
      return stdout.split('\n').filter(Boolean);
    },
  );
  return out.flat();
}

/**
 * The corpus documents whose seal openssl (with their own CSD's public key) or verifySeal (parse, recompute the
 * cadena, verify) refuses.
 */
export async function sealFailures(
  dir: string,
  docs: Array<{ name: string; csd: string; xml: string; cadena: string; sello: string }>,
  csds: ReadonlyMap<string, { certificateDer: Buffer }>,
): Promise<string[]> {
  const failures: string[] = [];
  for (const [name, csd] of csds) {
    const pem = new X509Certificate(csd.certificateDer).publicKey
      .export({ type: 'spki', format: 'pem' })
      .toString();
    failures.push(
      ...(await opensslFailures(
        dir,
        docs.filter((d) => d.csd === name),
        pem,
      )),
    );
  }
  return [...failures, ...docs.filter((d) => !verifySeal(d.xml).valid).map((d) => `${d.name} (verifySeal)`)];
}
