/**
 * @module adminCommand: the shape of an operator command. A leaf, so the features that bring
 * commands (`oauth/commands.ts`, `oauth/provisional/commands.ts`) and the `cli/` that lists them
 * do not import each other.
 */
import type { App } from './app.js';

/** One `guildhall <group> <action>` command that works on the database directly. */
export interface AdminCommand {
  name: string;
  usage: string;
  summary: string;
  run(app: App, flags: Map<string, string>, io: { readStdin(): Promise<string> }): Promise<unknown>;
}
