/** @module bus/nats/servers: the NATS URLs a bus is given, read into what nats.js takes. */
import type { ConnectionOptions } from 'nats';
import { assertPublishSubject } from '../subjects.js';

export interface ParsedServers {
  servers: string[];
  /** The URLs with any password hidden, for error messages. */
  display: string;
  /** Credentials from the URLs, and `tls: {}` when one asks for `tls://`. */
  extra: Pick<ConnectionOptions, 'user' | 'pass' | 'token' | 'tls'>;
}

/** The servers of `NatsBusOptions.servers`, their credentials apart, and how to show them. */
export function parseServers(servers: string | string[]): ParsedServers {
  const list = typeof servers === 'string' ? [servers] : servers;
  const extra: ParsedServers['extra'] = {};
  const shown: string[] = [];
  const plain = list.map((server) => {
    if (!/^[a-z]+:\/\//i.test(server)) {
      shown.push(server);
      return server;
    }
    const url = new URL(server);
    // nats.js ignores the scheme; tls:// is how the config asks for TLS.
    if (url.protocol === 'tls:') extra.tls = {};
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    // A URL with only a user part carries a token, as NATS' other clients read it.
    if (user !== '' && extra.user === undefined && extra.token === undefined) {
      Object.assign(extra, pass === '' ? { token: user } : { user, pass });
    }
    url.username = '';
    url.password = '';
    shown.push(user === '' ? url.href : url.href.replace('://', '://***@'));
    return url.href;
  });
  return { servers: plain, display: shown.join(', '), extra };
}

/** Throws `TypeError` unless `prefix` is empty or subject tokens ending with a dot. */
export function checkPrefix(prefix: string): void {
  if (prefix === '') return;
  if (!prefix.endsWith('.')) throw new TypeError(`subjectPrefix must end with ".": ${prefix}`);
  assertPublishSubject(prefix.slice(0, -1));
}
