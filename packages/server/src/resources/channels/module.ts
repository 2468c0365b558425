/**
 * @module resources/channels/module: channels, their positions, overwrites and voice status as the
 * composition root plugs it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { createOverwriteService } from './overwrites.js';
import { createChannelPositionService } from './positions.js';
import { registerChannelRoutes } from './routes.js';
import { createChannelService } from './service.js';
import { createVoiceStatusService } from './voiceStatus.js';

type ChannelDeps = Parameters<typeof createChannelService>[0];
type RouteServices = Parameters<typeof registerChannelRoutes>[1];

const services = (root: {
  deps: ServiceDeps;
  announceGuildUpdate: ChannelDeps['announceGuildUpdate'];
}) => ({
  channels: createChannelService({ ...root.deps, announceGuildUpdate: root.announceGuildUpdate }),
  channelPositions: createChannelPositionService(root.deps),
  overwrites: createOverwriteService(root.deps),
  voiceStatus: createVoiceStatusService(root.deps),
});

export const channelsModule = resourceModule({
  name: 'channels',
  services,
  routes: (
    api,
    ctx: {
      services: Omit<RouteServices, 'positions'> & {
        channelPositions: RouteServices['positions'];
      };
    },
  ) => {
    registerChannelRoutes(api, { ...ctx.services, positions: ctx.services.channelPositions });
  },
});
