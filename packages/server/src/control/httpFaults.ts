/**
 * @module control/httpFaults: HTTP faults and the request log, as two hooks on the Fastify
 * server. A fault is looked up once the request is admitted (its caller known, the platform's
 * own limits counted) and its body read: latency first (each matching one waits, real time), then the first 429,
 * server error or dropped connection. Every API request a user (or no one) makes is logged with
 * its route, status and bodies, when the controls record.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { realTimers, type Clock, type Timers } from '../domain/clock.js';
import { SECOND_MS } from '../domain/time.js';
import { RateLimitedError } from '../errors/index.js';
import { API_PREFIX } from '../http/versioning.js';
import type { Storage } from '../storage/index.js';
import type { FaultOf, FaultRegistry, FaultSubject } from './faults.js';
import type { LogEntry } from './types.js';
import type { ControlLogWriter } from './log.js';

type HttpFault = FaultOf<'http'>;

/** Request fields the log does not keep. */
const SECRET_FIELDS = new Set(['password', 'new_password', 'client_secret', 'token']);
/** Where the controls' own routes live: never faulted, never logged. */
export const CONTROL_PREFIX = '/_guildhall/';

/** The path a fault's pattern is matched against: after the API prefix, no query. */
export function faultPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '/';
  if (path === API_PREFIX) return '/';
  return path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : path;
}

const patterns = new Map<string, RegExp>();
/** Whether `path` matches a pattern: `*` one segment, `**` any number of them. */
export function pathMatches(pattern: string, path: string): boolean {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    const source = pattern
      .replace(/\/+$/, '')
      .split('/')
      .map((part) =>
        part === '**'
          ? '(?:/[^/]+)*'
          : `/${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}`,
      )
      .slice(1)
      .join('');
    regex = new RegExp(`^${source}/?$`);
    if (patterns.size < 1000) patterns.set(pattern, regex);
  }
  return regex.test(path);
}

const subjectOf = (request: FastifyRequest): FaultSubject => ({
  userId: request.principal?.user.id ?? null,
  applicationId: request.principal?.applicationId ?? null,
});

/** The 429 of a rate-limit fault, with the headers of its scope. */
function rateLimited(fault: Extract<HttpFault, { type: 'rateLimit' }>, nowMs: number) {
  const retryAfterSeconds = fault.retryAfter ?? 1;
  const scope = fault.scope ?? 'user';
  if (scope === 'global') {
    return new RateLimitedError({
      retryAfterSeconds,
      global: true,
      scope,
      headers: { 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
    });
  }
  const resetAtMs = nowMs + retryAfterSeconds * SECOND_MS;
  return new RateLimitedError({
    retryAfterSeconds,
    global: false,
    scope,
    headers: {
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': (resetAtMs / SECOND_MS).toFixed(3),
      'x-ratelimit-reset-after': retryAfterSeconds.toFixed(3),
      'x-ratelimit-bucket': fault.bucket ?? `fault${fault.id}`,
      'x-ratelimit-scope': scope,
    },
  });
}

/** `body` as the log keeps it: parsed JSON, secrets left out. */
function loggedBody(body: unknown): unknown {
  if (typeof body === 'string') {
    try {
      return loggedBody(JSON.parse(body));
    } catch {
      return body.length === 0 ? null : body;
    }
  }
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body)) return null;
  if (Array.isArray(body)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, SECRET_FIELDS.has(k) ? '[redacted]' : v]),
  );
}

/** An HTTP entry's bodies as the log shows them (parsed, secrets left out), once it is read. */
function finishHttpEntry(entry: LogEntry): void {
  if (entry.kind !== 'http') return;
  entry.request = loggedBody(entry.request);
  entry.response = loggedBody(entry.response);
}

export function registerHttpFaults(
  http: FastifyInstance,
  deps: {
    faults: FaultRegistry;
    log: ControlLogWriter;
    recording: boolean;
    /** The platform clock (a 429's reset time). */
    clock: Clock;
    /** Real timers latency waits on. */
    timers?: Timers;
    /** Where the log finds the application of a request made with an interaction's token. */
    storage: Pick<Storage, 'interactions' | 'applications'>;
  },
): void {
  const { faults, log } = deps;
  const timers = deps.timers ?? realTimers;
  const answeredBy = new WeakMap<FastifyRequest, string>();

  const check = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = faultPath(request.url);
    const found = faults.matching(
      'http',
      subjectOf(request),
      (f) => (f.method === undefined || f.method === request.method) && pathMatches(f.path, path),
    );
    let waitMs = 0;
    for (const fault of found) {
      if (fault.type === 'latency' && faults.fire(fault)) waitMs += fault.ms;
    }
    if (waitMs > 0) await new Promise<void>((resolve) => timers.schedule(resolve, waitMs));
    const fault = found.find((f) => f.type !== 'latency' && faults.fire(f));
    if (fault === undefined) return;
    answeredBy.set(request, fault.id);
    switch (fault.type) {
      case 'rateLimit':
        throw rateLimited(fault, deps.clock.now());
      case 'serverError': {
        const status = fault.status ?? 500;
        const body = fault.body ?? {
          message: `${status}: ${STATUS_CODES[status] ?? 'Server Error'}`,
          code: 0,
        };
        return reply.status(status).send(body);
      }
      case 'drop':
        // No answer at all: the client sees its connection reset.
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      case 'latency':
        return;
    }
  };
  // Once the body is read: the log shows what a faulted request carried. With no HTTP fault in
  // force (nearly always) the hook answers at once, without a promise.
  http.addHook('preValidation', (request, reply, done) => {
    if (!faults.any('http') || request.url.startsWith(CONTROL_PREFIX)) {
      done();
      return;
    }
    check(request, reply).then(
      () => {
        done();
      },
      (err: unknown) => {
        done(err as Error);
      },
    );
  });

  if (!deps.recording) return;
  /**
   * Whom a request concerns: its token's user and application, or, for a request made with an
   * interaction's token (its callback, its followups), the interaction's application (a read).
   */
  const concerns = (request: FastifyRequest): FaultSubject | Promise<FaultSubject> => {
    if (request.principal !== null) return subjectOf(request);
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const interactionId = params['interaction_id'];
    const webhookId = params['webhook_id'];
    if (interactionId !== undefined && /^\d{1,20}$/.test(interactionId)) {
      return deps.storage.interactions.findById(interactionId).then((interaction) => ({
        userId: null,
        applicationId: interaction?.applicationId ?? null,
      }));
    }
    if (webhookId !== undefined && /^\d{1,20}$/.test(webhookId)) {
      return deps.storage.applications
        .findById(webhookId)
        .then((application) => ({ userId: null, applicationId: application?.id ?? null }));
    }
    return { userId: null, applicationId: null };
  };

  /**
   * The entry of an answered request. Its bodies are kept as they are (the parsed request, the
   * answer's JSON text) and made into what the log shows only when someone reads it.
   */
  const record = (
    request: FastifyRequest,
    reply: FastifyReply,
    { payload, subject }: { payload: unknown; subject: FaultSubject },
  ) => {
    const faultId = answeredBy.get(request);
    log.record(
      {
        kind: 'http',
        userId: subject.userId,
        applicationId: subject.applicationId,
        method: request.method,
        path: request.url.split('?', 1)[0] ?? '/',
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        request: request.body,
        // A stream or buffer is not held until the entry is read.
        response: typeof payload === 'string' ? payload : loggedBody(payload),
        ...(faultId === undefined ? {} : { faultId }),
      },
      finishHttpEntry,
    );
  };

  // eslint-disable-next-line max-params -- Fastify's signature; `done` spares a promise per answer
  http.addHook('onSend', (request, reply, payload, done) => {
    if (!request.url.startsWith('/api')) {
      done(null, payload);
      return;
    }
    const subject = concerns(request);
    if (!(subject instanceof Promise)) {
      record(request, reply, { payload, subject });
      done(null, payload);
      return;
    }
    subject.then(
      (found) => {
        record(request, reply, { payload, subject: found });
        done(null, payload);
      },
      (err: unknown) => {
        done(err as Error);
      },
    );
  });
}
