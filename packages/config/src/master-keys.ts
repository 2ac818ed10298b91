/** One master key and the id every envelope sealed under it names. */
export interface MasterKeyConfig {
  id: string;
  key: Buffer;
}

/**
 * The current master key (seals and opens) and the previous ones (open only), so that a rotation (`cfdi master-key
 * rotate`) can re-encrypt what is stored while every process still reads both.
 */
export interface MasterKeyring extends MasterKeyConfig {
  previous: readonly MasterKeyConfig[];
}

const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const HOW = 'openssl rand -base64 32';

function decodeKey(raw: string, name: string, problems: string[]): Buffer | null {
  const key = Buffer.from(raw, 'base64');
  if (key.length === 32) return key;
  problems.push(`${name} must be 32 bytes encoded in base64 (${HOW})`);
  return null;
}

/**
 * MASTER_KEY and MASTER_KEY_ID (the key that seals), and MASTER_KEYS_PREVIOUS: `id:base64,id:base64`, keys that
 * only open. Key ids travel inside every envelope (`v1:<id>:…`), so they are short and free of `:` and `,`.
 */
export function parseMasterKeyring(
  rawKey: string | null,
  id: string,
  rawPrevious: string | null,
  problems: string[],
): MasterKeyring | null {
  if (!rawKey) {
    if (rawPrevious) problems.push('MASTER_KEYS_PREVIOUS is set without MASTER_KEY: set the current key too');
    return null;
  }
  let valid = true;
  if (!KEY_ID.test(id)) {
    problems.push(`MASTER_KEY_ID="${id}" must be 1 to 64 letters, digits, "_", "." or "-"`);
    valid = false;
  }
  const key = decodeKey(rawKey, 'MASTER_KEY', problems);
  const previous: MasterKeyConfig[] = [];
  const ids = new Set([id]);
  for (const [index, entry] of (rawPrevious ?? '').split(',').entries()) {
    if (!entry.trim()) continue;
    const name = `MASTER_KEYS_PREVIOUS[${index}]`;
    const separator = entry.indexOf(':');
    const previousId = entry.slice(0, separator).trim();
    // Never echo the entry: it holds a key.
    if (separator < 0 || !KEY_ID.test(previousId)) {
      problems.push(`${name} must be "<key id>:<base64 key>" (the id: letters, digits, "_", "." or "-")`);
      valid = false;
      continue;
    }
    if (ids.has(previousId)) {
      problems.push(`${name}: key id "${previousId}" appears twice (MASTER_KEY_ID is "${id}")`);
      valid = false;
      continue;
    }
    ids.add(previousId);
    const previousKey = decodeKey(entry.slice(separator + 1).trim(), `${name} ("${previousId}")`, problems);
    if (previousKey) previous.push({ id: previousId, key: previousKey });
    else valid = false;
  }
  return valid && key ? { id, key, previous } : null;
}
