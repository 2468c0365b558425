/** @module bus: the EventBus contract. Drivers live in memory/ and nats/ (appDrivers.ts picks). */
export type * from './types.js';
export { BusClosedError, BusOverflowError } from './errors.js';
export { subjectMatches } from './subjects.js';
