/**
 * Helpers for the invite tests: multipart bodies as client libraries send them (the dispatches
 * a server announces are recorded with dispatchRecorder.ts).
 *
 * @module
 */

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
