import { buildPaymentXml, type PaymentInput } from '@cfdi/cfdi';
import type { DocumentRow } from '../documents/document-row';
import { nextParcialidad, previousInstallments } from './installments';

it('numbers the next installment with the lowest number no live payment holds', () => {
  expect(nextParcialidad([])).toBe(1);
  expect(nextParcialidad([{ num_parcialidad: 1 }, { num_parcialidad: 2 }])).toBe(3);
  expect(nextParcialidad([{ num_parcialidad: 1 }, { num_parcialidad: 3 }])).toBe(2);
});

it('adds up the bases and taxes the earlier installments carried in their XML, exactly, per group', () => {
  const uuid = '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D';
  const now = new Date('2026-11-20T18:00:00Z');
  const input = (monto: string, saldoAnterior: string, numParcialidad: number): PaymentInput => ({
    issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
    receiver: {
      rfc: 'URE180429TM6',
      name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
      zip: '86991',
      regimenFiscal: '601',
    },
    invoice: {
      uuid,
      total: '1276.00',
      taxGroups: [
        { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '1000.00', importe: '160.00' },
        { impuesto: '002', tipoFactor: 'Exento', base: '116.00' },
      ],
    },
    monto,
    numParcialidad,
    saldoAnterior,
    fechaPago: '2026-11-20T12:00:00',
    formaPago: '03',
  });
  const first = buildPaymentXml(input('400.00', '1276.00', 1), { now });
  const second = buildPaymentXml(
    {
      ...input('300.55', '876.00', 2),
      previousInstallments: previousInstallments([{ stamped_xml: first.xml } as DocumentRow], uuid),
    },
    { now },
  );
  expect(first.computed.traslados.map((t) => [t.base, t.importe])).toEqual([
    ['313.48', '50.16'],
    ['36.36', undefined],
  ]);
  expect(second.computed.traslados.map((t) => [t.base, t.importe])).toEqual([
    ['235.54', '37.68'],
    ['27.33', undefined],
  ]);
  const rows = [first, second].map(
    (b) => ({ id: 'pay_x', stamped_xml: b.xml, sealed_xml: null }) as unknown as DocumentRow,
  );
  expect(previousInstallments(rows, uuid)).toEqual([
    { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '549.020000', importe: '87.840000' },
    { impuesto: '002', tipoFactor: 'Exento', base: '63.690000' },
  ]);
});
