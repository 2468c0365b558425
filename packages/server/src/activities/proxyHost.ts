/**
 * @module activities/proxyHost: the activity origins. Every application with an activity is
 * served on an origin of its own, `<scheme>://<application_id>.<suffix>[:port]`, from the
 * `--activity-host` pattern (`{application_id}.activities.localhost` by default, which browsers
 * resolve to loopback without DNS). The scheme and port are the public URL's (or `http:` and the
 * listening port when there is none), so one listener serves the API and every activity; the
 * proxy host tells them apart by the Host header (proxyServer.ts). Docs: docs/activities.md#the-proxy-host.
 */
import { publicBaseUrl, servesTls, type Config } from '../config.js';
import { APPLICATION_ID_PLACEHOLDER } from '../domain/activityHost.js';

export { DEFAULT_ACTIVITY_HOST, activityHostProblem } from '../domain/activityHost.js';

/** An application id as the first label: a snowflake. */
const APPLICATION_ID = /^[1-9]\d{0,19}$/;

/** The host names every activity origin ends with (`activities.localhost`). */
export function activitySuffix(config: Pick<Config, 'activityHost'>): string {
  return config.activityHost.slice(APPLICATION_ID_PLACEHOLDER.length + 1).toLowerCase();
}

/** The scheme and `:port` part of every activity origin (the public URL's, else the listener's). */
function schemeAndPort(config: Pick<Config, 'publicUrl' | 'tls' | 'tlsCert'>, port: number) {
  if (config.publicUrl === null) {
    return { scheme: servesTls(config) ? 'https:' : 'http:', port: `:${String(port)}` };
  }
  const url = new URL(config.publicUrl);
  return { scheme: url.protocol, port: url.port === '' ? '' : `:${url.port}` };
}

/**
 * The origin an application's activity is served on, such as
 * `http://1234567890123456789.activities.localhost:8080`: the pattern's host with the public
 * URL's scheme and port (`http:` and `port` when the config has no public URL).
 */
export function activityOrigin(
  config: Pick<Config, 'activityHost' | 'publicUrl' | 'tls' | 'tlsCert'>,
  port: number,
  applicationId: string,
): string {
  const { scheme, port: portPart } = schemeAndPort(config, port);
  return `${scheme}//${applicationId}.${activitySuffix(config)}${portPart}`;
}

/**
 * Every activity origin as one CSP source (`http://*.activities.localhost:8080`), for the web
 * client's `frame-src`.
 */
export function activityFrameSource(
  config: Pick<Config, 'activityHost' | 'publicUrl' | 'tls' | 'tlsCert'>,
  port: number,
): string {
  const { scheme, port: portPart } = schemeAndPort(config, port);
  return `${scheme}//*.${activitySuffix(config)}${portPart}`;
}

/** What a Host header names on the proxy host. */
export type ActivityHostMatch =
  /** Not an activity host: the request is the API's. */
  | { kind: 'api' }
  /** Under the activity suffix but no application's origin (`www.activities...`, the suffix). */
  | { kind: 'unknown' }
  | { kind: 'activity'; applicationId: string };

/** The host name of a Host header: lower case, without port or trailing dot; null if malformed. */
function hostName(header: string): string | null {
  const match = /^([a-z0-9.-]+?)\.?(?::\d{1,5})?$/i.exec(header);
  return match?.[1]?.toLowerCase() ?? null;
}

/** Which activity (if any) a request's Host header names. */
export function matchActivityHost(suffix: string, header: string | undefined): ActivityHostMatch {
  const host = header === undefined ? null : hostName(header);
  if (host === null) return { kind: 'api' };
  if (host === suffix) return { kind: 'unknown' };
  if (!host.endsWith(`.${suffix}`)) return { kind: 'api' };
  const label = host.slice(0, -suffix.length - 1);
  return APPLICATION_ID.test(label)
    ? { kind: 'activity', applicationId: label }
    : { kind: 'unknown' };
}

/**
 * The web client's origins: the pages that may frame an activity (`frame-ancestors`). Without
 * a public URL on a loopback or wildcard listener, a browser may name the server as localhost
 * or 127.0.0.1; both are listed. CSP has no syntax for IPv6 literals, so a client opened at an
 * `[::1]` address cannot frame activities (browsers ignore such a source).
 */
export function clientOrigins(
  config: Pick<Config, 'publicUrl' | 'host' | 'tls' | 'tlsCert'>,
  port: number,
): string[] {
  const base = new URL(publicBaseUrl(config, port)).origin;
  if (config.publicUrl !== null) return [base];
  const loopbackListener = ['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::'].includes(config.host);
  const local = loopbackListener
    ? ['localhost', '127.0.0.1'].map((host) => `http://${host}:${String(port)}`)
    : [];
  return [...new Set([base, ...local])].filter((origin) => !origin.includes('//['));
}
