import * as XLSX from 'xlsx';
import { CATALOGS, type CatalogDefinition, type CatalogRow } from '../definitions';
import { foldAccents } from '../search/normalize-text';
import type { CatalogData } from './catalog-data';
import { cellValue } from './cell-values';
import { checkRows } from './check-rows';
import { CatalogSourceError } from './source-error';

type Cells = unknown[];

/** The SAT prints a title and notes above the header; the header is found within these first rows. */
const HEADER_SEARCH_ROWS = 20;

/**
 * Reads the catalogs present in an official SAT workbook (`catCFDI_V_4_*.xls` or `.xlsx`). Sheets that
 * the SAT splits because of the .xls row limit (`c_X_Parte_1`, `c_X_Parte_2`) are concatenated.
 */
export function readWorkbook(file: string): CatalogData[] {
  let names: string[];
  try {
    names = XLSX.readFile(file, { bookSheets: true }).SheetNames;
  } catch (error) {
    throw new CatalogSourceError(`${file} is not a readable workbook`, { cause: error });
  }
  const wanted = new Map(CATALOGS.map((c) => [c, names.filter((n) => sheetBelongsTo(n, c))]));
  // Parsing only the needed sheets skips the large postal-code sheets the workbook also carries.
  const book = XLSX.readFile(file, { sheets: [...wanted.values()].flat(), dense: true });
  const found: CatalogData[] = [];
  for (const [definition, sheetNames] of wanted) {
    if (sheetNames.length === 0) continue;
    const rows = sheetNames.flatMap((name) => readSheet(definition, book.Sheets[name]!, `${file} [${name}]`));
    checkRows(definition, rows, `${file} [${definition.sheet}]`);
    found.push({ definition, rows });
  }
  if (found.length === 0)
    throw new CatalogSourceError(
      `${file} holds none of the catalog sheets (${CATALOGS.map((c) => c.sheet).join(', ')})`,
    );
  return found;
}

function sheetBelongsTo(sheetName: string, definition: CatalogDefinition): boolean {
  return new RegExp(`^${definition.sheet}(_parte_\\d+)?$`, 'i').test(sheetName.trim());
}

function readSheet(definition: CatalogDefinition, sheet: XLSX.WorkSheet, origin: string): CatalogRow[] {
  const grid = XLSX.utils.sheet_to_json<Cells>(sheet, { header: 1, raw: true, defval: '', blankrows: false });
  const anchor = definition.columns[0]!.header;
  const headerAt = grid.slice(0, HEADER_SEARCH_ROWS).findIndex((cells) => anchor.test(label(cells[0])));
  if (headerAt < 0) throw new CatalogSourceError(`${origin}: no header row starting with ${anchor}`);
  const header = grid[headerAt]!;
  // A second header row (empty first cell) splits a grouped column, e.g. "Aplica para tipo persona" → Física | Moral.
  const next = grid[headerAt + 1];
  const hasSubHeader = next !== undefined && label(next[0]) === '' && next.some((c) => label(c) !== '');
  const width = Math.max(header.length, hasSubHeader ? next.length : 0);
  const labels = Array.from({ length: width }, (_, i) =>
    [label(header[i]), hasSubHeader ? label(next[i]) : ''].filter(Boolean).join(' '),
  );
  const indexes = mapColumns(definition, labels, origin);

  const rows: CatalogRow[] = [];
  for (const cells of grid.slice(headerAt + (hasSubHeader ? 2 : 1))) {
    if (cells.every((c) => label(c) === '')) continue;
    const row: CatalogRow = {};
    definition.columns.forEach((column, i) => {
      const index = indexes[i]!;
      try {
        row[column.name] = index < 0 ? '' : cellValue(cells[index], column);
      } catch (error) {
        throw new CatalogSourceError(
          `${origin} row ${rows.length + 1}, ${column.name}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    });
    rows.push(row);
  }
  return rows;
}

/** Column index for each spec, in spec order; each header is used once so similar headers cannot collide. */
function mapColumns(definition: CatalogDefinition, labels: string[], origin: string): number[] {
  const used = new Set<number>();
  return definition.columns.map((column) => {
    const index = labels.findIndex((l, i) => !used.has(i) && column.header.test(l));
    if (index < 0 && !column.optional) {
      throw new CatalogSourceError(
        `${origin}: no column for ${column.name} (${column.header}); headers: ${labels.join(' | ')}`,
      );
    }
    used.add(index);
    return index;
  });
}

function label(cell: unknown): string {
  return foldAccents(String(cell ?? ''))
    .replace(/\s+/g, ' ')
    .trim();
}
