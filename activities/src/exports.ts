import { Context } from '@temporalio/activity';
import { failDocumentExport, finishDocumentExport, writeExportPart } from '@cfdi/services';
import type { Activities } from '@cfdi/temporal-contract';
import type { ActivityDeps } from './deps';

type ExportActivities = Pick<Activities, 'writeExportPart' | 'finishExport' | 'failExport'>;

export function exportActivities(deps: ActivityDeps): ExportActivities {
  const em = () => deps.orm.em.fork();
  return {
    async writeExportPart({ exportId, state }) {
      const context = Context.current();
      return writeExportPart(em(), deps.exports, exportId, state, () => context.heartbeat(state.part));
    },

    async finishExport({ exportId, state }) {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat('finishing'), 5_000);
      try {
        return { bytes: (await finishDocumentExport(em(), deps.exports, exportId, state)).bytes };
      } finally {
        clearInterval(beat);
      }
    },

    async failExport({ exportId, reason }) {
      await failDocumentExport(em(), exportId, reason);
    },
  };
}
