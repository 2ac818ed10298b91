import { receiptExpiry } from './receipt-expiry';
import { addDays, globalPeriodOf, mexicoCityDay, mexicoCityMidnight } from './global-period';

describe('globalPeriodOf', () => {
  it('gives each periodicity its period and InformacionGlobal', () => {
    expect(globalPeriodOf('2026-11-18', '01')).toEqual({
      periodicidad: '01',
      start: '2026-11-18',
      end: '2026-11-19',
      meses: '11',
      anio: 2026,
    });
    // 2026-11-18 is a Wednesday: Monday 16 to Sunday 22.
    expect(globalPeriodOf('2026-11-18', '02')).toMatchObject({ start: '2026-11-16', end: '2026-11-23' });
    expect(globalPeriodOf('2026-11-15', '03')).toMatchObject({ start: '2026-11-01', end: '2026-11-16' });
    expect(globalPeriodOf('2026-11-16', '03')).toMatchObject({ start: '2026-11-16', end: '2026-12-01' });
    expect(globalPeriodOf('2026-12-31', '04')).toMatchObject({
      start: '2026-12-01',
      end: '2027-01-01',
      meses: '12',
    });
    expect(globalPeriodOf('2026-12-31', '05')).toEqual({
      periodicidad: '05',
      start: '2026-11-01',
      end: '2027-01-01',
      meses: '18',
      anio: 2026,
    });
    expect(globalPeriodOf('2026-02-28', '05')).toMatchObject({ start: '2026-01-01', meses: '13' });
  });

  it('cuts a week at the edges of its months, so Meses is never ambiguous', () => {
    // Monday 2026-11-30 to Sunday 2026-12-06.
    expect(globalPeriodOf('2026-11-30', '02')).toMatchObject({
      start: '2026-11-30',
      end: '2026-12-01',
      meses: '11',
    });
    expect(globalPeriodOf('2026-12-03', '02')).toMatchObject({
      start: '2026-12-01',
      end: '2026-12-07',
      meses: '12',
    });
  });

  it('reads days on the Mexico City clock (UTC−6)', () => {
    expect(mexicoCityDay(new Date('2026-12-01T05:59:59Z'))).toBe('2026-11-30');
    expect(mexicoCityDay(new Date('2026-12-01T06:00:00Z'))).toBe('2026-12-01');
    expect(mexicoCityMidnight('2026-12-01').toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('receiptExpiry with the global invoice on', () => {
  it('ends when the run of the sale’s period takes it: the period’s end plus the grace days', () => {
    const soldAt = new Date('2026-11-18T20:00:00Z'); // Wednesday 18, 14:00 in Mexico City
    expect(receiptExpiry(soldAt, 2, '01').toISOString()).toBe('2026-11-21T05:59:59.999Z');
    expect(receiptExpiry(soldAt, 0, '02').toISOString()).toBe('2026-11-23T05:59:59.999Z');
    // Monthly: the end of the month, as without a global invoice.
    expect(receiptExpiry(soldAt, 3, '04')).toEqual(receiptExpiry(soldAt, 3));
  });
});
