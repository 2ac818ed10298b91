export * from './published-rates';
