import { describe } from 'vitest';
import { postgresAvailable } from './postgres.js';

/** The storage drivers HTTP tests run against: SQLite always, PostgreSQL when reachable. */
export const DRIVERS = [
  { driver: 'sqlite' as const, skip: false },
  { driver: 'postgres' as const, skip: !postgresAvailable },
];

/** A storage driver of {@link DRIVERS}. */
export type Driver = (typeof DRIVERS)[number]['driver'];

/**
 * The one way a test runs on every storage driver: declares `body` once per driver, titled
 * `title` with `$driver` replaced by the driver's name. A driver whose server is unreachable is
 * skipped whole, hooks included (locally; under CI=true globalSetup.ts has failed the run first).
 */
export function describeDrivers(title: string, body: (driver: Driver) => void): void {
  for (const { driver, skip } of DRIVERS) {
    describe.skipIf(skip)(title.replaceAll('$driver', driver), () => {
      body(driver);
    });
  }
}
