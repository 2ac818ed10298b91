import { loadConfig, repoRoot, type Config } from '@cfdi/config';
import { readDevMasterKey } from '@cfdi/devstack/src/dev-master-key';
import type { EntityManager } from '@cfdi/db';
import type { Platform } from '@cfdi/platform';
import type { Client } from '@temporalio/client';
import { DependencyDownError } from './failures';

/**
 * What commands share: configuration and a lazily opened database, closed once by the boundary in run.ts. The ORM
 * and the Temporal client are required on first use: commands that need neither start without loading them.
 */
export class CliContext {
  private opened: Promise<Platform> | undefined;
  private cachedConfig: Readonly<Config> | null = null;
  /** Where MASTER_KEY came from, for `cfdi doctor`. */
  masterKeySource: 'environment' | 'dev file' | null = null;

  get config(): Readonly<Config> {
    if (!this.cachedConfig) {
      // `npm run up` generates a development master key in var/ and gives it to the services it starts; the CLI of
      // the same checkout reads it too, so what it encrypts (CSDs) the API and worker can read, and the reverse.
      if (process.env.MASTER_KEY) this.masterKeySource = 'environment';
      else {
        const devKey = readDevMasterKey(repoRoot());
        if (devKey && process.env.NODE_ENV !== 'production') {
          process.env.MASTER_KEY = devKey;
          this.masterKeySource = 'dev file';
        }
      }
      // Only `master-key rotate` needs MASTER_KEY (and says so): `db migrate` runs without it, `doctor` reports it.
      this.cachedConfig = loadConfig(process.env, { requireMasterKey: false });
    }
    return this.cachedConfig;
  }

  /** The configuration if a command loaded it (an error report names the database with it). */
  get loadedConfig(): Readonly<Config> | null {
    return this.cachedConfig;
  }

  /** The platform (see @cfdi/platform), made on first use: its parts open only when a command reaches them. */
  platform(): Promise<Platform> {
    const { createPlatform } = require('@cfdi/platform') as typeof import('@cfdi/platform');
    this.opened ??= createPlatform(this.config);
    return this.opened;
  }

  async em(): Promise<EntityManager> {
    return (await this.platform()).orm.em.fork();
  }

  /** The Temporal client, connected (a command that signals or starts a workflow says at once when it cannot). */
  async temporal(): Promise<Client> {
    const client = (await this.platform()).temporal;
    await client.connection.ensureConnected().catch((error: unknown) => {
      throw new DependencyDownError('Temporal', this.config.temporal.address, error);
    });
    return client;
  }

  async close(): Promise<void> {
    await this.opened?.then(
      (platform) => platform.close(),
      () => undefined,
    );
  }

  /** Machine-readable output goes to stdout alone; everything else to stderr. */
  print(value: unknown, json: boolean): void {
    process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${String(value)}\n`);
  }
}
