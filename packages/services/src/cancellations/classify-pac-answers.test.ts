import type { CancelResult } from '@cfdi/pac';
import { classifyCancelResult, classifySatStatus } from './classify-pac-answers';

const UUID = '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D';
const submitted = (estatusUuid: string, estatusCancelacion: string): CancelResult => ({
  outcome: 'submitted',
  fecha: '2026-11-21T12:00:00',
  rfcEmisor: 'EKU9003173C9',
  acuse: '<Acuse/>',
  folios: [{ uuid: UUID.toLowerCase(), estatusUuid, estatusCancelacion }],
});

it('takes 201/202 and tells cancelled from pending by EstatusCancelacion', () => {
  expect(classifyCancelResult(submitted('201', 'Cancelado sin aceptación'), UUID)).toMatchObject({
    outcome: 'cancelled',
    codigo: '201',
    acuseXml: '<Acuse/>',
  });
  expect(classifyCancelResult(submitted('201', 'En proceso'), UUID)).toMatchObject({
    outcome: 'pending',
    estatus: 'En proceso',
  });
  expect(classifyCancelResult(submitted('202', 'Plazo vencido'), UUID)).toMatchObject({
    outcome: 'cancelled',
    codigo: '202',
  });
  // No EstatusCancelacion: the status query decides.
  expect(classifyCancelResult(submitted('202', ''), UUID)).toMatchObject({ outcome: 'pending' });
});

it('refuses per-UUID codes and request-level rejections; retries what decided nothing', () => {
  expect(classifyCancelResult(submitted('205', ''), UUID)).toMatchObject({
    outcome: 'refused',
    code: '205',
    message: expect.stringMatching(/does not know/),
  });
  expect(classifyCancelResult(submitted('no_cancelable', ''), UUID)).toMatchObject({
    outcome: 'refused',
    code: 'no_cancelable',
  });
  expect(
    classifyCancelResult(
      { outcome: 'rejected', code: '302', message: 'Sello mal formado', incidences: [] },
      UUID,
    ),
  ).toEqual({ outcome: 'refused', code: '302', message: 'Sello mal formado' });
  expect(
    classifyCancelResult({ outcome: 'unavailable', reason: 'sat_unreachable', detail: '708' }, UUID),
  ).toMatchObject({ outcome: 'retry' });
  expect(
    classifyCancelResult({ outcome: 'ambiguous', reason: 'timeout_after_send', detail: 'x' }, UUID),
  ).toMatchObject({ outcome: 'retry' });
});

it('reads the SAT status of a request awaiting the receiver', () => {
  const found = (estado: 'Vigente' | 'Cancelado', estatusCancelacion: string) =>
    ({
      outcome: 'found',
      codigoEstatus: 'S',
      estado,
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion,
    }) as const;
  expect(classifySatStatus(found('Cancelado', 'Cancelado con aceptación'))).toBe('accepted');
  expect(classifySatStatus(found('Cancelado', 'Plazo vencido'))).toBe('accepted');
  expect(classifySatStatus(found('Vigente', 'Solicitud rechazada'))).toBe('rejected');
  expect(classifySatStatus(found('Vigente', 'En proceso'))).toBe('pending');
  expect(classifySatStatus({ outcome: 'unavailable', reason: 'timeout', detail: 'x' })).toBe('pending');
});
