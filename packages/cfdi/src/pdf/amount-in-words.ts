/** Spanish amount in words as printed on Mexican invoices: "MIL DOSCIENTOS PESOS 50/100 M.N." */
const UNITS = [
  '',
  'UNO',
  'DOS',
  'TRES',
  'CUATRO',
  'CINCO',
  'SEIS',
  'SIETE',
  'OCHO',
  'NUEVE',
  'DIEZ',
  'ONCE',
  'DOCE',
  'TRECE',
  'CATORCE',
  'QUINCE',
  'DIECISÉIS',
  'DIECISIETE',
  'DIECIOCHO',
  'DIECINUEVE',
  'VEINTE',
  'VEINTIUNO',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

/** 1..999; `apocope` turns a final UNO into UN (before MIL, MILLONES, PESOS). */
function belowThousand(n: number, apocope: boolean): string {
  if (n === 100) return 'CIEN';
  const h = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = h ? [HUNDREDS[h]!] : [];
  if (rest > 0 && rest < 30) parts.push(UNITS[rest]!);
  else if (rest >= 30)
    parts.push(rest % 10 ? `${TENS[Math.floor(rest / 10)]} Y ${UNITS[rest % 10]}` : TENS[rest / 10]!);
  const text = parts.join(' ');
  if (!apocope) return text;
  return text.replace(/VEINTIUNO$/, 'VEINTIÚN').replace(/UNO$/, 'UN');
}

/** 0..999,999,999,999 in words. */
export function integerToWords(n: number, apocope = true): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`cannot write ${n} in words`);
  if (n === 0) return 'CERO';
  const millions = Math.floor(n / 1e6);
  const thousands = Math.floor((n % 1e6) / 1000);
  const units = n % 1000;
  const parts: string[] = [];
  if (millions) parts.push(millions === 1 ? 'UN MILLÓN' : `${integerToWords(millions, true)} MILLONES`);
  if (thousands) parts.push(thousands === 1 ? 'MIL' : `${belowThousand(thousands, true)} MIL`);
  if (units) parts.push(belowThousand(units, apocope));
  return parts.join(' ');
}

/** "31920.00" → "TREINTA Y UN MIL NOVECIENTOS VEINTE PESOS 00/100 M.N." */
export function amountInWords(amount: string): string {
  const [intPart = '0', frac = ''] = amount.split('.');
  const pesos = Number(intPart);
  const cents = `${frac}00`.slice(0, 2);
  const words = integerToWords(pesos);
  // "UN MILLÓN DE PESOS": exact millions take "DE".
  const de = pesos >= 1e6 && pesos % 1e6 === 0 ? ' DE' : '';
  return `${words}${de} ${pesos === 1 ? 'PESO' : 'PESOS'} ${cents}/100 M.N.`;
}
