import type { EntityManager } from '@cfdi/db';
import { ValidationError } from './errors';
import { flipLowBalanceFlag, selectLowBalance, updateLowBalance } from './ledger-repository';

/** A balance: one account in one mode (the ledger's scope). */
type BalanceScope = { accountId: string; livemode: boolean };

/**
 * The low-balance warning of a balance (an account in one mode): a threshold in centavos, as the balance is counted,
 * and the address told when the balance drops below it. One message per crossing: a flag on the balance row says it
 * is below, set by the debit that crossed (which queues the message) and cleared by a credit that lifts it back.
 */
export interface LowBalanceState {
  balanceCentavos: number;
  /** null: no warning. */
  thresholdCentavos: number | null;
  email: string | null;
  /** The balance is under the threshold (the console shows its banner). */
  below: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function lowBalanceState(em: EntityManager, scope: BalanceScope): Promise<LowBalanceState> {
  const row = await selectLowBalance(em, scope);
  const balanceCentavos = Number(row?.balance_centavos ?? 0);
  const thresholdCentavos = row?.low_balance_centavos == null ? null : Number(row.low_balance_centavos);
  return {
    balanceCentavos,
    thresholdCentavos,
    email: row?.low_balance_email ?? null,
    below: thresholdCentavos !== null && balanceCentavos < thresholdCentavos,
  };
}

/**
 * Sets (or, with a null threshold, removes) the warning. The balance's current side of the new threshold is taken
 * as it is: setting a threshold above the balance shows the banner but sends nothing; the next crossing does.
 */
export async function setLowBalanceAlert(
  em: EntityManager,
  scope: BalanceScope,
  input: { thresholdCentavos: number | null; email: string | null },
): Promise<LowBalanceState> {
  const { thresholdCentavos } = input;
  if (thresholdCentavos !== null && !(Number.isSafeInteger(thresholdCentavos) && thresholdCentavos >= 0))
    throw ValidationError.field('/thresholdCentavos', 'must be an amount of at least 0');
  const email = input.email?.trim() || null;
  if (email !== null && !EMAIL.test(email))
    throw ValidationError.field('/email', 'must be an e-mail address');
  if (thresholdCentavos !== null && email === null)
    throw ValidationError.field('/email', 'the address to warn is required with a threshold');
  await updateLowBalance(em, scope, thresholdCentavos, email);
  return lowBalanceState(em, scope);
}

/**
 * After a ledger entry: flips the balance's "below" flag when the entry moved it across the threshold, and queues
 * the warning when it went below. Conditional on the flag, under the row lock, so concurrent debits queue one
 * message. Answers the queued alert's id, or null.
 */
export async function noteLowBalanceCrossing(em: EntityManager, scope: BalanceScope): Promise<string | null> {
  return flipLowBalanceFlag(em, scope);
}
