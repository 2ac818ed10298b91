import { loadConfig, type Config } from '@cfdi/config';
import type { EntityManager, Orm } from '@cfdi/db';
import type { Client, Connection } from '@temporalio/client';

/**
 * What commands share: configuration and a lazily opened database, closed once by the boundary in main.ts. The ORM
 * and the Temporal client are required on first use: commands that need neither start without loading them.
 */
export class CliContext {
  private orm: Orm | null = null;
  private cachedConfig: Readonly<Config> | null = null;
  private temporalConnection: Connection | null = null;

  get config(): Readonly<Config> {
    this.cachedConfig ??= loadConfig();
    return this.cachedConfig;
  }

  async em(): Promise<EntityManager> {
    const { createOrm } = require('@cfdi/db') as typeof import('@cfdi/db');
    this.orm ??= await createOrm(this.config.databaseUrl);
    return this.orm.em.fork();
  }

  async temporal(): Promise<Client> {
    const { Client, Connection } = require('@temporalio/client') as typeof import('@temporalio/client');
    this.temporalConnection ??= await Connection.connect({ address: this.config.temporal.address, connectTimeout: 5000 });
    return new Client({ connection: this.temporalConnection, namespace: this.config.temporal.namespace });
  }

  async close(): Promise<void> {
    await this.orm?.close();
    await this.temporalConnection?.close();
  }

  /** Machine-readable output goes to stdout alone; everything else to stderr. */
  print(value: unknown, json: boolean): void {
    process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${String(value)}\n`);
  }
}
