import { hasUnsupportedCharacter } from '../validation/characters';

/**
 * Free text going into an attribute, unchanged: the serializer escapes it (builder.ts), so an XML reader gets these
 * exact characters back, tabs and line breaks included (the cadena's normalize-space collapses them). Refused, as a
 * RangeError (a permanent input error): a pipe, the cadena's separator, and what no CFDI text may hold
 * (validation/characters.ts).
 */
export function xmlText(label: string, value: string): string {
  if (value.includes('|')) throw new RangeError(`${label} contains a pipe ("|")`);
  if (hasUnsupportedCharacter(value)) throw new RangeError(`${label} ${UNSUPPORTED}`);
  return value;
}

const UNSUPPORTED = 'contains a control character, a Unicode non-character or an unpaired surrogate';
