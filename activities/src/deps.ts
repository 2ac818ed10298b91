import type { Config } from '@cfdi/config';
import type { Orm } from '@cfdi/db';
import type { PacClient } from '@cfdi/pac';
import type { CsdLoader, DocumentFilesDeps } from '@cfdi/services';

/** What activities may use; built once by the worker. No activity constructs its own client. */
export interface ActivityDeps {
  config: Readonly<Config>;
  orm: Orm;
  pac: { forMode(livemode: boolean): PacClient };
  loadCsd: CsdLoader;
  files: DocumentFilesDeps;
  now?: () => Date;
}
