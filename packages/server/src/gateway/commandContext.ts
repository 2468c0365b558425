/**
 * @module gateway/commandContext: what every command (gateway/commands.ts, gateway/voiceCommand.ts)
 * sees of the session that sent it and of the node, and the error of a command the payload's shape
 * allowed but the platform refuses (close 4001).
 */
import type { Clock } from '../domain/clock.js';
import type { TokenGrant } from '../domain/tokenAccess.js';
import type { Dispatcher } from '../events/dispatcher.js';
import type { Storage } from '../storage/index.js';
import type { GuildState } from './guildState.js';

/** Thrown for a command whose payload is invalid for its opcode (close 4001). */
export class InvalidCommandError extends Error {
  override readonly name = 'InvalidCommandError';
}

/** What a command sees of the session that sent it. */
export interface CommandSession {
  id: string;
  userId: string;
  intents: number;
  guildIds: ReadonlySet<string>;
  /** An SDK session: its activities are its token's application's; it joins no guild. */
  sdk?: boolean;
  applicationId?: string | null;
  /** The kind and scopes of the session's token (domain/tokenAccess.ts). */
  grant?: TokenGrant;
  /** A bot's session (a person's otherwise, unless `sdk`). */
  isApp?: boolean;
}

export interface CommandContext {
  storage: Storage;
  /** The platform's clock (member timeouts, dated rules, op 8's window). */
  clock: Clock;
  /** The real clock: voice tokens, which voice nodes check on theirs. */
  wireClock: Clock;
  events: Dispatcher;
  guild: (guildId: string) => GuildState | undefined;
  /** The user's friends, whose sessions receive the user's presence. */
  friendIds: (userId: string) => Promise<readonly string[]>;
  /** Sends a dispatch to this session only. */
  reply: (type: string, data: unknown) => void;
}
