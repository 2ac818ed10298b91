import fs from 'node:fs';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import type { ApiHarness } from './harness';

/** The SAT test certificates are valid on this date (2023-05 → 2027-05); the API clock is pinned to it. */
export const PINNED_NOW = new Date('2026-11-21T18:00:00.000Z');

export const SAT_PASSWORD = '12345678a';

export type SatPair =
  'EKU9003173C9-csd' | 'CACX7605101P8-csd' | 'EKU9003173C9-fiel' | 'XIA190128J61-csd-expired';

/** Raw DER of a file in shared/sat/test-certs. */
export function satFile(name: `${SatPair}.${'cer' | 'key'}`): Buffer {
  return fs.readFileSync(path.join(defaultSatDir(), 'test-certs', name));
}

/** A CsdUpload body for one of the SAT pairs. */
export function satUpload(pair: SatPair, password = SAT_PASSWORD) {
  return {
    cer: satFile(`${pair}.cer`).toString('base64'),
    key: satFile(`${pair}.key`).toString('base64'),
    password,
  };
}

/** 8×8 images generated once with sharp; logo.gif is a real GIF used to test the magic-byte check. */
export function logoFixture(name: 'logo.png' | 'logo.jpg' | 'logo.webp' | 'logo.gif'): Buffer {
  return fs.readFileSync(path.join(__dirname, 'fixtures', name));
}

export const EKU = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};

export async function newMerchant(
  api: ApiHarness,
  key: string,
  body: Record<string, unknown> = EKU,
): Promise<any> {
  const res = await api.request('POST', '/v1/merchants', { key, body });
  if (res.status !== 201) throw new Error(`merchant not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
