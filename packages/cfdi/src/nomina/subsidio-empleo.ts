import { ceil, dec, type Dec } from '../decimal/money';

/**
 * The subsidio para el empleo in force on a date: a monthly amount and the monthly income up to which it applies.
 * Since May 2024 it is a percentage of the monthly UMA (UMA diaria × 30.4) for incomes up to a limit, fixed each year
 * by decree; before, it was the table of the LISR 2014 decree (artículo décimo transitorio), whose highest monthly
 * subsidy was 407.02. Sources (Diario Oficial de la Federación):
 * - 2014-01-01: Decreto LISR 2014, art. décimo transitorio fr. I (tabla mensual, máximo 407.02, ingresos hasta 7,382.33).
 * - 2024-05-01: Decreto que otorga el subsidio para el empleo (DOF 2024-05-01): 11.82 % × UMA 2024 (3,300.53), hasta 9,081.00.
 * - 2025-01-01: Decreto que lo modifica (DOF 2024-12-31): enero 14.39 % × UMA 2024 (3,300.53), hasta 10,171.00;
 * - 2025-02-01: desde febrero 13.8 % × UMA 2025 (3,439.46).
 * - 2026-01-01: Decreto que lo modifica (DOF 2025-12-31): enero 15.59 % × UMA 2025 (3,439.46), hasta 11,492.66;
 * - 2026-02-01: desde febrero 15.02 % × UMA 2026 (3,566.22).
 * The 2026 figures are as the decree of 2025-12-31 was reported (PRODECON, press); the decree itself is not in the
 * project's SAT material. A new year's decree is one more row here (docs/decisions.md, subsidio para el empleo).
 */
export interface SubsidioEmpleo {
  /** First day (YYYY-MM-DD) the row applies to, by FechaPago. */
  from: string;
  /** The monthly subsidy, rounded up to the centavo (the employee's side of a rounding). */
  monthly: Dec;
  /** Monthly income up to which the subsidy applies. */
  incomeLimit: Dec;
  source: string;
}

const umaShare = (percent: string, umaMensual: string): Dec =>
  ceil(dec(percent).div(100).times(umaMensual), 2);

export const SUBSIDIO_EMPLEO: readonly SubsidioEmpleo[] = [
  {
    from: '2014-01-01',
    monthly: dec('407.02'),
    incomeLimit: dec('7382.33'),
    source: 'Decreto LISR 2014, artículo décimo transitorio, fracción I',
  },
  {
    from: '2024-05-01',
    monthly: umaShare('11.82', '3300.53'),
    incomeLimit: dec('9081.00'),
    source: 'Decreto DOF 2024-05-01: 11.82 % de la UMA mensual 2024',
  },
  {
    from: '2025-01-01',
    monthly: umaShare('14.39', '3300.53'),
    incomeLimit: dec('10171.00'),
    source: 'Decreto DOF 2024-12-31, transitorio de enero: 14.39 % de la UMA mensual 2024',
  },
  {
    from: '2025-02-01',
    monthly: umaShare('13.8', '3439.46'),
    incomeLimit: dec('10171.00'),
    source: 'Decreto DOF 2024-12-31: 13.8 % de la UMA mensual 2025',
  },
  {
    from: '2026-01-01',
    monthly: umaShare('15.59', '3439.46'),
    incomeLimit: dec('11492.66'),
    source: 'Decreto DOF 2025-12-31, transitorio de enero: 15.59 % de la UMA mensual 2025',
  },
  {
    from: '2026-02-01',
    monthly: umaShare('15.02', '3566.22'),
    incomeLimit: dec('11492.66'),
    source: 'Decreto DOF 2025-12-31: 15.02 % de la UMA mensual 2026',
  },
];

/** Days of a month for the subsidy (the decree divides the monthly amount by 30.4 for shorter periods). */
const SUBSIDY_MONTH_DAYS = dec('30.4');

/** The row in force on `fechaPago` (YYYY-MM-DD); undefined before 2014. */
export function subsidioEnVigor(fechaPago: string): SubsidioEmpleo | undefined {
  return [...SUBSIDIO_EMPLEO].reverse().find((row) => row.from <= fechaPago);
}

/**
 * The most subsidio causado one receipt can carry: the monthly subsidy in force on the payment date, for a period
 * shorter than a month in proportion to the days paid (monthly ÷ 30.4 × days, at most a month), rounded up.
 */
export function maxSubsidioCausado(row: SubsidioEmpleo, numDiasPagados: Dec): Dec {
  if (!numDiasPagados.lt(SUBSIDY_MONTH_DAYS)) return row.monthly;
  return ceil(row.monthly.times(numDiasPagados).div(SUBSIDY_MONTH_DAYS), 2);
}

/** The monthly subsidy income limit brought to a period of `days` days (at most a month). */
export function incomeLimitFor(row: SubsidioEmpleo, days: Dec): Dec {
  if (!days.lt(SUBSIDY_MONTH_DAYS)) return row.incomeLimit;
  return row.incomeLimit.times(days).div(SUBSIDY_MONTH_DAYS);
}
