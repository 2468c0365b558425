/**
 * @module resources/dms/module: DMs and group DMs as the composition root plugs it in
 * (resources/module.ts).
 */
import type { CallLifecycle } from '../calls/index.js';
import type { ServiceDeps } from '../deps.js';
import type { MessageService } from '../messages/index.js';
import { resourceModule } from '../module.js';
import { createGroupRecipientService } from './groups.js';
import { registerDmRoutes } from './routes.js';
import { createPrivateMessageRules } from './rules.js';
import { createSdkDmService } from './sdk.js';
import { createPrivateChannelService } from './service.js';

type RulesDeps = Parameters<typeof createPrivateMessageRules>[0];

/**
 * The rules of DMs and group DMs, which the message service asks: a module of their own, listed
 * before messages (the DMs' services, after it, post through messages).
 */
export const dmRulesModule = resourceModule({
  name: 'dmRules',
  services: (root: { deps: Omit<RulesDeps, 'links'>; links: RulesDeps['links'] }) => ({
    privateRules: createPrivateMessageRules({ ...root.deps, links: root.links }),
  }),
});

const services = (
  root: { deps: ServiceDeps },
  made: { calls: { lifecycle: Pick<CallLifecycle, 'recipientLeaves'> }; messages: MessageService },
) => {
  const privateChannels = createPrivateChannelService(root.deps, { calls: made.calls.lifecycle });
  return {
    privateChannels,
    sdkDms: createSdkDmService(root.deps, { privateChannels, messages: made.messages }),
    groupRecipients: createGroupRecipientService(root.deps, { calls: made.calls.lifecycle }),
  };
};

export const dmsModule = resourceModule({
  name: 'dms',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerDmRoutes(api, ctx.services);
  },
});
