import * as XLSX from 'xlsx';
import type { CellKind, ColumnSpec } from '../definitions';
import { foldAccents } from '../search/normalize-text';

/** Converts one workbook cell into the canonical string the TSV files use for the same column. */
export function cellValue(raw: unknown, column: ColumnSpec): string {
  const text = cellText(raw);
  const value = convert(raw, text, column.kind ?? 'text');
  return column.pad && /^\d+$/.test(value) ? value.padStart(column.pad, '0') : value;
}

function cellText(raw: unknown): string {
  if (raw === null || raw === undefined) return '';
  return String(raw).trim();
}

function convert(raw: unknown, text: string, kind: CellKind): string {
  switch (kind) {
    case 'text':
      return text;
    case 'date':
      return isoDate(raw, text);
    case 'yes':
      return String(['si', '1', 'true'].includes(foldAccents(text)));
    case 'not-no':
      return String(!['no', ''].includes(foldAccents(text)));
    case 'pattern': {
      const folded = foldAccents(text);
      if (folded === 'no') return '';
      // SAT writes 'Opcional' where any account is allowed.
      return folded === 'opcional' ? '.*' : text;
    }
    case 'codes':
      return text
        .split(/[\s,]+/)
        .filter(Boolean)
        .join(',');
    case 'decimal6':
      return text === '' ? '' : Number(text).toFixed(6);
  }
}

/** Spreadsheet dates arrive as serial numbers (date-formatted cells) or as 'DD/MM/YYYY' text. */
function isoDate(raw: unknown, text: string): string {
  if (typeof raw === 'number') {
    const d = XLSX.SSF.parse_date_code(raw);
    return `${d.y}-${pad2(d.m)}-${pad2(d.d)}`;
  }
  if (text === '' || /^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const dmy = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(text);
  if (dmy) return `${dmy[3]}-${pad2(Number(dmy[2]))}-${pad2(Number(dmy[1]))}`;
  throw new Error(`"${text}" is not a date`);
}

const pad2 = (n: number) => String(n).padStart(2, '0');
