/** Where the tests find PostgreSQL, NATS and Redis; probed once per run by `globalSetup.ts`. */
export const TEST_DATABASE_URL =
  process.env['GUILDHALL_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_NATS_URL = process.env['GUILDHALL_TEST_NATS_URL'] ?? 'nats://127.0.0.1:4222';
export const TEST_REDIS_URL = process.env['GUILDHALL_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** The Chromium the browser tests drive (packages/web/test/browser): Debian's, by default. */
export const TEST_CHROMIUM_PATH = process.env['GUILDHALL_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

/**
 * The servers tests start for themselves (test/support/privateServers.ts), to stop and start
 * again: Debian's nats-server, redis-server and PostgreSQL 15, and runuser (PostgreSQL refuses to
 * run as root).
 */
export const PRIVATE_SERVER_BINARIES = {
  nats: process.env['GUILDHALL_TEST_NATS_SERVER'] ?? '/usr/sbin/nats-server',
  redis: process.env['GUILDHALL_TEST_REDIS_SERVER'] ?? '/usr/bin/redis-server',
  initdb: process.env['GUILDHALL_TEST_INITDB'] ?? '/usr/lib/postgresql/15/bin/initdb',
  pgCtl: process.env['GUILDHALL_TEST_PG_CTL'] ?? '/usr/lib/postgresql/15/bin/pg_ctl',
  runuser: '/usr/sbin/runuser',
} as const;
