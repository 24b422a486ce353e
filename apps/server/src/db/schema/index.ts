export * from './users.ts';
export * from './credit-ledger.ts';
