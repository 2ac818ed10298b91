import { buildTfd } from '@cfdi/cfdi';
import { tfdBuilder } from '../src/stamping/tfd-builder';
import { testCsd } from './helpers/sat-files';

describe('tfdBuilder', () => {
  test('builds the same TFD as @cfdi/cfdi buildTfd, byte for byte', () => {
    const sat = testCsd('EKU9003173C9-csd');
    const build = tfdBuilder(sat, 'SPR190613I52');
    for (const selloCFD of ['c2VsbG8=', 'a\tb\nc\r\nd &<>"\' é']) {
      const uuid = 'ab12cd34-0000-4000-8000-0123456789ab';
      const fechaTimbrado = '2026-11-21T12:31:00';
      expect(build(uuid, fechaTimbrado, selloCFD)).toEqual(
        buildTfd({ uuid, fechaTimbrado, rfcProvCertif: 'SPR190613I52', selloCFD, sat }),
      );
    }
  });
});
