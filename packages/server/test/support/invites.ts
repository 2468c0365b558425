/**
 * Helpers for the invite tests: multipart bodies as client libraries send them, and a watch on
 * the gateway dispatches a server announces.
 *
 * @module
 */
import { vi } from 'vitest';
import { ALL_DISPATCHES, type DispatchEnvelope } from '../../src/events/dispatcher.js';
import type { TestServer } from './testServer.js';

/** A multipart/form-data body with text fields and files (by field name). */
export function multipartBody(
  fields: Record<string, string>,
  files: Record<string, { data: Buffer | string; type?: string; filename?: string }> = {},
) {
  const boundary = 'guildhall-invite-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.filename ?? 'users.csv'}"\r\nContent-Type: ${file.type ?? 'text/csv'}\r\n\r\n`,
      ),
      Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

export interface SeenDispatch {
  type: string;
  subject: string;
  envelope: DispatchEnvelope;
}

/** Collects every dispatch published on the server's bus from now on. */
export async function watchDispatches(server: TestServer) {
  const seen: SeenDispatch[] = [];
  const subscription = await server.app.bus.subscribe(ALL_DISPATCHES, (event, subject) => {
    seen.push({ type: event.type, subject, envelope: event.data as DispatchEnvelope });
  });
  return {
    seen,
    /** Stops watching (a test's watch on a server that outlives the test). */
    stop: () => {
      subscription.unsubscribe();
    },
    /** Waits until a dispatch of this type arrives (the memory bus delivers asynchronously). */
    async next(type: string): Promise<SeenDispatch> {
      return vi.waitFor(() => {
        const found = seen.find((d) => d.type === type);
        if (found === undefined) throw new Error(`no ${type} yet`);
        return found;
      });
    },
  };
}
