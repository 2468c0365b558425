/**
 * The commands a person may use in a channel: GET /channels/{id}/application-command-index
 * (docs/commands.md#the-command-index), read when a picker or a context menu opens. The last
 * answer per channel is kept so a picker opens filled while it is read again.
 */
import { useEffect, useState } from 'react';
import type { APIApplicationCommand } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';

export interface IndexedApplication {
  id: string;
  name: string;
  icon: string | null;
  description: string;
  bot_id: string | null;
}

export interface CommandIndex {
  applications: IndexedApplication[];
  application_commands: APIApplicationCommand[];
  version: string;
}

const lastIndex = new Map<string, CommandIndex>();

export function fetchCommandIndex(channelId: string): Promise<CommandIndex> {
  return api<CommandIndex>('GET', `/channels/${channelId}/application-command-index`).then(
    (index) => {
      lastIndex.set(channelId, index);
      return index;
    },
  );
}

/** The index of a channel (null while the first read is under way) and the read's error. */
export function useCommandIndex(channelId: string): {
  index: CommandIndex | null;
  error: string | null;
} {
  const [index, setIndex] = useState<CommandIndex | null>(() => lastIndex.get(channelId) ?? null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setIndex(lastIndex.get(channelId) ?? null);
    fetchCommandIndex(channelId).then(
      (fresh) => {
        if (live) {
          setIndex(fresh);
          setError(null);
        }
      },
      (failure: unknown) => {
        if (live) setError(errorMessage(failure));
      },
    );
    return () => {
      live = false;
    };
  }, [channelId]);
  return { index, error };
}

/** The application of a command in the index. */
export function appOf(index: CommandIndex, command: APIApplicationCommand) {
  return index.applications.find((app) => app.id === command.application_id);
}

/**
 * The application a message belongs to, for its components' interactions: its
 * `application_id` (interaction responses, app webhooks), else its bot author's app from the
 * channel's index (`bot_id`). Null when none is known.
 */
export async function applicationOfMessage(
  message: { application_id?: string; author: { id: string; bot?: boolean } },
  channelId: string,
): Promise<string | null> {
  if (message.application_id !== undefined) return message.application_id;
  if (message.author.bot !== true) return null;
  const find = (index: CommandIndex | undefined) =>
    index?.applications.find((app) => app.bot_id === message.author.id)?.id;
  return find(lastIndex.get(channelId)) ?? find(await fetchCommandIndex(channelId)) ?? null;
}
