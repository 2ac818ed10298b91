import { EntitySchema } from '@mikro-orm/core';

export interface Account {
  id: string;
  name: string;
  /** Requests per minute; null means the configured default. */
  rateLimitPerMinute: number | null;
  /** Timbres per calendar month; null means no cap. */
  monthlyCap: number | null;
  createdAt: Date;
}

export const AccountSchema = new EntitySchema<Account>({
  name: 'Account',
  tableName: 'accounts',
  properties: {
    id: { type: 'string', primary: true },
    name: { type: 'string' },
    rateLimitPerMinute: { type: 'integer', nullable: true },
    monthlyCap: { type: 'integer', nullable: true },
    createdAt: { type: 'Date' },
  },
});
