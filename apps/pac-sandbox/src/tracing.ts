// Imported first by server.ts: the SDK must patch http and pg before anything loads them.
import { startTracing } from '@cfdi/telemetry';

startTracing('cfdi-pac-sandbox');
