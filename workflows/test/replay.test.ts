import fs from 'node:fs';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';

/**
 * Histories recorded from real runs (stamped, operator-resolved both ways, rejected, PAC unavailable, a PAC answer the
 * API handed over as `answered`) replayed
 * against today's workflow code: a change that is not deterministic with what already ran fails here, and must go
 * behind `patched()`. Record new ones with `temporal workflow show --workflow-id stamp-<id> --output json`.
 */
const dir = path.join(__dirname, 'histories');

describe('workflow replay', () => {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    it(`replays ${file}`, async () => {
      const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
      await Worker.runReplayHistory(
        { workflowsPath: require.resolve('../src/index.ts') },
        history,
        `replay-${file}`,
      );
    }, 60_000);
  }
});
