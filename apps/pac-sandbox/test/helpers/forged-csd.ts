import { randomInt } from 'node:crypto';
import { generateCertificate, taxpayerSubject, TEST_CA_ISSUER } from '../../src/sat/forge-certificate';
import type { TestCsd } from './sat-files';

/**
 * A CSD for EKU9003173C9 with chosen validity, for the date cases the SAT files cannot give
 * (their validity is fixed). Same subject/issuer shape as SAT's; signed by a throwaway key.
 */
export function forgedCsd(validity: { notBefore: Date; notAfter: Date }, issuer = TEST_CA_ISSUER): TestCsd {
  return generateCertificate({
    noCertificado: `300010000005${String(randomInt(0, 1e8)).padStart(8, '0')}`,
    subject: taxpayerSubject('EKU9003173C9 / VADA800927DJ3', 'ESCUELA KEMPER URGATE SA DE CV', 'Sucursal 1'),
    issuer,
    ...validity,
    profile: 'csd',
  });
}
