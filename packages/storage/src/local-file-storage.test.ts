import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalFileStorage } from './local-file-storage';
import {
  expectStreamedPutsWhole,
  expectWholeReadsUnderConcurrentWrites,
} from './testing/file-storage-contract';

let root: string;
let storage: LocalFileStorage;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'cfdi-storage-'));
  storage = new LocalFileStorage(root);
});
afterEach(async () => fs.rm(root, { recursive: true, force: true }));

it('stores, replaces, reads back with the content type and deletes idempotently', async () => {
  const key = 'acct_1/test/merchants/mch_1/logo';
  expect(await storage.get(key)).toBeNull();
  await storage.put(key, Buffer.from('one'), 'image/png');
  expect(await storage.get(key)).toEqual({ bytes: Buffer.from('one'), contentType: 'image/png' });
  await storage.put(key, Buffer.from('two'), 'image/jpeg');
  expect(await storage.get(key)).toEqual({ bytes: Buffer.from('two'), contentType: 'image/jpeg' });
  expect(await fs.readFile(path.join(root, key))).toEqual(Buffer.from('two'));
  await storage.delete(key);
  await storage.delete(key);
  expect(await storage.get(key)).toBeNull();
  expect(await fs.readdir(path.join(root, '.tmp'))).toEqual([]);
});

it('rejects keys that could escape the root or collide with the driver bookkeeping', async () => {
  for (const key of [
    '../x',
    'a/../../x',
    '/etc/passwd',
    'a//b',
    '',
    'a/.meta',
    '.meta/a',
    'a\\b',
    'a/%2e%2e/b',
    'a/b/',
    'a/..',
  ]) {
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow('invalid storage key');
    await expect(storage.get(key)).rejects.toThrow('invalid storage key');
  }
});

it('keeps readers on whole files while many writers replace the same key', async () => {
  await expectWholeReadsUnderConcurrentWrites(storage, 'acct_1/test/big');
});

it('creates missing directories, also when they disappear between writes', async () => {
  const key = 'acct_1/test/documents/doc_1/a.xml';
  await storage.put(key, Buffer.from('one'), 'application/xml');
  await fs.rm(path.join(root, '.tmp'), { recursive: true });
  await fs.rm(path.join(root, 'acct_1'), { recursive: true });
  await storage.put(key, Buffer.from('two'), 'application/xml');
  expect(await storage.get(key)).toEqual({ bytes: Buffer.from('two'), contentType: 'application/xml' });
  expect(await fs.readdir(path.join(root, '.tmp'))).toEqual([]);
});

it('stores a streamed file whole or not at all, and reads it back as a stream', async () => {
  await expectStreamedPutsWhole(storage, 'acct_1/test/exports/exp_1/documents.zip', 3 * 1024 * 1024 + 17);
  expect(await fs.readdir(path.join(root, '.tmp'))).toEqual([]);
});
