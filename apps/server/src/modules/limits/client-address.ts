import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * The address a per-address limit counts a caller by. An IPv6 client usually holds a whole /64, so any
 * address in it is the same caller (as @fastify/rate-limit counts by default); an IPv4-mapped IPv6
 * address is its IPv4 address.
 */
export const clientAddress = (request: FastifyRequest): string => normalizeIP(request.ip, 64);
