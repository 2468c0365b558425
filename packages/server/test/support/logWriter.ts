/**
 * Child process of logDestination.test.ts: logs `count` numbered lines at info through the
 * process logger's default destination (standard output), then ends as `how` says: `end` lets
 * the event loop run dry, `exit` calls process.exit at once, `throw` dies of an uncaught
 * exception. Every line must be on standard output whichever way it ended.
 */
import { createLogger } from '../../src/logger.js';

const [how, rawCount] = process.argv.slice(2);
const count = Number(rawCount);
if (!['end', 'exit', 'throw'].includes(how ?? '') || !Number.isInteger(count)) {
  process.stderr.write('usage: logWriter.ts end|exit|throw <count>\n');
  process.exit(2);
}

const logger = createLogger('info');
for (let i = 0; i < count; i += 1) logger.info({ line: i, padding: 'x'.repeat(100) }, 'numbered');
if (how === 'exit') process.exit(0);
if (how === 'throw') throw new Error('the writer died');
