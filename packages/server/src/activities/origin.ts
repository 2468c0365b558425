/**
 * @module activities/origin: the origin an application's activity is served from when nothing
 * else says: `<scheme>://<application_id>.activities.localhost[:port]`, the scheme and port of the
 * server's base URL (`*.localhost` resolves to loopback without DNS). The proxy host's
 * configurable pattern (activities/proxyHost.ts) takes its place once wired.
 */
export function defaultActivityOrigin(baseUrl: string, applicationId: string): string {
  const base = new URL(baseUrl);
  const port = base.port === '' ? '' : `:${base.port}`;
  return `${base.protocol}//${applicationId}.activities.localhost${port}`;
}
