import { Migration } from '@mikro-orm/migrations';

/**
 * Payroll receipts: the employer's IMSS registro patronal as a merchant default, and the list of an employee's
 * receipts (GET /v1/nominas?employeeRfc=…), the highest-volume document, answered from an index.
 */
export class Migration20261125500000PayrollReceipts extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table merchants add column registro_patronal text;');
    this.addSql(
      `create index documents_nomina_employee_idx on documents (account_id, livemode, (receiver->>'rfc'), id) where type = 'nomina';`,
    );
  }
}
