/**
 * Helpers for the message, attachment, reaction and pin tests: the guild's text channel,
 * recorded dispatches, multipart bodies and permission overwrites.
 *
 * @module
 */
import { vi } from 'vitest';
import type { App } from '../../src/app.js';
import { ALL_DISPATCHES, type DispatchEnvelope } from '../../src/events/dispatcher.js';

export interface RecordedDispatch extends DispatchEnvelope {
  type: string;
}

/** Records every dispatch published from now on. */
export async function recordDispatches(app: App) {
  const events: RecordedDispatch[] = [];
  await app.bus.subscribe(ALL_DISPATCHES, (event) => {
    events.push({ type: event.type, ...(event.data as DispatchEnvelope) });
  });
  return {
    events,
    /** Waits for the first dispatch of this type (delivery is asynchronous). */
    async next(type: string): Promise<RecordedDispatch> {
      return vi.waitFor(() => {
        const found = events.find((event) => event.type === type);
        if (found === undefined) throw new Error(`no ${type} yet`);
        return found;
      });
    },
    ofType: (type: string) => events.filter((event) => event.type === type),
  };
}

/** The guild's first text channel. */
export async function firstChannelId(app: App, guildId: string): Promise<string> {
  const [channel] = await app.storage.channels.listByGuild(guildId);
  if (channel === undefined) throw new Error('the fixture guild has no channel');
  return channel.id;
}

/** Denies (or allows) bits to one member in one channel. */
export async function overwrite(
  app: App,
  target: { channelId: string; userId: string; allow?: bigint; deny?: bigint },
): Promise<void> {
  await app.storage.overwrites.put({
    channelId: target.channelId,
    targetId: target.userId,
    type: 1,
    allow: target.allow ?? 0n,
    deny: target.deny ?? 0n,
  });
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer | string;
}

/** A multipart/form-data body with payload_json and files, for app.http.inject. */
export async function multipartBody(
  payload: unknown,
  files: readonly FilePart[],
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', JSON.stringify(payload));
  for (const file of files) {
    const bytes = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
    form.append(file.field, new Blob([bytes], { type: file.contentType }), file.filename);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** Sends a multipart request to /api/v10. */
export async function sendMultipart(
  app: App,
  request: {
    method: 'POST' | 'PATCH';
    path: string;
    auth: string;
    payload?: unknown;
    files: FilePart[];
  },
) {
  const { body, contentType } = await multipartBody(request.payload, request.files);
  return app.http.inject({
    method: request.method,
    url: `/api/v10${request.path}`,
    headers: { authorization: request.auth, 'content-type': contentType },
    payload: body,
  });
}
