/**
 * The HTTP side of a person: requests to the platform's public API with their session token, as
 * the web client makes them, JSON or multipart (`payload_json` and `files[n]`). A refusal is
 * thrown as the platform's error; nothing is retried.
 *
 * @module
 */
import { GuildhallApiError, type PlatformErrorBody } from './errors.js';

/** The API version the kit speaks. */
export const API_VERSION = 10;

/** A file to upload: a message attachment, an attachment option, a modal's File Upload. */
export interface FileInput {
  /** The file name the platform stores and shows. */
  name: string;
  /** The content: bytes, or text (UTF-8). */
  data: Uint8Array | string;
  /** Its MIME type (`application/octet-stream` when left out). */
  contentType?: string;
  /** Alt text (messages only). */
  description?: string;
}

/** How one request is made. */
export interface RequestInit {
  /** A JSON body, or with `files` the `payload_json`. */
  body?: unknown;
  /** Files sent as `files[n]` in a multipart body. */
  files?: readonly FileInput[];
  /** The query string. */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** `X-Audit-Log-Reason`. */
  reason?: string;
  /**
   * Whether the body's `attachments` lists the files (a message's, default true); an
   * interaction names them in `data.attachments` instead.
   */
  listFiles?: boolean;
}

/** Requests with one credential against one platform. */
export interface RestClient {
  /**
   * `METHOD path` (`'POST /channels/1/messages'`) under `/api/v10`; resolves with the parsed
   * body (undefined for a 204), rejects with {@link GuildhallApiError} for any other status.
   */
  request<T = unknown>(route: string, init?: RequestInit): Promise<T>;
}

/** A rest client for `apiUrl` (the `/api` base) sending `authorization` as it is. */
export function createRestClient(apiUrl: string, authorization: string | null): RestClient {
  const base = `${apiUrl.replace(/\/$/, '')}/v${String(API_VERSION)}`;
  return {
    async request<T>(route: string, init: RequestInit = {}): Promise<T> {
      const space = route.indexOf(' ');
      const method = route.slice(0, space);
      const path = route.slice(space + 1);
      const url = new URL(base + path);
      for (const [key, value] of Object.entries(init.query ?? {}))
        if (value !== undefined) url.searchParams.set(key, String(value));
      const headers: Record<string, string> = {};
      if (authorization !== null) headers['Authorization'] = authorization;
      if (init.reason !== undefined)
        headers['X-Audit-Log-Reason'] = encodeURIComponent(init.reason);
      let body: string | FormData | undefined;
      if (init.files !== undefined && init.files.length > 0) {
        body = multipart(init.body, init.files, init.listFiles ?? true);
      } else if (init.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(init.body);
      }
      const response = await fetch(url, { method, headers, body });
      const text = await response.text();
      const parsed: unknown = text.length === 0 ? undefined : parseJson(text);
      if (response.ok) return parsed as T;
      throw new GuildhallApiError(`${method} ${path}`, response.status, errorBody(parsed, text));
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The platform's body, or for a non-platform answer (a proxy's), one made of its text. */
function errorBody(parsed: unknown, text: string): PlatformErrorBody {
  if (typeof parsed === 'object' && parsed !== null && 'code' in parsed && 'message' in parsed)
    return parsed as PlatformErrorBody;
  return { code: 0, message: text.slice(0, 200) };
}

/** `payload_json` and `files[n]`, with `attachments` naming each file when the body has none. */
function multipart(payload: unknown, files: readonly FileInput[], listFiles: boolean): FormData {
  const form = new FormData();
  const body = { ...(payload as Record<string, unknown> | undefined) };
  if (listFiles)
    body['attachments'] ??= files.map((file, id) => ({
      id,
      filename: file.name,
      ...(file.description === undefined ? {} : { description: file.description }),
    }));
  form.set('payload_json', JSON.stringify(body));
  files.forEach((file, index) => {
    const bytes = typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data;
    const blob = new Blob([bytes], { type: file.contentType ?? 'application/octet-stream' });
    form.set(`files[${String(index)}]`, blob, file.name);
  });
  return form;
}
