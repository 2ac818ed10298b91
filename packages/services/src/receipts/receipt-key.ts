import { randomBytes } from 'node:crypto';

// Crockford base32 without I, L, O and U: nothing a customer reading a thermal ticket confuses with 1, 0 or V.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 characters of 5 bits: 80 bits of randomness, so guessing a live key is hopeless even without rate limits. */
export const RECEIPT_KEY_LENGTH = 16;

/** A new receipt key: 16 characters from a 32-letter alphabet, from the system's cryptographic generator. */
export function newReceiptKey(): string {
  const bytes = randomBytes(RECEIPT_KEY_LENGTH);
  // 256 is a multiple of 32, so `byte % 32` is uniform.
  return [...bytes].map((byte) => ALPHABET[byte % 32]).join('');
}

/**
 * A key as a customer types it: any case, with spaces or dashes (the ticket prints it in groups of four), and the
 * letters people mistake for digits read as those digits (O → 0, I and L → 1). Null when it cannot be a key.
 */
export function normalizeReceiptKey(typed: string): string | null {
  const key = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return key.length === RECEIPT_KEY_LENGTH && [...key].every((c) => ALPHABET.includes(c)) ? key : null;
}

/** The key as printed: four groups of four. */
export const printedReceiptKey = (key: string) => key.match(/.{1,4}/g)!.join('-');
