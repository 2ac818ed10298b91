'use server';

import { redirect } from 'next/navigation';
import {
  createDraft,
  DOCUMENT_KINDS,
  draftTotals,
  updateDraft,
  type DocumentKind,
  type DraftTotals,
} from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { formProblem, type FormState } from '../../../src/form-state';
import { draftBodyOf, stampingDeps, type DraftKind, type IssueFormBody } from '../../../src/issuing';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

/** Only the draftable kinds, whatever the client sends. */
const kindOf = (kind: DraftKind) =>
  DOCUMENT_KINDS[kind === 'credit_note' ? 'credit_note' : 'invoice'] as unknown as DocumentKind<never>;

async function scopeOrThrow() {
  const { scope } = await currentWorkspace();
  if (!scope) throw new Error('no account in this workspace');
  return scope;
}

/** The totals per tax the document would have, from the services' tax engine (a read: checked, not audited). */
export async function documentTotals(
  kind: DraftKind,
  form: IssueFormBody,
): Promise<{ totals?: DraftTotals } & FormState> {
  return audited<{ totals?: DraftTotals } & FormState>('documents.issue', async () => {
    try {
      const body = draftBodyOf(kind, form);
      const totals = await draftTotals(
        await em(),
        await stampingDeps(),
        await scopeOrThrow(),
        kindOf(kind),
        body,
      );
      return { result: { totals }, audit: null };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

/**
 * Stores the document as a draft (validated and totalled, nothing reserved) and opens it; with `draftId`, saves the
 * form over that draft instead (the API's PATCH: validated and totalled again under its row lock).
 */
export async function saveDraft(kind: DraftKind, form: IssueFormBody, draftId?: string): Promise<FormState> {
  const saved = await audited<FormState>('documents.issue', async () => {
    const scope = await scopeOrThrow();
    try {
      const body = draftBodyOf(kind, form);
      const row = draftId
        ? await updateDraft(
            await em(),
            await stampingDeps(),
            scope,
            String(draftId),
            // The form holds every field it edits: one left empty (usoCfdi) is removed, not kept from before.
            { ...body, ...(body.usoCfdi === undefined ? { usoCfdi: null } : {}) },
            // The body is the form's own (draftBodyOf), not a client's JSON: no schema to check it against.
            () => undefined,
          )
        : await createDraft(await em(), await stampingDeps(), scope, kindOf(kind), body);
      return {
        result: { done: row.id },
        audit: {
          action: draftId ? 'document.draft_update' : 'document.draft_create',
          target: row.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { kind: row.kind ?? row.type, total: row.total },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
  if (saved.done) redirect(`/issue/drafts/${saved.done}`);
  return saved;
}
