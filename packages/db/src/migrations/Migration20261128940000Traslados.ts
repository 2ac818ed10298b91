import { Migration } from '@mikro-orm/migrations';

/**
 * Traslado CFDIs (TipoDeComprobante T, issue #40) are documents of type `traslado`, stored, stamped and cancelled as
 * the other CFDI are; their id range is `tra_…`.
 */
export class Migration20261128940000Traslados extends Migration {
  /** Why the release before this one keeps working once it has run (expand-contract.test.ts). */
  static readonly rollingUpgradeSafe =
    'the type check only gains traslado; every row the previous release writes (invoice, payment, nomina, retention) still holds';

  override async up(): Promise<void> {
    this.addSql(`
      alter table documents drop constraint documents_type_check;
      alter table documents add constraint documents_type_check
        check (type in ('invoice', 'payment', 'nomina', 'retention', 'traslado'));
    `);
  }
}
