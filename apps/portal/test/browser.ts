import path from 'node:path';
import { pageChecks } from '@cfdi/testkit/src/browser';

export { launchBrowser } from '@cfdi/testkit/src/browser';

/** axe and sideways-scroll checks; `TEST_PORTAL_SCREENSHOTS=1` writes the README's screenshots (docs/portal/). */
export const { openPage, checkPage } = pageChecks(
  process.env.TEST_PORTAL_SCREENSHOTS ? path.resolve(__dirname, '../../../docs/portal') : null,
);
