export * from './contract.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './constants.ts';
export * from './registry.ts';
