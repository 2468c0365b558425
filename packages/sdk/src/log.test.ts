import { describe, expect, it } from 'vitest';
import { LoggingSeverity } from './enums.js';
import { Logger } from './log.js';

describe('the SDK log', () => {
  it('removes tokens from every line, whatever their form', () => {
    const logger = new Logger();
    const lines: string[] = [];
    logger.add((line) => lines.push(line), LoggingSeverity.Verbose);
    logger.secret('held-access-token-value');
    logger.verbose('sent held-access-token-value to the gateway');
    logger.info('Authorization: Bearer abc.def-ghi');
    logger.warn('POST /oauth2/token refresh_token=rt_123&client_id=9');
    logger.error('{"access_token":"at_456","token_type":"Bearer"}');
    logger.error('code_verifier: v_789, client_secret=s_000');
    logger.error('connect() needs a token: call updateToken() first.');
    expect(lines.join('\n')).not.toMatch(
      /held-access-token-value|abc\.def|rt_123|at_456|v_789|s_000/,
    );
    expect(lines[0]).toBe('sent [redacted] to the gateway');
    expect(lines[2]).toContain('client_id=9');
    expect(lines[1]).toBe('Authorization: Bearer [redacted]');
    expect(lines[3]).toBe('{"access_token":"[redacted]","token_type":"Bearer"}');
    expect(lines[5]).toBe('connect() needs a token: call updateToken() first.');
  });

  it('honours each consumer minimum and survives a consumer that throws', () => {
    const logger = new Logger();
    const errorsOnly: string[] = [];
    logger.add(() => {
      throw new Error('consumer failure');
    }, LoggingSeverity.Verbose);
    logger.add((line) => errorsOnly.push(line), LoggingSeverity.Error);
    logger.info('fine');
    logger.error('bad');
    expect(errorsOnly).toEqual(['bad']);
  });
});
