import type { Config } from '@cfdi/config';
import { buildApp } from './app';
import { createAppDeps } from './deps';

/** The API's OpenAPI document, built without a listening socket or any connection (`npm run sdk:generate`). */
export async function openapiDocument(config: Readonly<Config>): Promise<Record<string, unknown>> {
  const deps = await createAppDeps(config);
  const app = await buildApp(deps, { logger: false });
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await deps.close();
  }
}
