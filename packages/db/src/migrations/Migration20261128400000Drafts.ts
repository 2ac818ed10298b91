import { Migration } from '@mikro-orm/migrations';

/**
 * Drafts (issue #36): an invoice or credit note stored before it is stamped, in `documents` so that its id stays the
 * document's id once stamped. A draft has no folio (assigned when it is stamped, so folios stay gapless for what is
 * stamped) and no reservation; `request` keeps its create body as sent, which PATCH merges into.
 */
export class Migration20261128400000Drafts extends Migration {
  /** Why the release before this one keeps working once it has run (expand-contract.test.ts). */
  static readonly rollingUpgradeSafe =
    'the status check only gains draft; documents_draft_check holds for every row the previous release writes (never a draft, always a folio)';

  override async up(): Promise<void> {
    this.addSql(`
      alter table documents drop constraint documents_status_check;
      alter table documents add constraint documents_status_check
        check (status in ('draft', 'stamping', 'stamped', 'stamp_failed', 'cancel_pending', 'cancelled'));
      alter table documents alter column folio drop not null;
      alter table documents add column request jsonb;
      alter table documents add constraint documents_draft_check
        check ((status = 'draft') = (folio is null) and (status <> 'draft' or (reservation_id is null and request is not null)));
    `);
  }
}
