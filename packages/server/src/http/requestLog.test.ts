import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { LazyRequestLogger } from './requestLog.js';

function capture(level: 'info' | 'warn') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(level, {
    write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe('a request logger', () => {
  it('writes through a child bound to the request, at the server logger level', () => {
    const { logger, lines } = capture('warn');
    const log = new LazyRequestLogger(logger, { reqId: 'r-1' }, {});
    log.info('not at warn');
    log.warn({ token: 'sekrit', detail: 1 }, 'careful');
    log.child({ step: 2 }).error('failed');
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, reqId: 'r-1', detail: 1, token: '[REDACTED]' }),
      expect.objectContaining({ level: 50, reqId: 'r-1', step: 2, msg: 'failed' }),
    ]);
  });

  it("follows the server logger's level until its own is set", () => {
    const { logger, lines } = capture('info');
    const log = new LazyRequestLogger(logger, { reqId: 'r-2' }, {});
    expect(log.level).toBe('info');
    log.level = 'error';
    log.warn('dropped');
    expect(log.level).toBe('error');
    expect(logger.level).toBe('info');
    expect(lines).toEqual([]);
  });
});
