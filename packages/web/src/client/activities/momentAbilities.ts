/**
 * What the client does for the frame's image and moment commands (frameCommands.ts's
 * INITIATE_IMAGE_UPLOAD and OPEN_SHARE_MOMENT_DIALOG): the person picks an image, the client
 * uploads it as an attachment of the application (`POST /applications/{id}/attachment`, which
 * takes the session of a person in a live instance of the app) and gives the activity its URL;
 * a moment (a media URL) is shared in a channel or DM the person picks, as a message with the
 * link.
 *
 * @module
 */
import type { APIMessage } from 'discord-api-types/v10';
import { ChannelType, PermissionFlagsBits } from 'discord-api-types/v10';
import { api } from '../../lib/api.js';
import type { Store } from '../../lib/store.js';
import { can } from '../permissions.js';
import { privateChannelName, privateChannelsByActivity } from '../social/privateChannels.js';
import type { ClientState } from '../state.js';

/** A conversation a moment may be shared in. */
export interface ShareTarget {
  channelId: string;
  /** `@name` for a DM, `#channel (Server)` for a guild channel. */
  label: string;
}

/** The dialogs these commands open; each does its request itself (a form with its errors). */
export interface MomentQuestions {
  /** The image dialog: the uploaded image's URL, or null when the person closes it. */
  imageUpload(upload: (file: File) => Promise<string>): Promise<string | null>;
  /** The share dialog: resolves when it closes, shared (true) or not. */
  shareMoment(
    mediaUrl: string,
    targets: ShareTarget[],
    send: (channelId: string) => Promise<void>,
  ): Promise<boolean>;
}

export interface MomentDeps {
  store: Store<ClientState>;
  applicationId: string;
  ask: MomentQuestions;
}

/** The image types an activity may be given (the platform takes images only). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The person's DMs (latest first), then the guild text channels they may send in. */
export function shareTargets(state: ClientState): ShareTarget[] {
  const targets: ShareTarget[] = [];
  for (const channel of privateChannelsByActivity(state.channels, state.privateChannelIds)) {
    const name = privateChannelName(channel, state);
    const label = channel.type === ChannelType.DM ? `@${name}` : name;
    targets.push({ channelId: channel.id, label });
  }
  const userId = state.me?.id ?? null;
  for (const guild of Object.values(state.guilds)) {
    const member = userId === null ? undefined : state.members[guild.id]?.[userId];
    for (const id of state.guildChannelIds[guild.id] ?? []) {
      const channel = state.channels[id];
      if (channel?.type !== ChannelType.GuildText) continue;
      const input = { guild, member, userId, channel };
      if (!can(PermissionFlagsBits.ViewChannel, input)) continue;
      if (!can(PermissionFlagsBits.SendMessages, input)) continue;
      targets.push({ channelId: id, label: `#${channel.name} (${guild.name})` });
    }
  }
  return targets;
}

/** Uploads one image for the application; its (signed, expiring) URL. */
async function uploadImage(applicationId: string, file: File): Promise<string> {
  if (!IMAGE_TYPES.includes(file.type)) {
    throw new Error('Pick a PNG, JPEG, GIF or WebP image.');
  }
  const answer = await api<{ attachment: { url: string } }>(
    'POST',
    `/applications/${applicationId}/attachment`,
    { files: [file], fileField: 'file' },
  );
  return answer.attachment.url;
}

export function createMomentAbilities(deps: MomentDeps) {
  return {
    uploadImage: () => deps.ask.imageUpload((file) => uploadImage(deps.applicationId, file)),
    shareMoment: async (mediaUrl: string) => {
      await deps.ask.shareMoment(mediaUrl, shareTargets(deps.store.get()), async (channelId) => {
        await api<APIMessage>('POST', `/channels/${channelId}/messages`, {
          body: { content: mediaUrl },
        });
      });
    },
  };
}
