/**
 * @module appModules: every resource as one ordered list of modules (resources/module.ts), from
 * which the composition root builds the services (appServices.ts), registers the routes
 * (appRoutes.ts) and takes the operator commands (cli/commands.ts). A module comes after those
 * whose services it is built from; the list does not compile otherwise.
 */
import { activitiesModule } from './activities/module.js';
import { deliveryModule } from './delivery/module.js';
import { oauthModule } from './oauth/module.js';
import { activityInvitesModule } from './resources/activityInvites/index.js';
import { announcementsModule } from './resources/announcements/index.js';
import { appDataModule } from './resources/appData/index.js';
import { applicationsModule } from './resources/applications/index.js';
import { auditLogModule } from './resources/auditLog/index.js';
import { authModule } from './resources/auth/index.js';
import { autoModerationModule } from './resources/autoModeration/index.js';
import { bansModule } from './resources/bans/index.js';
import { callsModule } from './resources/calls/index.js';
import { channelsModule } from './resources/channels/index.js';
import { commandsModule } from './resources/commands/index.js';
import { connectionsModule } from './resources/connections/index.js';
import { dmRulesModule, dmsModule } from './resources/dms/index.js';
import { emojisModule } from './resources/emojis/index.js';
import { gameStatsModule } from './resources/gameStats/index.js';
import { gatewayInfoModule } from './resources/gatewayInfo/index.js';
import { guildSettingsModule } from './resources/guildSettings/index.js';
import { guildTagsModule } from './resources/guildTags/index.js';
import { guildTemplatesModule } from './resources/guildTemplates/index.js';
import { guildsModule } from './resources/guilds/index.js';
import { interactionsModule } from './resources/interactions/index.js';
import { invitesModule } from './resources/invites/index.js';
import { lobbiesModule } from './resources/lobbies/index.js';
import { membersModule } from './resources/members/index.js';
import { messagesModule } from './resources/messages/index.js';
import { moduleChain, type ServicesOf } from './resources/module.js';
import { monetizationModule } from './resources/monetization/index.js';
import { pollsModule } from './resources/polls/index.js';
import { relationshipsModule } from './resources/relationships/index.js';
import { rolesModule } from './resources/roles/index.js';
import { scheduledEventsModule } from './resources/scheduledEvents/index.js';
import { searchModule } from './resources/search/index.js';
import { socialLimitsModule } from './resources/socialLimits/index.js';
import { soundboardModule } from './resources/soundboard/index.js';
import { stickersModule } from './resources/stickers/index.js';
import { systemModule } from './resources/system/index.js';
import { threadsModule } from './resources/threads/index.js';
import { usersModule } from './resources/users/index.js';
import { voiceModule } from './resources/voice/index.js';
import { webhooksModule } from './resources/webhooks/index.js';

/** The modules in the order their services are made (and their routes and commands listed). */
export const APP_MODULES = moduleChain()
  .add(deliveryModule)
  .add(usersModule)
  .add(authModule)
  .add(applicationsModule)
  .add(gatewayInfoModule)
  .add(auditLogModule)
  .add(guildsModule)
  .add(oauthModule)
  .add(autoModerationModule)
  .add(channelsModule)
  .add(rolesModule)
  .add(membersModule)
  .add(bansModule)
  .add(emojisModule)
  .add(stickersModule)
  .add(scheduledEventsModule)
  .add(voiceModule)
  .add(dmRulesModule)
  .add(threadsModule)
  .add(messagesModule)
  .add(callsModule)
  .add(dmsModule)
  .add(soundboardModule)
  .add(appDataModule)
  .add(invitesModule)
  .add(connectionsModule)
  .add(gameStatsModule)
  .add(guildTagsModule)
  .add(socialLimitsModule)
  .add(monetizationModule)
  .add(activityInvitesModule)
  .add(activitiesModule)
  .add(guildSettingsModule)
  .add(guildTemplatesModule)
  .add(searchModule)
  .add(relationshipsModule)
  .add(lobbiesModule)
  .add(commandsModule)
  .add(webhooksModule)
  .add(pollsModule)
  .add(announcementsModule)
  .add(interactionsModule)
  .add(systemModule);

/** Every service the modules make, by name. */
export type Services = ServicesOf<typeof APP_MODULES>;
