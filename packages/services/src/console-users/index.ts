export * from './console-users';
export { generatePassword, MIN_PASSWORD_LENGTH } from './passwords';
export * from './roles';
