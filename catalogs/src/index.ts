export { CATALOGS, CATALOG_NAMES, catalogDefinition, isSmallCatalog } from './definitions';
export type { CatalogDefinition, CatalogName, CatalogRow, SmallCatalogName } from './definitions';
export type * from './types';
export {
  CatalogIndex,
  SEARCH_LIMIT,
  type CatalogSnapshot,
  type ProductRecord,
  type UnitRecord,
} from './catalog-index';
export { SHIPPED_CATALOGS } from './shipped';
export { catalogVersion, loadCatalogIndex, readSnapshot } from './load-catalog-index';
export { createCatalogService, type CatalogService, type CatalogServiceOptions } from './catalog-service';
export { CatalogShrinkError, importCatalogs } from './import/import-catalogs';
export type {
  CatalogImportResult,
  ImportOptions,
  ImportProgress,
  ImportResult,
} from './import/import-catalogs';
export { createProgressReporter, formatSummary, type ProgressReporter } from './import/progress-reporter';
export { CatalogSourceError } from './source/source-error';
export { defaultCatalogsDir } from './default-dir';
