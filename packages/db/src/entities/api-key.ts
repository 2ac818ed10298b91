import { EntitySchema } from '@mikro-orm/core';

export interface ApiKey {
  id: string;
  accountId: string;
  livemode: boolean;
  /** sha256 of the full secret; the secret itself is shown once and never stored. */
  secretHash: string;
  /** First characters of the secret, to recognise a key in listings. */
  displayPrefix: string;
  /** When set, the key may only touch these merchants (403 otherwise). */
  merchantIds: string[] | null;
  note: string | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export const ApiKeySchema = new EntitySchema<ApiKey>({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: { type: 'string', primary: true },
    accountId: { type: 'string' },
    livemode: { type: 'boolean' },
    secretHash: { type: 'string' },
    displayPrefix: { type: 'string' },
    merchantIds: { type: 'string[]', nullable: true },
    note: { type: 'string', nullable: true },
    revokedAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
  },
});
