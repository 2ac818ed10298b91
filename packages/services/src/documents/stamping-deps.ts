import type { Config } from '@cfdi/config';
import type { CatalogService } from '@cfdi/catalogs';

/** What creating a stampable document needs besides the database. */
export interface StampingDeps {
  config: Pick<Config, 'priceTiers'>;
  catalogs: CatalogService;
  now?: () => Date;
}

/** The issuer as the engine and the validation see it. */
export interface StampingMerchant {
  id: string;
  rfc: string;
  legalName: string;
  regimenFiscal: string;
  zip: string;
  serie: string;
  /** Default IMSS registro patronal for payroll receipts. */
  registroPatronal?: string | null;
}
