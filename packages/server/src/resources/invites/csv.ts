import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';

/** The largest target users file: room for about 200,000 ids. */
export const MAX_TARGET_USERS_FILE_BYTES = 4 * 1024 * 1024;
/** Bad lines named in one answer; more are counted, not listed. */
const MAX_REPORTED_LINES = 100;
/** How much of a bad value an error message quotes. */
const MAX_QUOTED_CHARS = 32;

const HEADER = 'user_id';

/** A bad value as an error message may quote it: no control characters, cut short. */
function quote(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const visible = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  const cut =
    visible.length > MAX_QUOTED_CHARS ? `${visible.slice(0, MAX_QUOTED_CHARS)}…` : visible;
  return JSON.stringify(cut);
}

/** One CSV cell: surrounding white space and one pair of double quotes removed. */
function cell(line: string): string {
  const trimmed = line.trim();
  const quoted = /^"([^"]*)"$/.exec(trimmed);
  return (quoted?.[1] ?? trimmed).trim();
}

/**
 * Reads a target users file: a single-column CSV of user ids, with an optional `user_id` header,
 * CRLF or LF line ends, an optional UTF-8 byte order mark and blank lines ignored. Repeated ids
 * count once. Every bad line is named (line number and value) in one 400 answer, which maps
 * `target_users_file` to those messages (docs/platform-notes.md#error-body) beside the usual
 * form-error body, and nothing is changed.
 */
export function parseTargetUsersFile(data: Buffer): string[] {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\n|\r/);
  const ids = new Set<string>();
  const problems: string[] = [];
  let bad = 0;
  for (const [index, line] of lines.entries()) {
    const value = cell(line);
    if (value === '') continue;
    if (index === 0 && value.toLowerCase() === HEADER) continue;
    if (isSnowflake(value)) {
      ids.add(BigInt(value).toString());
      continue;
    }
    bad += 1;
    if (problems.length < MAX_REPORTED_LINES) {
      problems.push(`Line ${index + 1}: ${quote(value)} is not a valid user id.`);
    }
  }
  if (bad > problems.length) problems.push(`…and ${bad - problems.length} more bad lines.`);
  if (problems.length === 0 && ids.size === 0) problems.push('The file lists no user ids.');
  if (problems.length > 0) {
    throw new ApiError('INVALID_FORM_BODY', {
      errors: {
        target_users_file: {
          _errors: problems.map((message) => ({ code: 'TARGET_USERS_FILE_INVALID', message })),
        },
      },
      extra: { target_users_file: problems },
    });
  }
  return [...ids];
}
