import path from 'node:path';
import type { Page } from 'playwright-core';
import { pageChecks } from '@cfdi/testkit/src/browser';

export { launchBrowser } from '@cfdi/testkit/src/browser';

/** axe and sideways-scroll checks; `TEST_CONSOLE_SCREENSHOTS=1` writes the screenshots of docs/console.md. */
export const { openPage, checkPage } = pageChecks(
  process.env.TEST_CONSOLE_SCREENSHOTS ? path.resolve(__dirname, '../../../docs/console') : null,
);

export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(/Correo|E-mail/).fill(email);
  await page.getByLabel(/Contraseña|Password/).fill(password);
  await page.getByRole('button', { name: /Iniciar sesión|Sign in/ }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login') || url.searchParams.has('error'));
}
