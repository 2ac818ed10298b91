import type { FieldError } from '../errors';

/** At most this many recipients per message (the request's `to` and the merchant's copies together). */
export const MAX_RECIPIENTS = 10;

// A plain address only (no display name, no quoted local part, no comments): nothing in it can end a header line,
// open another header or smuggle a second recipient. The domain needs a dot: mail to a bare host name goes nowhere.
const ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Why `address` cannot be a recipient, or null. */
export function addressProblem(address: string): string | null {
  if (/[\r\n]/.test(address)) return 'must be one e-mail address: line breaks are not allowed';
  if (address.length > 254) return 'must be at most 254 characters (RFC 5321)';
  if (!ADDRESS.test(address) || address.split('@')[0]!.length > 64)
    return 'must be an e-mail address such as facturas@example.com (no display name, spaces or commas)';
  return null;
}

/** One error per bad address, at its index under `path` (`/to/2`). */
export function addressErrors(addresses: readonly string[], path: string): FieldError[] {
  return addresses.flatMap((address, index) => {
    const message = addressProblem(address);
    return message ? [{ path: `${path}/${index}`, message }] : [];
  });
}

/** The same mailbox once: the domain is case-insensitive (the local part is left as written). */
export function distinctAddresses(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((address) => {
    const at = address.lastIndexOf('@');
    const key = `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
