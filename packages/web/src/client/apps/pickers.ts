/**
 * What the user, role, channel and mentionable pickers offer (command options and select
 * menus): the people, roles and channels this client knows from its gateway state.
 */
import { useMemo } from 'react';
import type { APIChannel, APIUser } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { guildIdOf } from './interactions.js';

export type PickKind = 'user' | 'role' | 'channel' | 'mentionable';

export interface PickChoice {
  id: string;
  label: string;
  /** The default_values type: "user", "role" or "channel". */
  type: 'user' | 'role' | 'channel';
}

const userLabel = (user: APIUser) => user.global_name ?? user.username;

/** The choices of a picker in a channel, sorted by label; `channelTypes` limits channels. */
export function usePickChoices(
  channel: APIChannel,
  kind: PickKind,
  channelTypes?: readonly number[],
): PickChoice[] {
  const guildId = guildIdOf(channel);
  const members = useClientState((s) => (guildId === undefined ? undefined : s.members[guildId]));
  const guild = useClientState((s) => (guildId === undefined ? undefined : s.guilds[guildId]));
  const channelIds = useClientState((s) =>
    guildId === undefined ? undefined : s.guildChannelIds[guildId],
  );
  const channels = useClientState((s) => s.channels);
  const me = useClientState((s) => s.me);
  return useMemo(() => {
    const users: PickChoice[] = [];
    if (guildId === undefined) {
      const recipients = (channel as { recipients?: APIUser[] }).recipients ?? [];
      for (const user of me === null ? recipients : [me, ...recipients]) {
        if (!users.some((u) => u.id === user.id))
          users.push({ id: user.id, label: userLabel(user), type: 'user' });
      }
    } else {
      for (const member of Object.values(members ?? {})) {
        users.push({
          id: member.user.id,
          label: member.nick ?? userLabel(member.user),
          type: 'user',
        });
      }
    }
    const roles: PickChoice[] = (guild?.roles ?? []).map((role) => ({
      id: role.id,
      label: role.id === guildId ? '@everyone' : role.name,
      type: 'role',
    }));
    const channelChoices: PickChoice[] = [];
    for (const id of guildId === undefined ? [channel.id] : (channelIds ?? [])) {
      const found = guildId === undefined ? channel : channels[id];
      if (found === undefined) continue;
      if (
        channelTypes !== undefined &&
        channelTypes.length > 0 &&
        !channelTypes.includes(found.type)
      )
        continue;
      channelChoices.push({ id, label: found.name ?? id, type: 'channel' });
    }
    const byLabel = (a: PickChoice, b: PickChoice) => a.label.localeCompare(b.label);
    switch (kind) {
      case 'user':
        return users.sort(byLabel);
      case 'role':
        return roles.sort(byLabel);
      case 'channel':
        return channelChoices.sort(byLabel);
      case 'mentionable':
        return [...users.sort(byLabel), ...roles.sort(byLabel)];
    }
  }, [guildId, channel, kind, channelTypes, members, guild, channelIds, channels, me]);
}
