import { postgresAvailable } from './postgres.js';

/** The storage drivers HTTP tests run against: SQLite always, PostgreSQL when reachable. */
export const DRIVERS = [
  { driver: 'sqlite' as const, skip: false },
  { driver: 'postgres' as const, skip: !postgresAvailable },
];
