import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config.ts';

/** Whether the address `hop` steps from us (0: the socket's peer) is a proxy we believe. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as one function, given to Fastify (client address and protocol) and used for the
 * request id, so both believe the same proxies. A hop count believes the nearest `hops` proxies
 * (Fastify's own reading of a number now believes none); a list is compiled as Fastify would.
 */
export function proxyTrust(setting: TrustProxy): ProxyTrust | false {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}
