import fs from 'node:fs';
import path from 'node:path';
import { defaultSatDir, type Config } from '@cfdi/config';
import type { Orm } from '@cfdi/db';
import { adjustBalance, createAccount } from '@cfdi/services';

export interface MerchantAccount {
  accountId: string;
  /** The account's test API key. */
  key: string;
  /** `authorization` and `content-type` headers for JSON calls with that key. */
  headers: Record<string, string>;
  merchantId: string;
}

const satTestCertificate = (name: string) =>
  fs.readFileSync(path.join(defaultSatDir(), 'test-certs', name)).toString('base64');

/**
 * A test-mode account on a running stack, with a balance no bench or drill exhausts (1,000,000 pesos) and one
 * merchant holding the SAT's EKU9003173C9 test CSD, created through the API at `baseUrl`.
 */
export async function createMerchantAccount(
  orm: Orm,
  config: Pick<Config, 'testSeedCentavos'>,
  baseUrl: string,
  options: { name: string; serie?: string },
): Promise<MerchantAccount> {
  const account = await createAccount(orm.em.fork(), config, { name: options.name });
  await adjustBalance(
    orm.em.fork(),
    { accountId: account.accountId, livemode: false },
    { type: 'recharge', deltaCentavos: 100_000_000, note: options.name },
  );
  const headers = { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' };
  const post = async (url: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (response.status !== 201) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: string };
  };
  const merchant = await post('/v1/merchants', {
    rfc: 'EKU9003173C9',
    legalName: 'ESCUELA KEMPER URGATE',
    regimenFiscal: '601',
    zip: '42501',
    ...(options.serie ? { serie: options.serie } : {}),
  });
  await post(`/v1/merchants/${merchant.id}/csd`, {
    cer: satTestCertificate('EKU9003173C9-csd.cer'),
    key: satTestCertificate('EKU9003173C9-csd.key'),
    password: '12345678a',
  });
  return { accountId: account.accountId, key: account.testKey, headers, merchantId: merchant.id };
}
