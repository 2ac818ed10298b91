export { nextPlatform, type Platform } from './platform';
