// Imported first by main.ts: the SDK must patch http, pg and ioredis before anything loads them.
import { startTracing } from '@cfdi/telemetry';

startTracing('cfdi-worker');
