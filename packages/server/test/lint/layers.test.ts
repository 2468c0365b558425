import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

// Only the import rules, parsed without type information: the layers are read from the import
// lines alone, and a program for the type-checked rules would cost a minute.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { project: null, projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports' || ruleId === 'guildhall/layers',
});

/** The import rules' messages for `specifier` imported from `file` (under src/). */
async function refusals(file: string, specifier: string): Promise<string[]> {
  const code = `import { x } from '${specifier}';\nexport const y = x;\n`;
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}packages/server/src/${file}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

/** [importing file, a forbidden import of it]: one per rule of docs/architecture.md. */
const FORBIDDEN: [string, string][] = [
  // Files directly in src/: their imports start with `./`.
  ['logger.ts', './gateway/index.js'],
  ['logger.ts', './http/server.js'],
  ['config.ts', './http/cors.js'],
  ['config.ts', './activities/proxyHost.js'],
  ['cliFlags.ts', './resources/users/index.js'],
  ['logDestination.ts', './storage/index.js'],
  ['secrets.ts', './http/server.js'],
  ['workerLease.ts', './bus/index.js'],
  ['adminCommand.ts', './app.js'],
  ['adminCommand.ts', './resources/guilds/index.js'],
  // The folders of the features.
  ['voice/gateway.ts', '../gateway/subscriptions.js'],
  ['voice/index.ts', '../resources/channels/index.js'],
  ['voice/index.ts', '../app.js'],
  ['gateway/voiceCommand.ts', '../voice/token.js'],
  ['gateway/gateway.ts', '../activities/index.js'],
  ['oauth/service.ts', '../rpc/index.js'],
  ['activities/proxyHost.ts', '../gateway/index.js'],
  ['activities/proxyHost.ts', '../voice/index.js'],
  ['activities/proxyHost.ts', '../resources/messages/service.js'],
  ['rpc/commands.ts', '../storage/index.js'],
  ['rpc/commands.ts', '../resources/users/index.js'],
  ['rpc/commands.ts', '../voice/index.js'],
  ['delivery/worker.ts', '../voice/index.js'],
  ['delivery/worker.ts', '../gateway/index.js'],
  // The layers below the features.
  ['resources/channels/service.ts', '../../voice/index.js'],
  ['resources/channels/service.ts', '../../activities/index.js'],
  ['resources/channels/service.ts', '../guilds/service.js'],
  ['resources/dispatches.ts', './channels/serialize.js'],
  ['http/server.ts', '../voice/index.js'],
  ['events/afterCommit.ts', '../resources/users/index.js'],
  ['storage/index.ts', '../http/server.js'],
  ['sharedState/index.ts', '../storage/index.js'],
  ['blobs/index.ts', '../logger.js'],
  ['domain/clock.ts', '../storage/index.js'],
  ['errors/index.ts', '../logger.js'],
  // Resources in wings (resources/<wing>/<name>/): still only through an index.
  ['resources/messaging/threads/service.ts', '../../guild/channels/service.js'],
  ['resources/messaging/threads/service.ts', '../messages/create.js'],
  ['resources/messaging/threads/service.ts', '../../../voice/index.js'],
  ['resources/dispatches.ts', './guild/channels/serialize.js'],
  ['gateway/gateway.ts', '../resources/kernel/users/serialize.js'],
  // The layers are read from the resolved path: the voice feature from a resource, an entry
  // point from a subfolder, a re-export.
  ['resources/calls/service.ts', '../../voice/index.js'],
  ['voice/relay/relayPackets.ts', '../../gateway/index.js'],
  ['resources/messages/create/steps.ts', '../../../index.js'],
];

/** Imports the same files may make. */
const ALLOWED: [string, string][] = [
  ['logger.ts', './config.js'],
  ['config.ts', './domain/corsOrigins.js'],
  ['config.ts', './cliFlags.js'],
  ['secrets.ts', './storage/index.js'],
  ['adminCommand.ts', './blobs/index.js'],
  ['voice/gateway.ts', '../bus/subscriptions.js'],
  ['gateway/voiceCommand.ts', '../domain/voiceGrant.js'],
  ['gateway/gateway.ts', '../resources/users/index.js'],
  ['activities/proxyHost.ts', '../config.js'],
  ['activities/proxyUpstream.ts', '../delivery/urlPolicy.js'],
  ['rpc/commands.ts', '../gateway/clientOps.js'],
  ['resources/channels/service.ts', '../guilds/index.js'],
  ['resources/channels/service.ts', './serialize.js'],
  ['app.ts', './voice/index.js'],
  ['resources/messaging/threads/service.ts', '../../guild/channels/index.js'],
  ['resources/messaging/threads/service.ts', '../messages/index.js'],
  ['resources/messaging/threads/service.ts', '../../../http/authenticator.js'],
  ['resources/messaging/threads/service.ts', '../../deps.js'],
  ['resources/dispatches.ts', './guild/channels/index.js'],
  ['gateway/gateway.ts', '../resources/kernel/users/index.js'],
  // Names of features and entry points that are something else from where the file stands: the
  // sibling resource `resources/voice`, a feature's own subfolder, a parent folder's index.
  ['resources/calls/service.ts', '../voice/index.js'],
  ['voice/relay/relayPackets.ts', '../gateway.js'],
  ['resources/messages/create/steps.ts', '../index.js'],
];

describe('the layer rules (eslint.config.js)', () => {
  it.each(FORBIDDEN)('refuses, in %s, an import of %s', async (file, specifier) => {
    const messages = await refusals(file, specifier);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^(no-restricted-imports|guildhall\/layers): .*(This layer may not import|Import another resource through its index)/,
    );
  });

  it.each(ALLOWED)('lets %s import %s', async (file, specifier) => {
    expect(await refusals(file, specifier)).toEqual([]);
  });
});
