/** A literal token: no dots, no whitespace, no wildcard characters (NATS' own rule). */
const LITERAL_TOKEN = /^[^\s.*>]+$/;

function tokensOf(subject: string, wildcards: boolean): string[] {
  const tokens = subject.split('.');
  const ok = tokens.every(
    (token, i) =>
      LITERAL_TOKEN.test(token) ||
      (wildcards && (token === '*' || (token === '>' && i === tokens.length - 1))),
  );
  if (!ok) {
    throw new TypeError(
      wildcards
        ? `invalid subscription subject: ${JSON.stringify(subject)}`
        : `invalid publish subject (no wildcards allowed): ${JSON.stringify(subject)}`,
    );
  }
  return tokens;
}

/** Throws `TypeError` unless `subject` is a literal subject one may publish on. */
export function assertPublishSubject(subject: string): void {
  tokensOf(subject, false);
}

/** Throws `TypeError` unless `pattern` is a valid subscription subject (wildcards allowed). */
export function assertSubscribeSubject(pattern: string): void {
  tokensOf(pattern, true);
}

/** Whether a literal subject matches a subscription pattern, with NATS' `*` and `>` rules. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const want = pattern.split('.');
  const have = subject.split('.');
  for (const [i, token] of want.entries()) {
    if (token === '>') return have.length > i;
    if (i >= have.length || (token !== '*' && token !== have[i])) return false;
  }
  return want.length === have.length;
}
