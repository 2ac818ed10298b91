export * from './customers';
export * from './products';
export * from './expand-references';
export { FieldConflictError } from './record-store';
