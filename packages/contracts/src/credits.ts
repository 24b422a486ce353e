import { z } from 'zod';
import { defineContract } from './contract.ts';

export const creditBalanceContract = defineContract({
  method: 'GET',
  path: '/api/credits/balance',
  summary: "The signed-in user's credit balance (the web polls it every 30 s and after every spend)",
  tags: ['credits'],
  response: z.object({ balance: z.int() }).meta({ id: 'CreditBalance' }),
});
