import { BANCOS } from '../nomina/catalogs';
import type { Issues } from './issues';
import { checkKey } from './nomina-checks';

/** CLABE control digit: weights 3, 7, 1 over the first 17 digits (Banxico). */
export function clabeIsValid(clabe: string): boolean {
  const weights = [3, 7, 1];
  const total = [...clabe.slice(0, 17)].reduce(
    (acc, digit, i) => acc + ((Number(digit) * weights[i % 3]!) % 10),
    0,
  );
  return (10 - (total % 10)) % 10 === Number(clabe[17]);
}

export function checkBankAccount(
  issues: Issues,
  banco: string | undefined,
  cuenta: string | undefined,
  today: string,
): void {
  checkKey(issues, '/employee/banco', BANCOS, banco, 'NOM177', 'c_Banco', today);
  if (cuenta === undefined) return;
  if (![10, 11, 16, 18].includes(cuenta.length)) {
    issues.add(
      '/employee/cuentaBancaria',
      `NOM178: must have 10 (mobile phone), 11 (account), 16 (debit card) or 18 (CLABE) digits, not ${cuenta.length}`,
    );
  } else if (cuenta.length === 18) {
    if (banco !== undefined)
      issues.add(
        '/employee/banco',
        'NOM179: leave the bank out when the account is an 18-digit CLABE (the CLABE already names the bank)',
      );
    if (!clabeIsValid(cuenta))
      issues.add(
        '/employee/cuentaBancaria',
        "NOM180: the CLABE's control digit (the 18th) is wrong; check the number with the employee",
      );
  } else if (banco === undefined) {
    issues.add(
      '/employee/banco',
      `NOM181: with a ${cuenta.length}-digit account, card or phone number the bank (c_Banco) is required`,
    );
  }
}
