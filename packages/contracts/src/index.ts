export * from './contract.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './files.ts';
export * from './constants.ts';
export * from './registry.ts';
