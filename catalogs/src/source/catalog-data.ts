import type { CatalogDefinition, CatalogRow } from '../definitions';

/** The rows of one catalog read from a source, already in canonical (TSV) form. */
export interface CatalogData {
  definition: CatalogDefinition;
  rows: CatalogRow[];
}
