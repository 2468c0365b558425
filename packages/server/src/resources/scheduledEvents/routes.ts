import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/index.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { hashedImageKeys, IMAGE_EXTENSION, type CdnImages } from '../imageVariants.js';
import {
  AnswerBody,
  CreateEventBody,
  CreateExceptionBody,
  EventParams,
  EventQuery,
  EventUserCountsQuery,
  EventUsersQuery,
  ExceptionParams,
  ModifyEventBody,
  ModifyExceptionBody,
} from './schemas.js';
import type { ScheduledEventService } from './service.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';

const EVENT = '/guilds/:guild_id/scheduled-events/:guild_scheduled_event_id';

export function registerScheduledEventRoutes(
  app: FastifyInstance,
  events: ScheduledEventService,
): void {
  const target = (params: unknown) => {
    const parsed = parseInput(EventParams, params);
    return { guildId: parsed.guild_id, eventId: parsed.guild_scheduled_event_id };
  };

  app.get('/guilds/:guild_id/scheduled-events', AUTH, (request) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    const query = parseInput(EventQuery, request.query);
    return events.list(principalOf(request), guild_id, query.with_user_count ?? false);
  });

  app.get(EVENT, AUTH, (request) => {
    const query = parseInput(EventQuery, request.query);
    return events.get(principalOf(request), target(request.params), query.with_user_count ?? false);
  });

  app.post('/guilds/:guild_id/scheduled-events', AUTH, (request) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    return events.create(principalOf(request), guild_id, {
      ...parseInput(CreateEventBody, request.body ?? {}),
      reason: reasonOf(request),
    });
  });

  app.patch(EVENT, AUTH, (request) =>
    events.modify(principalOf(request), target(request.params), {
      ...parseInput(ModifyEventBody, request.body ?? {}),
      reason: reasonOf(request),
    }),
  );

  app.delete(EVENT, AUTH, async (request, reply) => {
    await events.delete(principalOf(request), target(request.params), {
      reason: reasonOf(request),
    });
    return reply.status(204).send();
  });

  registerAttendeeRoutes(app, events);
}

/** Interested users, their counts, and exceptions (docs/guild-api.md). */
function registerAttendeeRoutes(app: FastifyInstance, events: ScheduledEventService): void {
  const exceptionTarget = (params: unknown) => {
    const parsed = parseInput(ExceptionParams, params);
    return {
      guildId: parsed.guild_id,
      eventId: parsed.guild_scheduled_event_id,
      exceptionId: parsed.exception_id,
    };
  };
  const eventTarget = (params: unknown) => {
    const parsed = parseInput(EventParams, params);
    return { guildId: parsed.guild_id, eventId: parsed.guild_scheduled_event_id };
  };

  app.get(`${EVENT}/users`, AUTH, (request) =>
    events.listUsers(
      principalOf(request),
      eventTarget(request.params),
      parseInput(EventUsersQuery, request.query),
    ),
  );
  app.get(`${EVENT}/users/counts`, AUTH, (request) =>
    events.countUsers(
      principalOf(request),
      eventTarget(request.params),
      parseInput(EventUserCountsQuery, request.query).guild_scheduled_event_exception_ids,
    ),
  );
  app.get(`${EVENT}/:exception_id/users`, AUTH, (request) =>
    events.listUsers(
      principalOf(request),
      exceptionTarget(request.params),
      parseInput(EventUsersQuery, request.query),
    ),
  );

  // The web client's own routes: a person marks interest (users/@me), or answers an occurrence.
  app.put(`${EVENT}/users/@me`, PEOPLE, async (request, reply) => {
    await events.markInterest(principalOf(request), {
      ...eventTarget(request.params),
      exceptionId: null,
    });
    return reply.status(204).send();
  });
  app.delete(`${EVENT}/users/@me`, PEOPLE, async (request, reply) => {
    await events.removeInterest(principalOf(request), {
      ...eventTarget(request.params),
      exceptionId: null,
    });
    return reply.status(204).send();
  });
  app.put(`${EVENT}/:exception_id/users/@me`, PEOPLE, async (request, reply) => {
    const { response } = parseInput(AnswerBody, request.body ?? {});
    const target = exceptionTarget(request.params);
    await (response === 0
      ? events.markUninterested(principalOf(request), target)
      : events.markInterest(principalOf(request), target));
    return reply.status(204).send();
  });
  app.delete(`${EVENT}/:exception_id/users/@me`, PEOPLE, async (request, reply) => {
    await events.removeInterest(principalOf(request), exceptionTarget(request.params));
    return reply.status(204).send();
  });

  app.post(`${EVENT}/exceptions`, AUTH, (request) =>
    events.createException(
      principalOf(request),
      eventTarget(request.params),
      parseInput(CreateExceptionBody, request.body ?? {}),
    ),
  );
  app.patch(`${EVENT}/exceptions/:exception_id`, AUTH, (request) =>
    events.modifyException(
      principalOf(request),
      exceptionTarget(request.params),
      parseInput(ModifyExceptionBody, request.body ?? {}),
    ),
  );
  app.delete(`${EVENT}/exceptions/:exception_id`, AUTH, async (request, reply) => {
    await events.deleteException(principalOf(request), exceptionTarget(request.params));
    return reply.status(204).send();
  });
}

/** A person's own routes (a user session). */
const PEOPLE = { config: { auth: ['session'] } } as const;

const COVER_FILE = new RegExp(`^((?:a_)?[0-9a-f]{32})\\.(${IMAGE_EXTENSION})$`);

/** The platform's CDN path for event covers, /guild-events/{event id}/{hash}.{ext}. */
export function registerScheduledEventCdnRoutes(
  app: FastifyInstance,
  options: { storage: Storage; images: CdnImages },
): void {
  app.get(
    '/guild-events/:event_id/:file',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const { event_id: eventId, file } = request.params as { event_id: string; file: string };
      const [, hash, extension = ''] = COVER_FILE.exec(file) ?? [];
      const event = isSnowflake(eventId)
        ? await options.storage.scheduledEvents.findById(eventId)
        : null;
      // Only the current cover of an existing event is served.
      if (hash === undefined || event?.image !== hash) throw new ApiError('NOT_FOUND');
      return options.images.send(request, reply, {
        keys: hashedImageKeys(`guild-events/${event.id}`, hash),
        animated: hash.startsWith('a_'),
        extension,
      });
    },
  );
}
