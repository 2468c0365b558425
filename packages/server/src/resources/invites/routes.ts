import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, invalidField } from '../../errors/index.js';
import {
  isMultipart,
  payloadJson,
  readMultipart,
  registerMultipart,
  type MultipartBody,
} from '../../http/multipart.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { ChannelParams } from '../channels/index.js';
import { AUTH, reasonOf } from '../access/index.js';
import { MAX_TARGET_USERS_FILE_BYTES, parseTargetUsersFile } from './csv.js';
import {
  BulkTargetUsersBody,
  CodeParams,
  CreateInviteBody,
  GetInviteQuery,
  TargetUserParams,
  type CreateInviteInput,
} from './schemas.js';
import type { InviteService } from './service.js';

const FILE_FIELD = 'target_users_file';

/** Room for the JSON body's fields beside the file (role ids, settings). */
const MAX_FIELD_BYTES = 48 * 1024;

const UPLOAD_LIMITS = {
  maxFileBytes: MAX_TARGET_USERS_FILE_BYTES,
  maxFiles: 1,
  maxFieldBytes: MAX_FIELD_BYTES,
  namedFiles: [FILE_FIELD],
} as const;

/** The target users file of a multipart body, when there is one. */
function targetUsersFile(form: MultipartBody): Buffer | undefined {
  return form.files.find((part) => part.field === FILE_FIELD)?.data;
}

/** The create body: JSON, or multipart with payload_json and an optional target users file. */
async function createInput(request: FastifyRequest): Promise<{
  input: CreateInviteInput;
  fileUserIds: string[] | null;
}> {
  if (isMultipart(request)) {
    const form = await readMultipart(request, UPLOAD_LIMITS);
    const input = parseInput(CreateInviteBody, payloadJson(form));
    const file = targetUsersFile(form);
    return { input, fileUserIds: file === undefined ? null : parseTargetUsersFile(file) };
  }
  const body = request.body;
  if (body === undefined || body === null) {
    // The platform requires a body here; `{}` is enough.
    throw new ApiError('INVALID_FORM_BODY', {
      errors: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
    });
  }
  return { input: parseInput(CreateInviteBody, body), fileUserIds: null };
}

/** /channels/{id}/invites, /guilds/{id}/invites, /invites/{code} and its target users. */
export function registerInviteRoutes(app: FastifyInstance, invites: InviteService): void {
  app.get('/channels/:channel_id/invites', AUTH, (request) =>
    invites.listForChannel(
      principalOf(request),
      parseInput(ChannelParams, request.params).channel_id,
    ),
  );

  app.get('/guilds/:guild_id/invites', AUTH, (request) =>
    invites.listForGuild(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/invites/:code', { config: { auth: 'none' } }, (request) => {
    const query = parseInput(GetInviteQuery, request.query);
    return invites.get(parseInput(CodeParams, request.params).code, {
      withCounts: query.with_counts ?? false,
    });
  });

  app.delete('/invites/:code', AUTH, (request) =>
    invites.delete(principalOf(request), {
      code: parseInput(CodeParams, request.params).code,
      reason: reasonOf(request),
    }),
  );

  // Joining is for people, with their session.
  app.post('/invites/:code', { config: { auth: ['session'] } }, (request) =>
    invites.accept(principalOf(request), parseInput(CodeParams, request.params).code),
  );

  app.get('/invites/:code/target-users', AUTH, async (request, reply) => {
    const csv = await invites.targetUsersCsv(
      principalOf(request),
      parseInput(CodeParams, request.params).code,
    );
    return reply.type('text/csv; charset=utf-8').send(csv);
  });

  app.get('/invites/:code/target-users/job-status', AUTH, (request) =>
    invites.jobStatus(principalOf(request), parseInput(CodeParams, request.params).code),
  );

  app.put('/invites/:code/target-users/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(TargetUserParams, request.params);
    await invites.addTargetUsers(principalOf(request), params.code, [params.user_id]);
    return reply.status(204).send();
  });

  app.delete('/invites/:code/target-users/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(TargetUserParams, request.params);
    await invites.removeTargetUsers(principalOf(request), params.code, [params.user_id]);
    return reply.status(204).send();
  });

  app.post('/invites/:code/target-users/bulk-add', AUTH, async (request, reply) => {
    const { code } = parseInput(CodeParams, request.params);
    const { user_ids } = parseInput(BulkTargetUsersBody, request.body ?? {});
    await invites.addTargetUsers(principalOf(request), code, user_ids);
    return reply.status(204).send();
  });

  app.post('/invites/:code/target-users/bulk-delete', AUTH, async (request, reply) => {
    const { code } = parseInput(CodeParams, request.params);
    const { user_ids } = parseInput(BulkTargetUsersBody, request.body ?? {});
    await invites.removeTargetUsers(principalOf(request), code, user_ids);
    return reply.status(204).send();
  });

  // Uploads (payload_json and target_users_file), each file under its own byte limit.
  void app.register(async (scope) => {
    await registerMultipart(scope);

    scope.post('/channels/:channel_id/invites', AUTH, async (request) => {
      const { channel_id } = parseInput(ChannelParams, request.params);
      const { input, fileUserIds } = await createInput(request);
      return invites.create(
        principalOf(request),
        { channelId: channel_id, reason: reasonOf(request), fileUserIds },
        input,
      );
    });

    scope.put('/invites/:code/target-users', AUTH, async (request, reply) => {
      const { code } = parseInput(CodeParams, request.params);
      const file = isMultipart(request)
        ? targetUsersFile(await readMultipart(request, UPLOAD_LIMITS))
        : undefined;
      if (file === undefined) {
        throw invalidField([FILE_FIELD], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      await invites.replaceTargetUsers(principalOf(request), code, parseTargetUsersFile(file));
      return reply.status(204).send();
    });
  });
}
