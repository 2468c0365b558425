import type { FastifyInstance } from 'fastify';
import { GuildParams, Snowflake } from '../../http/schemas.js';
import type { Principal } from '../../http/authenticator.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import type { OverwriteService } from './overwrites.js';
import type { ChannelPositionService } from './positions.js';
import {
  ChannelParams,
  ChannelPositionsBody,
  CreateChannelBody,
  ModifyChannelBody,
  OverwriteParams,
  PutOverwriteBody,
  VoiceStatusBody,
} from './schemas.js';
import type { ChannelService } from './service.js';
import type { VoiceStatusService } from './voiceStatus.js';

/** DMs and group DMs (resources/dms): each answers for a private channel id, else null. */
export interface PrivateChannelRoutes {
  get(principal: Principal, channelId: string): Promise<object | null>;
  close(principal: Principal, channelId: string): Promise<object | null>;
  /** PATCH of a private channel: `body` unparsed (the private rules parse it). */
  modify(principal: Principal, channelId: string, body: unknown): Promise<object | null>;
}

/** Threads (resources/threads): each answers for a thread id, else null. */
export interface ThreadChannelRoutes {
  get(principal: Principal, channelId: string): Promise<object | null>;
  modify(
    principal: Principal,
    channelId: string,
    request: { body: unknown; reason: string | null },
  ): Promise<object | null>;
  delete(principal: Principal, channelId: string, reason: string | null): Promise<object | null>;
}

export interface ChannelRouteServices {
  /** Absent: /channels/{id} serves guild channels only. */
  privateChannels?: PrivateChannelRoutes;
  /** Absent: threads are not served by /channels/{id}. */
  threadChannels?: ThreadChannelRoutes;
  channels: ChannelService;
  positions: ChannelPositionService;
  overwrites: OverwriteService;
  voiceStatus: VoiceStatusService;
}

/** Guild channels, their overwrites and the voice channel status. */
export function registerChannelRoutes(app: FastifyInstance, services: ChannelRouteServices): void {
  const { channels, positions, overwrites, voiceStatus, privateChannels, threadChannels } =
    services;

  app.get('/guilds/:guild_id/channels', AUTH, (request) =>
    channels.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.post('/guilds/:guild_id/channels', AUTH, async (request, reply) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    const input = parseInput(CreateChannelBody, request.body ?? {});
    const created = await channels.create(principalOf(request), guild_id, {
      ...input,
      reason: reasonOf(request),
    });
    return reply.status(201).send(created);
  });

  app.patch('/guilds/:guild_id/channels', AUTH, async (request, reply) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    const moves = parseInput(ChannelPositionsBody, request.body ?? []);
    await positions.modify(principalOf(request), guild_id, { moves, reason: reasonOf(request) });
    return reply.status(204).send();
  });

  app.get('/channels/:channel_id', AUTH, async (request) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const principal = principalOf(request);
    return (
      (await privateChannels?.get(principal, channel_id)) ??
      (await threadChannels?.get(principal, channel_id)) ??
      channels.get(principal, channel_id)
    );
  });

  app.patch('/channels/:channel_id', AUTH, async (request) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const principal = principalOf(request);
    const privateAnswer = await privateChannels?.modify(principal, channel_id, request.body ?? {});
    return (
      privateAnswer ??
      (await threadChannels?.modify(principal, channel_id, {
        body: request.body ?? {},
        reason: reasonOf(request),
      })) ??
      channels.modify(principal, channel_id, {
        ...parseInput(ModifyChannelBody, request.body ?? {}),
        reason: reasonOf(request),
      })
    );
  });

  app.delete('/channels/:channel_id', AUTH, async (request) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const principal = principalOf(request);
    return (
      (await privateChannels?.close(principal, channel_id)) ??
      (await threadChannels?.delete(principal, channel_id, reasonOf(request))) ??
      channels.delete(principal, channel_id, reasonOf(request))
    );
  });

  app.put('/channels/:channel_id/permissions/:overwrite_id', AUTH, async (request, reply) => {
    const params = parseInput(OverwriteParams, request.params);
    const input = parseInput(PutOverwriteBody, request.body ?? {});
    await overwrites.put(
      principalOf(request),
      { channelId: params.channel_id, overwriteId: parseInput(Snowflake, params.overwrite_id) },
      { ...input, reason: reasonOf(request) },
    );
    return reply.status(204).send();
  });

  app.delete('/channels/:channel_id/permissions/:overwrite_id', AUTH, async (request, reply) => {
    const params = parseInput(OverwriteParams, request.params);
    await overwrites.delete(
      principalOf(request),
      { channelId: params.channel_id, overwriteId: params.overwrite_id },
      reasonOf(request),
    );
    return reply.status(204).send();
  });

  app.put('/channels/:channel_id/voice-status', AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const { status } = parseInput(VoiceStatusBody, request.body ?? {});
    await voiceStatus.set(principalOf(request), channel_id, { status, reason: reasonOf(request) });
    return reply.status(204).send();
  });
}
