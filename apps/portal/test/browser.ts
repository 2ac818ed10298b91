// The console's helpers (apps/console/test/browser.ts), copied rather than imported: a dependency on the console
// would make the portal's build wait for the console's.
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (scripts/system-tools.ts installs it); playwright-core never downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: apt-get install chromium (npm test installs it when run as root)`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.1 A/AA rules). */
export async function seriousA11yViolations(
  page: Page,
): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
