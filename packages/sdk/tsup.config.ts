import { defineConfig } from 'tsup';

// ESM (.mjs) and CommonJS (.js) from one source, each with its own declarations (.d.mts, .d.ts).
// @cfdi/webhook-verify is inlined, code and types, so the published package has no dependency at all.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  target: 'node22',
  platform: 'node',
  dts: { resolve: ['@cfdi/webhook-verify'] },
  noExternal: ['@cfdi/webhook-verify'],
  sourcemap: true,
  clean: true,
});
