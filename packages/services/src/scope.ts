/** Who is asking: every query is filtered by (accountId, livemode) so nothing crosses tenants or modes. */
export interface Scope {
  accountId: string;
  livemode: boolean;
  keyId: string;
  /** Merchants this key is restricted to; null means all of the account's merchants. */
  merchantIds: string[] | null;
}

/** The tenant part of a scope: an account's live or test data, whatever the key. */
export type Tenant = Pick<Scope, 'accountId' | 'livemode'>;
