import { createPrivateKey, randomInt, type KeyObject } from 'node:crypto';
import type pg from 'pg';
import { generateCertificate, SAT_ORGANIZATION } from './forge-certificate';

/** The sandbox's stand-in for the SAT certificate that signs SelloSAT and acuses. */
export interface SatCredentials {
  certificateDer: Buffer;
  privateKey: KeyObject;
}

/**
 * Loads the sandbox SAT certificate, generating it on first start. It is kept in the database so
 * SelloSAT of earlier stamps keeps verifying after restarts.
 */
export async function loadSatCredentials(pool: pg.Pool, now: Date): Promise<SatCredentials> {
  const existing = await pool.query(
    'SELECT certificate_der, private_key_pem FROM sat_certificate WHERE id = 1',
  );
  if (existing.rows[0]) return fromRow(existing.rows[0]);
  const generated = generateSatCertificate(now);
  await pool.query(
    'INSERT INTO sat_certificate (id, certificate_der, private_key_pem) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING',
    [generated.certificateDer, generated.privateKey.export({ type: 'pkcs8', format: 'pem' })],
  );
  // Re-read: a concurrent first start may have won the insert.
  const stored = await pool.query(
    'SELECT certificate_der, private_key_pem FROM sat_certificate WHERE id = 1',
  );
  return fromRow(stored.rows[0]);
}

function fromRow(row: { certificate_der: Buffer; private_key_pem: string }): SatCredentials {
  return { certificateDer: row.certificate_der, privateKey: createPrivateKey(row.private_key_pem) };
}

function generateSatCertificate(now: Date): SatCredentials {
  // SAT's own certificate numbers start with 00001; the rest is random so sandboxes differ.
  const noCertificado = `00001000000${String(randomInt(0, 1e9)).padStart(9, '0')}`;
  const day = 86_400_000;
  return generateCertificate({
    noCertificado,
    subject: [
      { shortName: 'CN', value: 'SANDBOX PAC SAT STAND-IN' },
      { shortName: 'O', value: SAT_ORGANIZATION },
      { shortName: 'OU', value: 'PAC SANDBOX (NOT THE SAT)' },
    ],
    issuer: [
      { shortName: 'CN', value: 'SANDBOX PAC SAT STAND-IN' },
      { shortName: 'O', value: SAT_ORGANIZATION },
      { shortName: 'OU', value: 'PAC SANDBOX (NOT THE SAT)' },
    ],
    notBefore: new Date(now.getTime() - day),
    notAfter: new Date(now.getTime() + 3650 * day),
    profile: 'authority',
  });
}
