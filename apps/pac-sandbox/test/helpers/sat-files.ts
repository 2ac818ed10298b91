import { defaultSatDir } from '@cfdi/config';
import { openPrivateKey } from '@cfdi/cfdi';
import fs from 'node:fs';
import path from 'node:path';
import type { KeyObject } from 'node:crypto';

export interface TestCsd {
  certificateDer: Buffer;
  privateKey: KeyObject;
}

const satDir = defaultSatDir();

/** A SAT public test certificate pair from shared/sat/test-certs (password 12345678a). */
export function testCsd(
  name: 'EKU9003173C9-csd' | 'CACX7605101P8-csd' | 'EKU9003173C9-fiel' | 'XIA190128J61-csd-expired',
): TestCsd {
  const dir = path.join(satDir, 'test-certs');
  return {
    certificateDer: fs.readFileSync(path.join(dir, `${name}.cer`)),
    privateKey: openPrivateKey(fs.readFileSync(path.join(dir, `${name}.key`)), '12345678a'),
  };
}

export function exampleXml(name: string): string {
  return fs.readFileSync(path.join(satDir, 'examples', name), 'utf8');
}
