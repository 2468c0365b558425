/**
 * @module control/adminCommands: operator commands run inside the server, and the client the
 * `guildhall` command uses to reach it (control/runFile.ts). A command runs on the server's own
 * app, so what it changes is announced to the sessions the server holds; its failures answer
 * the platform's 400 with what the command would have printed.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AdminCommand, AdminContext } from '../adminCommand.js';
import { UsageError } from '../cliFlags.js';
import { invalidField } from '../errors/index.js';
import { parseInput } from '../http/validate.js';
import { checkControlAccess, type ControlAccess } from './access.js';
import { databaseIdentity, processAlive, readRunFile } from './runFile.js';

/** The route the CLI posts to, under the controls' base. */
export const ADMIN_COMMANDS_PATH = '/_guildhall/v1/admin/commands';
/** The error code a usage mistake is answered with (the CLI exits 2 on it). */
const USAGE = 'COMMAND_USAGE';
/** How long the CLI waits for a running server before it gives up on it. */
const REACH_TIMEOUT_MS = 30_000;

const CommandBody = z.strictObject({
  command: z.string().min(1).max(64),
  flags: z.record(z.string(), z.string().max(1_000_000)),
  stdin: z.string().max(1_000_000).optional(),
});

/** `POST /_guildhall/v1/admin/commands`: only with the run token or the operator token. */
export function registerAdminCommandRoute<TServices>(
  http: FastifyInstance,
  deps: {
    commands: readonly AdminCommand<TServices>[];
    /** The app the commands run on (known once the app is built). */
    context: () => AdminContext<TServices>;
    access: ControlAccess;
  },
): void {
  http.post(
    ADMIN_COMMANDS_PATH,
    { config: { auth: 'none', rateLimit: false } },
    async (request) => {
      checkControlAccess(request, deps.access, { loopback: false });
      const input = parseInput(CommandBody, request.body);
      const command = deps.commands.find((c) => c.name === input.command);
      if (command === undefined) {
        throw invalidField(['command'], USAGE, `unknown command "${input.command}"`);
      }
      const app = deps.context();
      // The server's own app: a command never closes it.
      const context: AdminContext<TServices> = {
        storage: app.storage,
        blobs: app.blobs,
        services: app.services,
        baseUrl: () => app.baseUrl(),
        close: () => Promise.resolve(),
      };
      try {
        const result = await command.run(context, new Map(Object.entries(input.flags)), {
          readStdin: () => Promise.resolve(input.stdin ?? ''),
        });
        return { result: result ?? null };
      } catch (err) {
        if (err instanceof UsageError) throw invalidField(['flags'], USAGE, err.message);
        throw err;
      }
    },
  );
}

/** What came back from a running server: the command's result, or why it failed. */
export type RemoteOutcome =
  | { ran: true; result: unknown }
  | { ran: false; usage: boolean; message: string; code: number; errors?: unknown };

/**
 * Runs a command in the server running on `dataDir` (for `databaseUrl`), if one is; null when
 * none is (no run file, a dead process, another database, or it does not answer).
 */
export async function runInRunningServer(
  target: { dataDir: string; databaseUrl: string | null },
  input: { command: string; flags: Map<string, string>; stdin?: string },
): Promise<RemoteOutcome | null> {
  const run = await readRunFile(target.dataDir);
  if (
    run === null ||
    !processAlive(run.pid) ||
    run.database !== databaseIdentity(target.databaseUrl)
  ) {
    return null;
  }
  let response: Response;
  try {
    response = await fetch(`${run.url}${ADMIN_COMMANDS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${run.token}` },
      body: JSON.stringify({
        command: input.command,
        flags: Object.fromEntries(input.flags),
        ...(input.stdin === undefined ? {} : { stdin: input.stdin }),
      }),
      signal: AbortSignal.timeout(REACH_TIMEOUT_MS),
    });
  } catch {
    return null;
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  // A server that does not know the route (404 with no error code of the platform's, as an
  // unknown guild would have): the command runs on the database as before.
  if (response.status === 404 && body['code'] === 0) return null;
  if (response.ok) return { ran: true, result: body['result'] };
  type FieldErrors = Record<string, { _errors?: { code: string; message: string }[] } | undefined>;
  const errors = body['errors'] as FieldErrors | undefined;
  const usage = (errors?.['flags'] ?? errors?.['command'])?._errors?.[0];
  return usage?.code === USAGE
    ? { ran: false, usage: true, message: usage.message, code: 0 }
    : {
        ran: false,
        usage: false,
        message:
          typeof body['message'] === 'string' ? body['message'] : `HTTP ${String(response.status)}`,
        code: typeof body['code'] === 'number' ? body['code'] : 0,
        ...(body['errors'] === undefined ? {} : { errors: body['errors'] }),
      };
}
