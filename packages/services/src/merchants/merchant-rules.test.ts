import { decodeBase64Strict } from './base64';
import { sniffImageType } from './image-type';
import { regimenProblem, rfcProblem, serieProblem } from './merchant-rules';

it('checks the RFC shape and its YYMMDD date', () => {
  for (const ok of ['EKU9003173C9', 'CACX7605101P8', 'Ñ&A000229AB1', 'AAA991231ZZZ'])
    expect(rfcProblem(ok)).toBeUndefined();
  for (const bad of ['EKU900230AB1', 'EKU901301AB1', 'EKU900100AB1', 'EKU010229AB1'])
    expect(rfcProblem(bad)?.message).toMatch(/YYMMDD/);
  for (const bad of ['eku9003173C9', 'EK9003173C9', 'EKU9003173C', 'EKU9003173C9X', 'EKUX9003173C9X'])
    expect(rfcProblem(bad)?.message).toMatch(/letters/);
});

it('checks the regime against the catalog and the person type', () => {
  expect(regimenProblem('601', 'EKU9003173C9')).toBeUndefined();
  expect(regimenProblem('612', 'CACX7605101P8')).toBeUndefined();
  expect(regimenProblem('626', 'EKU9003173C9')).toBeUndefined(); // RESICO applies to both
  expect(regimenProblem('601', 'CACX7605101P8')?.message).toMatch(/física/);
  expect(regimenProblem('000', 'EKU9003173C9')?.message).toMatch(/catalog/);
});

it('decodes only strict base64 and sniffs images by magic bytes', () => {
  expect(decodeBase64Strict('aGVs\nbG8=')).toEqual(Buffer.from('hello'));
  for (const bad of ['', 'aGVsbG8', 'aGVs bG8=!', 'aGVsbG8==='.slice(0, 9), '-_-_'])
    expect(decodeBase64Strict(bad)).toBeNull();
  expect(sniffImageType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
  expect(sniffImageType(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
  expect(sniffImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))).toBe(
    'image/webp',
  );
  expect(
    sniffImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE')])),
  ).toBeNull();
  expect(sniffImageType(Buffer.from('GIF89a'))).toBeNull();
  expect(sniffImageType(Buffer.alloc(0))).toBeNull();
});

it('a series has 1 to 10 characters and no "|" (the cadena original separator)', () => {
  for (const ok of [undefined, 'A', 'F-2026', 'ABCDEFGHIJ']) expect(serieProblem(ok)).toBeUndefined();
  for (const bad of ['', '   ', 'ABCDEFGHIJK', 'A|B']) expect(serieProblem(bad)?.path).toBe('/serie');
});
