// bench/stamp reference mode "empty workflow": the stamp's update-with-start answered by a workflow that returns at
// once, i.e. what Temporal alone costs a stamp (server, client and worker plumbing). Bench-only.
import { condition, allHandlersFinished, setHandler } from '@temporalio/workflow';
import { stampOutcomeUpdate } from '../../workflows/src/names';
import type { StampOutcome } from '../../workflows/src/stamp-types';

export async function emptyStampWorkflow(): Promise<void> {
  setHandler(stampOutcomeUpdate, (): StampOutcome => ({ outcome: 'stamped', uuid: '00000000-0000-0000-0000-000000000000' }));
  await condition(allHandlersFinished);
}
