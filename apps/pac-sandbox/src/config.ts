import { defaultSatDir, withSecretFiles } from '@cfdi/config';
import { activeTracing, traceLogFields } from '@cfdi/telemetry';
import path from 'node:path';
import type { SandboxOptions } from './app';

export interface SandboxServerConfig {
  port: number;
  host: string;
  app: SandboxOptions;
}

type Env = Record<string, string | undefined>;

/** The sandbox's own environment (it is a separate service, not configured by the platform's config). */
export function loadSandboxConfig(rawEnv: Env = process.env): SandboxServerConfig {
  const problems: string[] = [];
  // Its database URL and credentials may come from files too (`<NAME>_FILE`), like the platform's.
  const env = withSecretFiles(rawEnv, problems);
  const int = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) problems.push(`${name}="${raw}" must be a non-negative integer`);
    return n;
  };
  const bool = (name: string, fallback: boolean) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (raw !== 'true' && raw !== 'false') problems.push(`${name}="${raw}" must be true or false`);
    return raw === 'true';
  };
  const autoAnswer = env.PAC_SANDBOX_AUTO_ANSWER?.trim();
  if (autoAnswer && autoAnswer !== 'accept' && autoAnswer !== 'reject')
    problems.push('PAC_SANDBOX_AUTO_ANSWER must be accept or reject');
  const username = env.PAC_SANDBOX_USERNAME?.trim();
  const password = env.PAC_SANDBOX_PASSWORD?.trim();
  if (Boolean(username) !== Boolean(password))
    problems.push('set both PAC_SANDBOX_USERNAME and PAC_SANDBOX_PASSWORD, or neither');
  const config: SandboxServerConfig = {
    port: int('PAC_SANDBOX_PORT', 3100),
    // Loopback by default, like the API: its fault-injection endpoints are nobody else's business.
    host: env.PAC_SANDBOX_HOST?.trim() || '127.0.0.1',
    app: {
      databaseUrl: env.PAC_SANDBOX_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/pac_sandbox',
      requireRegistration: bool('PAC_SANDBOX_REQUIRE_REGISTRATION', true),
      nextBusinessDayRule: bool('PAC_SANDBOX_NEXT_BUSINESS_DAY_RULE', true),
      acceptanceWindowMs: int('PAC_SANDBOX_ACCEPTANCE_WINDOW_MS', 72 * 3_600_000),
      ...(autoAnswer
        ? {
            autoAnswer: {
              answer: autoAnswer as 'accept' | 'reject',
              afterMs: int('PAC_SANDBOX_AUTO_ANSWER_AFTER_MS', 60_000),
            },
          }
        : {}),
      ...(username && password ? { credentials: { username, password } } : {}),
      ...(bool('PAC_SANDBOX_XSD', false)
        ? { xsdPath: path.join(defaultSatDir(), 'xml/cfdi40-bundle.xsd') }
        : {}),
      logger: {
        level: env.LOG_LEVEL?.trim() || 'info',
        ...(activeTracing() ? { mixin: traceLogFields } : {}),
      },
    },
  };
  if (problems.length)
    throw new Error(`Invalid pac-sandbox configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return config;
}
