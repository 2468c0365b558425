import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH, reasonOf } from '../access/index.js';
import type { IntegrationService } from './integrations.js';
import type { JoinRequestService } from './joinRequests.js';
import type { PreviewService } from './preview.js';
import {
  IncidentActionsBody,
  IntegrationParams,
  JoinRequestActionBody,
  JoinRequestParams,
  JoinRequestSubmitBody,
  JoinRequestsQuery,
  NewMemberWelcomeBody,
  OnboardingBody,
  VanityBody,
  WelcomeScreenBody,
  WidgetImageQuery,
  WidgetSettingsBody,
} from './schemas.js';
import type { GuildSettingsService } from './settings.js';
import type { WidgetService } from './widget.js';

export interface GuildSettingsRouteServices {
  guildSettings: GuildSettingsService;
  widget: WidgetService;
  preview: PreviewService;
  integrations: IntegrationService;
  joinRequests: JoinRequestService;
}

/** Anyone may read a guild's public widget (no Authorization). */
const PUBLIC = { config: { auth: 'none' } } as const;

/**
 * Guild settings: widget (settings, widget.json, widget.png), welcome screen, onboarding,
 * new-member welcome, preview, vanity URL, incident actions, integrations, join requests.
 */
export function registerGuildSettingsRoutes(
  app: FastifyInstance,
  services: GuildSettingsRouteServices,
): void {
  const { guildSettings: settings, widget, preview, integrations, joinRequests } = services;
  const guildOf = (params: unknown) => parseInput(GuildParams, params).guild_id;
  const request = (r: { params: unknown; headers: Record<string, unknown> }) => ({
    guildId: guildOf(r.params),
    reason: reasonOf(r as Parameters<typeof reasonOf>[0]),
  });

  app.get('/guilds/:guild_id/widget', AUTH, (r) =>
    settings.getWidget(principalOf(r), guildOf(r.params)),
  );
  app.patch('/guilds/:guild_id/widget', AUTH, (r) =>
    settings.modifyWidget(principalOf(r), request(r), parseInput(WidgetSettingsBody, r.body ?? {})),
  );
  app.get('/guilds/:guild_id/widget.json', PUBLIC, (r) => widget.json(guildOf(r.params)));
  app.get('/guilds/:guild_id/widget.png', PUBLIC, async (r, reply) => {
    const { style } = parseInput(WidgetImageQuery, r.query);
    const image = await widget.png(guildOf(r.params), style);
    return reply.type('image/png').send(image);
  });

  app.get('/guilds/:guild_id/welcome-screen', AUTH, (r) =>
    settings.getWelcomeScreen(principalOf(r), guildOf(r.params)),
  );
  app.patch('/guilds/:guild_id/welcome-screen', AUTH, (r) =>
    settings.modifyWelcomeScreen(
      principalOf(r),
      request(r),
      parseInput(WelcomeScreenBody, r.body ?? {}),
    ),
  );

  app.get('/guilds/:guild_id/onboarding', AUTH, (r) =>
    settings.getOnboarding(principalOf(r), guildOf(r.params)),
  );
  app.put('/guilds/:guild_id/onboarding', AUTH, (r) =>
    settings.putOnboarding(principalOf(r), request(r), parseInput(OnboardingBody, r.body ?? {})),
  );

  app.get('/guilds/:guild_id/new-member-welcome', AUTH, async (r, reply) => {
    const home = await settings.getNewMemberWelcome(principalOf(r), guildOf(r.params));
    return home ?? reply.status(204).send();
  });
  app.put('/guilds/:guild_id/new-member-welcome', AUTH, (r) =>
    settings.putNewMemberWelcome(
      principalOf(r),
      request(r),
      parseInput(NewMemberWelcomeBody, r.body ?? {}),
    ),
  );

  app.get('/guilds/:guild_id/preview', AUTH, (r) => preview.get(principalOf(r), guildOf(r.params)));

  app.get('/guilds/:guild_id/vanity-url', AUTH, (r) =>
    settings.getVanity(principalOf(r), guildOf(r.params)),
  );
  app.patch('/guilds/:guild_id/vanity-url', AUTH, (r) =>
    settings.setVanity(principalOf(r), request(r), parseInput(VanityBody, r.body ?? {}).code),
  );

  app.put('/guilds/:guild_id/incident-actions', AUTH, (r) =>
    settings.putIncidentActions(
      principalOf(r),
      request(r),
      parseInput(IncidentActionsBody, r.body ?? {}),
    ),
  );

  app.get('/guilds/:guild_id/integrations', AUTH, (r) =>
    integrations.list(principalOf(r), guildOf(r.params)),
  );
  app.delete('/guilds/:guild_id/integrations/:integration_id', AUTH, async (r, reply) => {
    const params = parseInput(IntegrationParams, r.params);
    await integrations.delete(principalOf(r), {
      guildId: params.guild_id,
      integrationId: params.integration_id,
      reason: reasonOf(r),
    });
    return reply.status(204).send();
  });

  app.get('/guilds/:guild_id/requests', AUTH, (r) => {
    const query = parseInput(JoinRequestsQuery, r.query);
    return joinRequests.list(principalOf(r), guildOf(r.params), {
      limit: query.limit,
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.before === undefined ? {} : { before: query.before }),
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });
  app.put('/guilds/:guild_id/requests/@me', AUTH, (r) =>
    joinRequests.submit(
      principalOf(r),
      guildOf(r.params),
      parseInput(JoinRequestSubmitBody, r.body ?? {}),
    ),
  );
  app.patch('/guilds/:guild_id/requests/:request_id', AUTH, (r) => {
    const params = parseInput(JoinRequestParams, r.params);
    return joinRequests.action(
      principalOf(r),
      { guildId: params.guild_id, requestId: params.request_id },
      parseInput(JoinRequestActionBody, r.body ?? {}),
    );
  });
}
