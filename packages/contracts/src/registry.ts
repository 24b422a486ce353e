import type { Contract } from './contract.ts';
import { signedFileContract } from './files.ts';
import { healthContract, readyContract } from './health.ts';

/**
 * Every product endpoint's contract. A test checks that each has exactly one server route and that
 * the server has no /api route without a contract.
 */
export const contracts = {
  health: healthContract,
  ready: readyContract,
  signedFile: signedFileContract,
} satisfies Record<string, Contract>;
