// Chromium test helpers the console's and the portal's end-to-end suites share (imported as
// `@cfdi/testkit/src/browser`, apart from the index, so that API suites never load playwright).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { waitFor } from './wait-for';

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

/**
 * `openPage` and `checkPage` for one app; `checkPage(page, name)` also writes `<screenshotsDir>/<name>.png` when a
 * screenshots folder is given (the docs' screenshots).
 */
export function pageChecks(screenshotsDir: string | null) {
  /** A page in a fresh browser context (its own cookies), 1280 px wide unless told. */
  async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    return context.newPage();
  }

  /** No serious or critical axe violation on the page; optionally its screenshot for the docs. */
  async function checkPage(page: Page, screenshot?: string) {
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
    if (screenshot && screenshotsDir)
      await page.screenshot({ path: path.join(screenshotsDir, `${screenshot}.png`) });
  }
  return { openPage, checkPage };
}

export interface RunningApp {
  url: string;
  close(): Promise<void>;
}

/**
 * A built Next app (`next build` ran before the tests) served by its server.js on a port of its own, once
 * `readyPath` answers; its output is printed at close when `process.env[logVariable]` is set.
 */
export async function startBuiltApp(options: {
  name: string;
  dir: string;
  env: Record<string, string>;
  port: number;
  readyPath: string;
  logVariable: string;
}): Promise<RunningApp> {
  const { name, dir, env, port, readyPath, logVariable } = options;
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(dir, 'server.js'), '-p', String(port), '-H', '127.0.0.1'],
    { cwd: dir, env: { ...process.env, ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () =>
      (await fetch(`${url}${readyPath}`)
        .then((r) => r.ok)
        .catch(() => false)) || undefined,
    { timeoutMs: 30_000, what: `the ${name} at ${url}\n${output}` },
  );
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (process.env[logVariable]) console.log(output);
    },
  };
}
