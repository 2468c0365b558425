/**
 * @module resources/lobbies/module: lobbies as the composition root plugs it in
 * (resources/module.ts).
 */
import type { MessageService } from '../messages/index.js';
import { resourceModule } from '../module.js';
import { registerLobbyRoutes } from './routes.js';
import { createLobbyService } from './service.js';

type LobbyDeps = Parameters<typeof createLobbyService>[0];

const services = (
  root: {
    deps: Omit<LobbyDeps, 'limits' | 'mirror' | 'onMirrorError'> & {
      socialLimits: LobbyDeps['limits'];
    };
    onLobbyMirrorError?: LobbyDeps['onMirrorError'];
  },
  made: { messages: Pick<MessageService, 'create'> },
) => ({
  lobbies: createLobbyService({
    ...root.deps,
    limits: root.deps.socialLimits,
    // A lobby message goes into the linked channel as its author, with no mention pinging.
    mirror: (principal, channelId, content) =>
      made.messages.create(principal, {
        channelId,
        input: { content, allowed_mentions: { parse: [] } },
        files: [],
      }),
    ...(root.onLobbyMirrorError === undefined ? {} : { onMirrorError: root.onLobbyMirrorError }),
  }),
});

export const lobbiesModule = resourceModule({
  name: 'lobbies',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerLobbyRoutes(api, ctx.services.lobbies);
  },
});
