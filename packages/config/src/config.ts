import path from 'node:path';
import { repoRoot } from './paths';
import { withSecretFiles } from './secret-files';
import { parseMasterKeyring, type MasterKeyring } from './master-keys';
import { parseTrustedProxies } from './trusted-proxies';

/**
 * Process configuration, read once from the environment, validated, frozen.
 * Every variable, its default and meaning is listed in `.env.example`.
 */
export interface Config {
  nodeEnv: 'development' | 'test' | 'production';
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  databaseUrl: string;
  redisUrl: string;
  temporal: { address: string; namespace: string; taskQueue: string };
  api: {
    host: string;
    port: number;
    publicBaseUrl: string;
    docsUrl: string;
    /** The public self-invoicing portal: a receipt's selfInvoiceUrl is `${portalUrl}/r/${key}`. */
    portalUrl: string;
    bodyLimitBytes: number;
    /** After SIGTERM, /ready answers 503 this long (load balancers stop routing) before the listener closes. */
    drainDelayMs: number;
  };
  /** The worker's probe and metrics listener (GET /live, /ready, /metrics); null port: none. */
  workerHealth: { host: string; port: number | null };
  /** Reverse proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); none by default. */
  trustedProxies: readonly string[];
  stampWaitMs: number;
  /** Document files rendered at once per worker process (PDF rendering is CPU-bound). */
  filesConcurrency: number;
  /** Documents with at most this many concepts get their files on first download; larger ones on the files queue. */
  filesInlineMaxItems: number;
  /** Backoff of the PAC's already-stamped lookup after an ambiguous failure (seconds). */
  reconciliation: { firstLookupSeconds: number; maxLookupSeconds: number };
  /** Backoff of the SAT status query while a cancellation awaits the receiver's answer (seconds). */
  cancellationPolling: { firstPollSeconds: number; maxPollSeconds: number };
  rateLimitPerMinute: number;
  /** The self-invoicing portal's limits: requests per minute per client address and per receipt key named. */
  portal: { rateLimitPerIp: number; rateLimitPerKey: number };
  /** Bearer token `/metrics` requires; when unset it is open outside production and refused in production. */
  metricsToken: string | null;
  /** Centavos seeded into the test balance of every new account. */
  testSeedCentavos: number;
  /** Price of one timbre by monthly volume: the first tier whose `from` ≤ timbres already used this month. */
  priceTiers: ReadonlyArray<{ from: number; centavos: number }>;
  /** The key that seals new secrets (MASTER_KEY, MASTER_KEY_ID), with the retired ones still read (MASTER_KEYS_PREVIOUS). */
  masterKey: MasterKeyring | null;
  liveEnabled: boolean;
  signedUrlTtlSeconds: number;
  /**
   * Console exports of up to this many documents stream straight to the browser; larger ones are built by a
   * workflow into storage and downloaded through a signed URL when ready.
   */
  exportStreamMaxDocuments: number;
  /** Documents per part of an export workflow's ZIP (one activity, written whole again after a crash). */
  exportPartDocuments: number;
  /** Rows per part of a CSV built by the export workflow: a row is small, so its parts are much larger than a ZIP's. */
  exportCsvPartRows: number;
  storage: StorageConfig;
  pac: { sandboxUrl: string; url: string | null; username: string | null; password: string | null };
  catalogsDir: string | null;
  webhooks: WebhooksConfig;
  billing: BillingConfig;
  mail: MailConfig;
}

/** Outgoing e-mail of stamped documents through an SMTP server. */
export interface MailConfig {
  /** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`; null: e-mail is not configured. */
  smtpUrl: string | null;
  /** The From of every message: an address, optionally with a display name (`Facturas <facturas@example.com>`). */
  from: string;
  /** Send requests an account may make per minute (each request is one message). */
  perMinute: number;
  /** Attempts of one message against an SMTP server that fails temporarily, and the backoff between them. */
  retry: { maxAttempts: number; firstSeconds: number; maxSeconds: number };
}

/** Webhook delivery: retry backoff and its window, how often the outbox is read, how long events are kept. */
export interface WebhooksConfig {
  retryFirstSeconds: number;
  retryMaxSeconds: number;
  /** Retries of one delivery stop after this long; an endpoint failing this long straight is disabled. */
  retryWindowSeconds: number;
  dispatchIntervalMs: number;
  eventRetentionDays: number;
  /** Deliveries in flight at once per worker process (HTTP waits, little CPU). */
  deliveryConcurrency: number;
}

/** One Stripe account (live or test mode): the API key that creates sessions and the secret its webhooks are signed with. */
export interface StripeAccountConfig {
  secretKey: string;
  webhookSecret: string;
}

/**
 * Balance top-ups through Stripe. Live API keys buy with `live` (STRIPE_SECRET_KEY), test API keys with `test`
 * (STRIPE_TEST_SECRET_KEY, Stripe's test mode: no real money); a mode without its Stripe account answers 503
 * `billing_unavailable`.
 */
export interface BillingConfig {
  live: StripeAccountConfig | null;
  test: StripeAccountConfig | null;
  /** Another Stripe API endpoint (stripe-mock in tests); null: Stripe itself. */
  apiBase: string | null;
  /** Where Stripe Checkout sends the buyer after paying or giving up, and where the billing portal's "back" goes. */
  successUrl: string | null;
  cancelUrl: string | null;
  returnUrl: string | null;
}

/** Where files live: a directory on this machine, or a bucket on S3 or an S3-compatible server (MinIO, …). */
export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      /** null: AWS itself, addressed by region. */
      endpoint: string | null;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** `endpoint/bucket/key` URLs instead of `bucket.endpoint/key` (what MinIO and most self-hosted servers need). */
      forcePathStyle: boolean;
      /** Slash-free at both ends; null when keys sit at the bucket's root. */
      prefix: string | null;
    };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export interface LoadConfigOptions {
  /**
   * False for processes that never encrypt or decrypt with MASTER_KEY (the console, the CLI): they start without it
   * even where live mode is on. Default true: the API and the worker refuse to start in live mode without it.
   */
  requireMasterKey?: boolean;
}

/** Any variable may come from a file: `<NAME>_FILE` (see withSecretFiles). */
export function loadConfig(rawEnv: Env = process.env, options: LoadConfigOptions = {}): Readonly<Config> {
  const problems: string[] = [];
  const env = withSecretFiles(rawEnv, problems);
  const str = (name: string, fallback: string) => env[name]?.trim() || fallback;
  const optional = (name: string) => env[name]?.trim() || null;
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name}="${raw}" must be an integer between ${min} and ${max}`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name}="${raw}" must be one of ${allowed.join(', ')}`);
      return fallback;
    }
    return raw as T;
  };
  const url = (name: string, fallback: string, protocols: string[]) => {
    const raw = str(name, fallback);
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
    } catch {
      problems.push(`${name}="${raw}" must be a ${protocols.join(' or ')} URL`);
    }
    return raw.replace(/\/+$/, '');
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!['true', 'false', '1', '0'].includes(raw)) {
      problems.push(`${name}="${raw}" must be true or false`);
      return fallback;
    }
    return raw === 'true' || raw === '1';
  };

  const nodeEnv = oneOf('NODE_ENV', 'development', ['development', 'test', 'production'] as const);
  const port = int('API_PORT', 3000, 0, 65535);
  const apiHost = str('API_HOST', '127.0.0.1');
  // By default the API's own address, as `npm run up` prints it: an MCP client checks the OAuth metadata's resource
  // against the URL it was given, and to it `localhost` is not `127.0.0.1`. A wildcard host is reached on loopback.
  const reachableHost = ['0.0.0.0', '::'].includes(apiHost)
    ? '127.0.0.1'
    : apiHost.includes(':')
      ? `[${apiHost}]`
      : apiHost;
  const publicBaseUrl = url('PUBLIC_BASE_URL', `http://${reachableHost}:${port}`, ['http:', 'https:']);
  const liveEnabled = bool('LIVE_ENABLED', nodeEnv === 'production');

  const masterKey = parseMasterKeyring(
    optional('MASTER_KEY'),
    str('MASTER_KEY_ID', 'k1'),
    optional('MASTER_KEYS_PREVIOUS'),
    problems,
  );
  if (!optional('MASTER_KEY') && liveEnabled && options.requireMasterKey !== false)
    problems.push('MASTER_KEY is required when LIVE_ENABLED=true: CSD keys cannot be stored unencrypted');

  // The S3 variables are read, and required, only when that driver is chosen.
  const storage = (): StorageConfig => {
    if (oneOf('STORAGE_DRIVER', 'local', ['local', 's3'] as const) === 'local') {
      return { driver: 'local', dir: path.resolve(repoRoot(), str('STORAGE_DIR', 'var/storage')) };
    }
    const required = (name: string, what: string) => {
      const value = optional(name);
      if (!value) problems.push(`${name} is required when STORAGE_DRIVER=s3: ${what}`);
      return value ?? '';
    };
    const endpoint = optional('S3_ENDPOINT') && url('S3_ENDPOINT', '', ['http:', 'https:']);
    const bucket = required('S3_BUCKET', 'the bucket that holds the files');
    if (bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      problems.push(
        `S3_BUCKET="${bucket}" must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens`,
      );
    }
    const prefix = str('S3_PREFIX', '').replace(/^\/+|\/+$/g, '') || null;
    if (prefix && !/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(prefix)) {
      problems.push(
        `S3_PREFIX="${prefix}" must be slash-separated segments of letters, digits, dots, underscores and hyphens`,
      );
    }
    return {
      driver: 's3',
      endpoint: endpoint || null,
      region: str('S3_REGION', 'us-east-1'),
      bucket,
      accessKeyId: required(
        'S3_ACCESS_KEY_ID',
        'the access key of a user allowed to read and write the bucket',
      ),
      secretAccessKey: required('S3_SECRET_ACCESS_KEY', "that access key's secret"),
      forcePathStyle: bool('S3_FORCE_PATH_STYLE', Boolean(endpoint)),
      prefix,
    };
  };

  const billing = (): BillingConfig => {
    const account = (keyName: string, secretName: string, livemode: boolean): StripeAccountConfig | null => {
      const secretKey = optional(keyName);
      const webhookSecret = optional(secretName);
      if (!secretKey && !webhookSecret) return null;
      if (!secretKey || !webhookSecret) {
        problems.push(
          `${keyName} and ${secretName} go together: set both (the key creates Checkout sessions, the secret verifies their webhooks) or neither`,
        );
        return null;
      }
      // Outside production the live flow may run on a Stripe test key (Stripe's test mode, stripe-mock); in
      // production a test key there would credit live balances for test-card payments.
      const allowed = livemode && nodeEnv !== 'production' ? ['live', 'test'] : [livemode ? 'live' : 'test'];
      const keyMode = /^(?:sk|rk)_(live|test)_[A-Za-z0-9]+$/.exec(secretKey)?.[1];
      if (!keyMode || !allowed.includes(keyMode)) {
        problems.push(
          `${keyName} must be a Stripe ${allowed.join(' or ')} secret key (${allowed.map((m) => `sk_${m}_…`).join(', ')}, or rk_… for a restricted key)`,
        );
      }
      if (!/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret))
        problems.push(`${secretName} must be a Stripe webhook signing secret (whsec_…)`);
      return { secretKey, webhookSecret };
    };
    const live = account('STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', true);
    const test = account('STRIPE_TEST_SECRET_KEY', 'STRIPE_TEST_WEBHOOK_SECRET', false);
    // The secret that verifies an event says which Stripe mode sent it, so the two must differ.
    if (live && test && live.webhookSecret === test.webhookSecret) {
      problems.push(
        'STRIPE_WEBHOOK_SECRET and STRIPE_TEST_WEBHOOK_SECRET must differ (Stripe signs live and test events with different secrets)',
      );
    }
    const page = (name: string, what: string) => {
      if (!optional(name)) {
        if (live || test) problems.push(`${name} is required when Stripe is configured: ${what}`);
        return null;
      }
      return url(name, '', ['http:', 'https:']);
    };
    return {
      live,
      test,
      apiBase: (optional('STRIPE_API_BASE') && url('STRIPE_API_BASE', '', ['http:', 'https:'])) || null,
      successUrl: page('STRIPE_SUCCESS_URL', 'the page Stripe Checkout sends the buyer to after paying'),
      cancelUrl: page(
        'STRIPE_CANCEL_URL',
        'the page Stripe Checkout sends the buyer back to when they give up',
      ),
      returnUrl: page('STRIPE_PORTAL_RETURN_URL', "the page the billing portal's back link opens"),
    };
  };

  const mail = (): MailConfig => {
    const smtpUrl = optional('SMTP_URL') && url('SMTP_URL', '', ['smtp:', 'smtps:']);
    const from = str('MAIL_FROM', 'Facturas <facturas@localhost>');
    // Header injection through the configuration is as bad as through a request: one line, one address.
    if (/[\r\n]/.test(from) || !/^(?:[^<>@]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/.test(from))
      problems.push(
        `MAIL_FROM="${from}" must be an address, optionally with a name: "Facturas <facturas@example.com>"`,
      );
    return {
      smtpUrl: smtpUrl || null,
      from,
      perMinute: int('EMAIL_RATE_LIMIT_PER_MINUTE', 60, 1, 100_000),
      retry: {
        maxAttempts: int('EMAIL_MAX_ATTEMPTS', 6, 1, 50),
        firstSeconds: int('EMAIL_RETRY_FIRST_SECONDS', 60, 1, 86_400),
        maxSeconds: int('EMAIL_RETRY_MAX_SECONDS', 3600, 1, 86_400),
      },
    };
  };

  const tiers = parseTiers(str('PRICE_TIERS', '0:100,1000:85,10000:70'), problems);

  const config: Config = {
    nodeEnv,
    logLevel: oneOf('LOG_LEVEL', nodeEnv === 'test' ? 'warn' : 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ] as const),
    databaseUrl: url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/cfdi', ['postgres:', 'postgresql:']),
    redisUrl: url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    temporal: {
      address: str('TEMPORAL_ADDRESS', '127.0.0.1:7233'),
      namespace: str('TEMPORAL_NAMESPACE', 'default'),
      taskQueue: str('TEMPORAL_TASK_QUEUE', 'stamping-v1'),
    },
    api: {
      host: apiHost,
      port,
      publicBaseUrl,
      docsUrl: url('DOCS_URL', `${publicBaseUrl}/docs`, ['http:', 'https:']),
      portalUrl: url('PORTAL_URL', `http://${reachableHost}:3002`, ['http:', 'https:']),
      bodyLimitBytes: 1024 * 1024,
      drainDelayMs: int('DRAIN_DELAY_MS', nodeEnv === 'production' ? 5000 : 0, 0, 120_000),
    },
    workerHealth: {
      host: str('WORKER_HEALTH_HOST', '127.0.0.1'),
      port: optional('WORKER_HEALTH_PORT') ? int('WORKER_HEALTH_PORT', 0, 0, 65535) : null,
    },
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES, problems),
    stampWaitMs: int('STAMP_WAIT_MS', 20_000, 0, 120_000),
    filesConcurrency: int('FILES_CONCURRENCY', 1, 1, 64),
    filesInlineMaxItems: int('FILES_INLINE_MAX_ITEMS', 50, 0, 100_000),
    reconciliation: {
      firstLookupSeconds: int('RECONCILIATION_FIRST_LOOKUP_SECONDS', 30, 1, 86_400),
      maxLookupSeconds: int('RECONCILIATION_MAX_LOOKUP_SECONDS', 3600, 1, 86_400),
    },
    cancellationPolling: {
      firstPollSeconds: int('CANCELLATION_FIRST_POLL_SECONDS', 300, 1, 86_400),
      maxPollSeconds: int('CANCELLATION_MAX_POLL_SECONDS', 3600, 1, 86_400),
    },
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),
    portal: {
      rateLimitPerIp: int('PORTAL_RATE_LIMIT_PER_IP', 30, 1, 1_000_000),
      rateLimitPerKey: int('PORTAL_RATE_LIMIT_PER_KEY', 20, 1, 1_000_000),
    },
    metricsToken: optional('METRICS_TOKEN'),
    testSeedCentavos: int('TEST_SEED_CENTAVOS', 100_000, 0, 1_000_000_000),
    priceTiers: tiers,
    masterKey,
    liveEnabled,
    signedUrlTtlSeconds: int('SIGNED_URL_TTL_SECONDS', 900, 1, 7 * 24 * 3600),
    exportStreamMaxDocuments: int('EXPORT_STREAM_MAX_DOCUMENTS', 500, 0, 100_000),
    exportPartDocuments: int('EXPORT_PART_DOCUMENTS', 100, 1, 1000),
    exportCsvPartRows: int('EXPORT_CSV_PART_ROWS', 5000, 1, 50_000),
    storage: storage(),
    pac: {
      sandboxUrl: url('PAC_SANDBOX_URL', 'http://127.0.0.1:3100', ['http:', 'https:']),
      url: optional('PAC_URL'),
      username: optional('PAC_USERNAME'),
      password: optional('PAC_PASSWORD'),
    },
    catalogsDir: optional('CATALOGS_DIR'),
    webhooks: {
      retryFirstSeconds: int('WEBHOOK_RETRY_FIRST_SECONDS', 60, 1, 86_400),
      retryMaxSeconds: int('WEBHOOK_RETRY_MAX_SECONDS', 7200, 1, 86_400),
      retryWindowSeconds: int('WEBHOOK_RETRY_WINDOW_SECONDS', 259_200, 1, 30 * 86_400),
      dispatchIntervalMs: int('WEBHOOK_DISPATCH_INTERVAL_MS', 1000, 50, 60_000),
      eventRetentionDays: int('EVENT_RETENTION_DAYS', 30, 30, 3650),
      deliveryConcurrency: int('WEBHOOK_DELIVERY_CONCURRENCY', 50, 1, 1000),
    },
    billing: billing(),
    mail: mail(),
  };
  if (problems.length) throw new ConfigError(problems);
  return Object.freeze(config);
}

function parseTiers(raw: string, problems: string[]): Config['priceTiers'] {
  const tiers = raw.split(',').map((part) => {
    const [from, centavos] = part.split(':').map(Number);
    return { from: from ?? NaN, centavos: centavos ?? NaN };
  });
  const valid =
    tiers.length > 0 &&
    tiers[0]!.from === 0 &&
    tiers.every(
      (t, i) =>
        Number.isInteger(t.from) &&
        Number.isInteger(t.centavos) &&
        t.centavos > 0 &&
        (i === 0 || t.from > tiers[i - 1]!.from),
    );
  if (!valid) {
    problems.push(
      `PRICE_TIERS="${raw}" must look like "0:100,1000:85" (ascending thresholds starting at 0, positive prices)`,
    );
    return [{ from: 0, centavos: 100 }];
  }
  return tiers;
}
