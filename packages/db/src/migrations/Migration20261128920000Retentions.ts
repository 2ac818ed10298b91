import { Migration } from '@mikro-orm/migrations';

/**
 * Withholding certificates (Retenciones 2.0, issue #40) are documents of type `retention`, stored, stamped and
 * cancelled as the CFDI are; their id range is `ret_…`.
 */
export class Migration20261128920000Retentions extends Migration {
  /** Why the release before this one keeps working once it has run (expand-contract.test.ts). */
  static readonly rollingUpgradeSafe =
    'the type check only gains retention; every row the previous release writes (invoice, payment, nomina) still holds';

  override async up(): Promise<void> {
    this.addSql(`
      alter table documents drop constraint documents_type_check;
      alter table documents add constraint documents_type_check
        check (type in ('invoice', 'payment', 'nomina', 'retention'));
    `);
  }
}
