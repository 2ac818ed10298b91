/**
 * Segments start with a letter or digit and use only `A-Z a-z 0-9 . _ -`: no `..`, no absolute paths, no
 * backslashes or percent-escapes, so a key can never leave the storage root and needs no URL encoding.
 * Names starting with a dot stay free for the driver's own bookkeeping.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const MAX_SEGMENTS = 16;

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`invalid storage key "${key.slice(0, 300)}"`);
    this.name = 'InvalidStorageKeyError';
  }
}

export function isStorageKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length <= MAX_SEGMENTS && segments.every((s) => SEGMENT.test(s) && !s.includes('..'));
}

export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new InvalidStorageKeyError(key);
}
