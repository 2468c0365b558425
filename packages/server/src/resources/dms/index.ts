/** @module resources/dms: DMs, group DMs and the Social SDK's DM routes (docs/social-dms.md). */
export { createPrivateMessageRules, type PrivateRulesDeps } from './rules.js';
export { registerDmRoutes } from './routes.js';
export { createSdkDmService, type SdkDmService } from './sdk.js';
export { createPrivateChannelService, type PrivateChannelService } from './service.js';
export { recipientUsers, serializePrivateChannel } from './serialize.js';
export { createGroupRecipientService, type GroupRecipientService } from './groups.js';
export { dmRulesModule, dmsModule } from './module.js';
