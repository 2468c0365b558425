/**
 * @module adminCommand: the shape of an operator command. A leaf, so the features that bring
 * commands (`oauth/commands.ts`, `oauth/provisional/commands.ts`, `resources/monetization`,
 * `resources/socialLimits`) and the `cli/` that lists them do not import each other, nor the
 * composition root (`app.ts`, which imports everything).
 */
import type { BlobStore } from './blobs/index.js';
import type { Storage } from './storage/index.js';

/**
 * What a command works with: the running app's storage, stored files, base URL and services
 * (`TServices`, only those the command names), and closing it. `App` (app.ts) is one.
 */
export interface AdminContext<TServices = unknown> {
  readonly storage: Storage;
  readonly blobs: BlobStore;
  readonly services: TServices;
  baseUrl(): string;
  close(): Promise<void>;
}

/**
 * One `guildhall <group> <action>` command that works on the database directly, with the
 * services `TServices` of the app.
 */
export interface AdminCommand<TServices = unknown> {
  name: string;
  usage: string;
  summary: string;
  run(
    app: AdminContext<TServices>,
    flags: Map<string, string>,
    io: { readStdin(): Promise<string> },
  ): Promise<unknown>;
}
