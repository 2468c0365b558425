import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH, accessLoader, reasonOf } from '../access/index.js';
import type { Clock } from '../../domain/clock.js';
import type { Storage } from '../../storage/index.js';
import { voiceRegions } from './regions.js';
import {
  CreateStageInstanceBody,
  ModifyStageInstanceBody,
  StageChannelParams,
  UpdateSelfVoiceStateBody,
  UpdateVoiceStateBody,
  VoiceStateParams,
} from './schemas.js';
import type { StageInstanceService } from './stageInstances.js';
import type { VoiceStateService } from './voiceStates.js';

export interface VoiceRouteDeps {
  storage: Storage;
  clock: Clock;
  voiceStates: VoiceStateService;
  stageInstances: StageInstanceService;
}

/** Voice regions, voice state routes and stage instances (docs/voice.md). */
export function registerVoiceRoutes(app: FastifyInstance, deps: VoiceRouteDeps): void {
  const { voiceStates, stageInstances } = deps;
  const accessFor = accessLoader(deps.clock);

  app.get('/voice/regions', { config: { auth: ['bot', 'session', 'bearer'] } }, () =>
    voiceRegions(),
  );

  app.get('/guilds/:guild_id/regions', AUTH, async (request) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    await accessFor(deps.storage, principalOf(request), guild_id);
    return voiceRegions();
  });

  app.get('/guilds/:guild_id/voice-states/:user_id', AUTH, (request) => {
    const params = parseInput(VoiceStateParams, request.params);
    return voiceStates.get(principalOf(request), params.guild_id, params.user_id);
  });

  app.patch('/guilds/:guild_id/voice-states/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(VoiceStateParams, request.params);
    const principal = principalOf(request);
    if (params.user_id === '@me') {
      const body = parseInput(UpdateSelfVoiceStateBody, request.body ?? {});
      await voiceStates.updateSelf(principal, params.guild_id, body);
    } else {
      const body = parseInput(UpdateVoiceStateBody, request.body ?? {});
      await voiceStates.update(
        principal,
        { guildId: params.guild_id, userId: params.user_id },
        body,
      );
    }
    return reply.status(204).send();
  });

  app.post('/stage-instances', AUTH, (request) =>
    stageInstances.create(principalOf(request), {
      ...parseInput(CreateStageInstanceBody, request.body ?? {}),
      reason: reasonOf(request),
    }),
  );

  app.get('/stage-instances/:channel_id', AUTH, (request) =>
    stageInstances.get(
      principalOf(request),
      parseInput(StageChannelParams, request.params).channel_id,
    ),
  );

  app.patch('/stage-instances/:channel_id', AUTH, (request) =>
    stageInstances.modify(
      principalOf(request),
      parseInput(StageChannelParams, request.params).channel_id,
      {
        ...parseInput(ModifyStageInstanceBody, request.body ?? {}),
        reason: reasonOf(request),
      },
    ),
  );

  app.delete('/stage-instances/:channel_id', AUTH, async (request, reply) => {
    await stageInstances.delete(
      principalOf(request),
      parseInput(StageChannelParams, request.params).channel_id,
      { reason: reasonOf(request) },
    );
    return reply.status(204).send();
  });
}
