/**
 * @module resources/autoModeration/module: auto-moderation: its rules and their enforcement as the
 * composition root plugs it in (resources/module.ts).
 */
import type { ProfileCheck } from '../members/index.js';
import { resourceModule } from '../module.js';
import { createAutoModerationEnforcer } from './enforce.js';
import { registerAutoModerationRoutes } from './routes.js';
import { createAutoModerationService } from './service.js';

type EnforcerDeps = Parameters<typeof createAutoModerationEnforcer>[0];

const services = (root: {
  deps: Omit<EnforcerDeps, 'links' | 'budget' | 'rules'>;
  links: EnforcerDeps['links'];
  autoModeration: EnforcerDeps['budget'];
  autoModRules: EnforcerDeps['rules'];
}) => {
  // Checked on guild message creates and member name changes.
  const autoModeration = createAutoModerationEnforcer({
    ...root.deps,
    links: root.links,
    budget: root.autoModeration,
    rules: root.autoModRules,
  });
  // A member's names are checked when they change and when the member joins.
  const profileCheck: ProfileCheck = (tx, request) => autoModeration.checkMember(tx, request);
  return {
    autoModeration,
    profileCheck,
    autoModerationRules: createAutoModerationService({
      ...root.deps,
      budgetMs: root.autoModeration.budgetMs,
    }),
  };
};

export const autoModerationModule = resourceModule({
  name: 'autoModeration',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerAutoModerationRoutes(api, ctx.services.autoModerationRules);
  },
});
