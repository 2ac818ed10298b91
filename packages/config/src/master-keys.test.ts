import { ConfigError, loadConfig } from './config';

const keyA = Buffer.alloc(32, 1).toString('base64');
const keyB = Buffer.alloc(32, 2).toString('base64');
const keyC = Buffer.alloc(32, 3).toString('base64');

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

it('takes the current key (MASTER_KEY, MASTER_KEY_ID) and previous keys that only open', () => {
  const { masterKey } = loadConfig({
    MASTER_KEY: keyB,
    MASTER_KEY_ID: 'k2',
    MASTER_KEYS_PREVIOUS: `k1:${keyA}, k0:${keyC}`,
  });
  expect(masterKey?.id).toBe('k2');
  expect(masterKey?.key.equals(Buffer.from(keyB, 'base64'))).toBe(true);
  expect(masterKey?.previous.map((k) => [k.id, k.key.toString('base64')])).toEqual([
    ['k1', keyA],
    ['k0', keyC],
  ]);
  expect(loadConfig({ MASTER_KEY: keyA }).masterKey).toMatchObject({ id: 'k1', previous: [] });
});

it('refuses malformed, repeated or orphaned previous keys without echoing a key', () => {
  expect(problems({ MASTER_KEY: keyB, MASTER_KEY_ID: 'k2', MASTER_KEYS_PREVIOUS: `k2:${keyA}` })).toEqual([
    'MASTER_KEYS_PREVIOUS[0]: key id "k2" appears twice (MASTER_KEY_ID is "k2")',
  ]);
  const bad = problems({ MASTER_KEY: keyB, MASTER_KEYS_PREVIOUS: `${keyA},k9:c2hvcnQ=` });
  expect(bad).toEqual([
    'MASTER_KEYS_PREVIOUS[0] must be "<key id>:<base64 key>" (the id: letters, digits, "_", "." or "-")',
    'MASTER_KEYS_PREVIOUS[1] ("k9") must be 32 bytes encoded in base64 (openssl rand -base64 32)',
  ]);
  expect(bad.join()).not.toContain(keyA);
  expect(problems({ MASTER_KEYS_PREVIOUS: `k1:${keyA}` })).toEqual([
    'MASTER_KEYS_PREVIOUS is set without MASTER_KEY: set the current key too',
  ]);
  expect(problems({ MASTER_KEY: keyA, MASTER_KEY_ID: 'k:1' })).toEqual([
    'MASTER_KEY_ID="k:1" must be 1 to 64 letters, digits, "_", "." or "-"',
  ]);
});
