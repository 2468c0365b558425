/**
 * @module @guildhall/server: the public entry point, for running the platform in-process (a test
 * harness, a script): createApp, the settings, worlds and reset.
 */
export { createApp, type App, type AppOptions } from './app.js';
export { memoryStorageTemplate, openMemoryStorage } from './appDrivers.js';
export { ConfigError, loadConfig, type Config, type LogLevel } from './config.js';
export { DEFAULT_WORLD_SEED, loadWorld, type LoadWorldOptions } from './control/world.js';
export { WorldError, parseWorld, readWorldFile, type WorldIssue } from './control/worldFile.js';
export type { ParsedWorld, WorldFile } from './control/worldSchema.js';
export type {
  LoadedApplication,
  LoadedGuild,
  LoadedLobby,
  LoadedPerson,
  LoadedWorld,
  WorldState,
} from './control/worldTypes.js';
export { SnapshotUnsupportedError, type AppSnapshot } from './control/reset.js';
export type { Clock, Timers } from './domain/clock.js';
export type { Storage } from './storage/index.js';
