import 'server-only';
import { nextPlatform } from '@cfdi/next-app';

/** The portal's connections (packages/next-app/src/platform.ts), once per server process. */
export const { platform, em } = nextPlatform('cfdiPortalPlatform');
