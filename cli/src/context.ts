import { loadConfig, type Config } from '@cfdi/config';
import { createOrm, type EntityManager, type Orm } from '@cfdi/db';
import { Client, Connection } from '@temporalio/client';

/** What commands share: configuration and a lazily opened database, closed once by the boundary in main.ts. */
export class CliContext {
  private orm: Orm | null = null;
  private cachedConfig: Readonly<Config> | null = null;
  private temporalConnection: Connection | null = null;

  get config(): Readonly<Config> {
    this.cachedConfig ??= loadConfig();
    return this.cachedConfig;
  }

  async em(): Promise<EntityManager> {
    this.orm ??= await createOrm(this.config.databaseUrl);
    return this.orm.em.fork();
  }

  async temporal(): Promise<Client> {
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
