/** @module domain/loopback: whether a listen address or a peer is this machine's loopback. */

/** Whether a listen address accepts loopback connections only. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether a peer's address (a socket's remote address) is loopback, IPv4-mapped included. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.replace(/^::ffff:/i, '');
  return bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
