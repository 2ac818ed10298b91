import type { DocumentRow } from '../documents';
import { nextParcialidad, previousInstallments } from './installments';

it('numbers the next installment with the lowest number no live payment holds', () => {
  expect(nextParcialidad([])).toBe(1);
  expect(nextParcialidad([{ num_parcialidad: 1 }, { num_parcialidad: 2 }])).toBe(3);
  expect(nextParcialidad([{ num_parcialidad: 1 }, { num_parcialidad: 3 }])).toBe(2);
});

it('adds up the bases and taxes of earlier installments exactly, per group', () => {
  const payment = (monto: string, saldoAnterior: string) => ({
    input: {
      issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
      receiver: { rfc: 'URE180429TM6', name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', zip: '86991', regimenFiscal: '601' },
      invoice: {
        uuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D', total: '1276.00',
        taxGroups: [
          { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '1000.00', importe: '160.00' },
          { impuesto: '002', tipoFactor: 'Exento', base: '116.00' },
        ],
      },
      monto, numParcialidad: 1, saldoAnterior, fechaPago: '2026-11-20T12:00:00', formaPago: '03',
    },
  }) as unknown as DocumentRow;
  expect(previousInstallments([payment('400.00', '1276.00'), payment('300.55', '876.00')])).toEqual([
    { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '549.020000', importe: '87.850000' },
    { impuesto: '002', tipoFactor: 'Exento', base: '63.680000' },
  ]);
});
