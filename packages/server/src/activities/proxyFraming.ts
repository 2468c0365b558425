/**
 * @module activities/proxyFraming: what every answer on an activity origin carries (the frame
 * policy and its security headers, proxyHeaders.ts), made once per application and listening
 * port rather than once per request: it depends on nothing else, so it is never stale.
 */
import { publicBaseUrl, type Config } from '../config.js';
import {
  frameSecurityHeaders,
  pageSecurityHeaders,
  type FramePolicyContext,
} from './proxyHeaders.js';
import { activityOrigin, clientOrigins } from './proxyHost.js';

/** An activity origin's frame policy and the headers made from it. */
export interface Framing {
  policy: FramePolicyContext;
  /** On the target's answers and the frame relay. */
  frameHeaders: Readonly<Record<string, string>>;
  /** On the proxy host's own pages. */
  pageHeaders: Readonly<Record<string, string>>;
}

/** The most applications whose framing is kept; past it the memo starts afresh. */
const MAX_FRAMINGS = 10_000;
/** The key of requests that name no application (a host under the suffix that is none). */
const NO_APPLICATION = 'unknown';

/**
 * The framing of an application's origin (`null`: no application), on the port `port()` names
 * at the time (the configured one until the server listens).
 */
export function framingOf(
  config: Pick<Config, 'activityHost' | 'publicUrl' | 'host' | 'tls' | 'tlsCert'>,
  port: () => number,
): (applicationId: string | null) => Framing {
  const memo = new Map<string, Framing>();
  let memoPort = port();
  return (applicationId) => {
    const now = port();
    if (now !== memoPort || memo.size >= MAX_FRAMINGS) {
      memo.clear();
      memoPort = now;
    }
    const key = applicationId ?? NO_APPLICATION;
    const held = memo.get(key);
    if (held !== undefined) return held;
    const policy: FramePolicyContext = {
      activityOrigin: activityOrigin(config, now, key),
      clientOrigins: clientOrigins(config, now),
      platformOrigin: new URL(publicBaseUrl(config, now)).origin,
    };
    const framing: Framing = {
      policy,
      frameHeaders: Object.freeze(frameSecurityHeaders(policy)),
      pageHeaders: Object.freeze(pageSecurityHeaders(policy)),
    };
    memo.set(key, framing);
    return framing;
  };
}
