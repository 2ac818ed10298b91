import { Migration } from '@mikro-orm/migrations';

/**
 * A reconciliation decision is recorded once. The workflow step that records it can run again after a worker crash
 * (its result was not yet in the history), and a decision can reach a new run after its earlier run was terminated:
 * both would repeat the same row. Rows already repeated keep their earliest copy.
 */
export class Migration20261121080000ReconciliationOnce extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      delete from reconciliations later using reconciliations earlier
       where later.document_id = earlier.document_id and later.resolution = earlier.resolution
         and later.resolved_by = earlier.resolved_by and coalesce(later.uuid, '') = coalesce(earlier.uuid, '')
         and coalesce(later.note, '') = coalesce(earlier.note, '') and later.id > earlier.id;`);
    this.addSql(`
      create unique index reconciliations_once_idx
          on reconciliations (document_id, resolution, resolved_by, coalesce(uuid, ''), coalesce(note, ''));`);
  }
}
