import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousA11yViolations } from './browser';

// As the console's (apps/console/test/page-checks.ts): axe clean and no sideways scroll.

/** `TEST_PORTAL_SCREENSHOTS=1` writes the README's screenshots of the portal (docs/portal/). */
const SCREENSHOTS = process.env.TEST_PORTAL_SCREENSHOTS
  ? path.resolve(__dirname, '../../../docs/portal')
  : null;

/** A page in a fresh browser context (its own cookies), 1280 px wide unless told. */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  return context.newPage();
}

/** No serious or critical axe violation on the page; optionally its screenshot for the docs. */
export async function checkPage(page: Page, screenshot?: string) {
  // Next streams a dynamic page's <title> after its body: wait for it like a screen reader would.
  await page.waitForFunction(
    () => (globalThis as unknown as { document: { title: string } }).document.title !== '',
  );
  // The pointer stays where the last click was, and after a redirect it may hover over another control, whose hover
  // colours axe would then measure: check the page at rest, as it is first seen.
  await page.mouse.move(0, 0);
  expect({ url: page.url(), violations: await seriousA11yViolations(page) }).toEqual({
    url: page.url(),
    violations: [],
  });
  // At 1280 px and on a phone the page never scrolls sideways as a whole: wide content wraps (or scrolls inside its
  // own region).
  const widths = await page.evaluate(() => {
    type Node = { tagName: string; className: unknown; getBoundingClientRect(): { right: number } };
    const doc = (
      globalThis as unknown as {
        document: {
          documentElement: { scrollWidth: number; clientWidth: number };
          querySelectorAll(selector: string): ArrayLike<Node & { querySelector(s: string): Node | null }>;
        };
      }
    ).document;
    const root = doc.documentElement;
    // The innermost elements that stick out, named, so a failure says what to fix.
    const out = (node: Node) => node.getBoundingClientRect().right > root.clientWidth + 0.5;
    const culprits =
      root.scrollWidth > root.clientWidth
        ? Array.from(doc.querySelectorAll('body *'))
            .filter(
              (node) =>
                out(node) &&
                !Array.from(doc.querySelectorAll('body *')).some(
                  (d) =>
                    d !== node &&
                    out(d) &&
                    (node as unknown as { contains(n: unknown): boolean }).contains(d),
                ),
            )
            .map((node) => `${node.tagName.toLowerCase()}.${String(node.className).split(' ').join('.')}`)
        : [];
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: culprits.slice(0, 3) };
  });
  expect({
    url: page.url(),
    overflow: widths.scrollWidth - widths.clientWidth,
    culprits: widths.culprits,
  }).toEqual({
    url: page.url(),
    overflow: 0,
    culprits: [],
  });
  if (screenshot && SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `${screenshot}.png`) });
}
