import { isString, type Issues } from './issues';
import { yearMonthAt } from '../time/fecha';

export interface InformacionGlobalRequest {
  periodicidad?: unknown;
  meses?: unknown;
  anio?: unknown;
}

const BIMONTHS = ['13', '14', '15', '16', '17', '18'];
const MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];

/** InformacionGlobal rules CFDI40131–40136 (cfdi40.md §1.3). */
export function checkInformacionGlobal(
  issues: Issues,
  ig: unknown,
  issuerRegimen: string,
  now: Date | undefined,
): void {
  if (typeof ig !== 'object' || ig === null)
    return issues.add('/informacionGlobal', 'must be an object {periodicidad, meses, anio}');
  const g = ig as InformacionGlobalRequest;
  const p = g.periodicidad;
  if (!isString(p) || !['01', '02', '03', '04', '05'].includes(p)) {
    issues.add(
      '/informacionGlobal/periodicidad',
      'must be 01 diario, 02 semanal, 03 quincenal, 04 mensual or 05 bimestral',
    );
  } else if (p === '05' && issuerRegimen !== '621') {
    issues.add(
      '/informacionGlobal/periodicidad',
      `05 (bimestral) is only for issuers in régimen 621 Incorporación Fiscal; this issuer is ${issuerRegimen} (CFDI40132)`,
    );
  }
  const bimonthly = p === '05';
  if (!isString(g.meses) || !(bimonthly ? BIMONTHS : MONTHS).includes(g.meses)) {
    issues.add(
      '/informacionGlobal/meses',
      bimonthly
        ? 'with periodicidad 05 must be a two-month period: 13 ene-feb, 14 mar-abr, 15 may-jun, 16 jul-ago, 17 sep-oct, 18 nov-dic (CFDI40135)'
        : 'must be the month 01 to 12 (13 to 18 are only for periodicidad 05) (CFDI40134)',
    );
  }
  if (typeof g.anio !== 'number' || !Number.isInteger(g.anio) || g.anio < 2022 || g.anio > 2100) {
    issues.add('/informacionGlobal/anio', 'must be an integer year from 2022 to 2100');
  } else if (now) {
    const [year, month] = yearMonthAt(now);
    if (g.anio > year || g.anio < year - 1)
      issues.add(
        '/informacionGlobal/anio',
        `must be the year of the period invoiced: ${year} or ${year - 1} (CFDI40136)`,
      );
    else if (g.anio === year && isString(g.meses) && firstMonth(g.meses) > month) {
      issues.add(
        '/informacionGlobal/meses',
        `${g.meses} of ${year} has not begun (today is ${year}-${String(month).padStart(2, '0')} in Mexico City): a global invoice covers sales already made, so its period cannot be after the issue date's`,
      );
    }
  }
}

/** First calendar month of a c_Meses key: 01–12 themselves, 13–18 the two-month periods (13 = ene-feb). */
function firstMonth(meses: string): number {
  const n = Number(meses);
  return n <= 12 ? n : (n - 12) * 2 - 1;
}
