import type { Config } from '@cfdi/config';
import type { CatalogService } from '@cfdi/catalogs';

/** What creating a stampable document needs besides the database. */
export interface StampingDeps {
  config: Pick<Config, 'priceTiers'>;
  catalogs: CatalogService;
  now?: () => Date;
}
