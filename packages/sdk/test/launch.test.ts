/**
 * Launch registration (an XDG desktop entry under a temporary XDG_DATA_HOME) and the connected
 * games link, through the Node build.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Client, ErrorType, LoggingSeverity } from '../src/node.js';

const APP = '1234567890123456789';

describe.runIf(process.platform === 'linux')('registerLaunchCommand on Linux', () => {
  let dataHome = '';
  beforeEach(async () => {
    dataHome = await mkdtemp(join(tmpdir(), 'sdk-launch-'));
    vi.stubEnv('XDG_DATA_HOME', dataHome);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(dataHome, { recursive: true, force: true });
  });

  it('writes the platform-<id>: URL scheme handler as a desktop entry', async () => {
    const client = new Client({ apiBase: 'http://127.0.0.1:9/api/v10' });
    const logs: string[] = [];
    client.addLogCallback((line) => logs.push(line), LoggingSeverity.Info);
    expect(await client.registerLaunchCommand(APP, '/opt/my game/run.sh --windowed')).toBe(true);
    const entry = await readFile(
      join(dataHome, 'applications', `guildhall-${APP}.desktop`),
      'utf8',
    );
    expect(entry.split('\n')).toEqual(
      expect.arrayContaining([
        '[Desktop Entry]',
        'Type=Application',
        'Exec=/opt/my game/run.sh --windowed %u',
        `MimeType=x-scheme-handler/platform-${APP};`,
        'NoDisplay=true',
      ]),
    );
    expect(logs.join('\n')).toMatch(/xdg-mime default/);

    // A command that places the link itself keeps it; the store form launches through Steam.
    expect(await client.registerLaunchCommand(APP, 'game --link=%u')).toBe(true);
    expect(
      await readFile(join(dataHome, 'applications', `guildhall-${APP}.desktop`), 'utf8'),
    ).toContain('Exec=game --link=%u\n');
    expect(await client.registerLaunchStoreApplication(APP, '480')).toBe(true);
    expect(
      await readFile(join(dataHome, 'applications', `guildhall-${APP}.desktop`), 'utf8'),
    ).toContain('Exec=xdg-open steam://rungameid/480\n');
  });
});

describe('launch and platform links', () => {
  it('refuses bad arguments (a rejected promise) before touching anything', async () => {
    let registered = 0;
    const client = new Client({
      apiBase: 'http://127.0.0.1:9/api/v10',
      platform: {
        registerLaunch: () => {
          registered++;
          return Promise.resolve(true);
        },
      },
    });
    for (const pending of [
      client.registerLaunchCommand('game', 'run'),
      client.registerLaunchCommand(APP, ''),
      client.registerLaunchCommand(APP, 'run\nX-Evil=1'),
      client.registerLaunchStoreApplication(APP, 'steam://480'),
    ]) {
      await expect(pending).rejects.toMatchObject({ type: ErrorType.ValidationError });
    }
    expect(registered).toBe(0);
  });

  it('a platform that cannot register answers false', async () => {
    const client = new Client({
      apiBase: 'http://127.0.0.1:9/api/v10',
      platform: {
        registerLaunch: () => Promise.resolve(false),
      },
    });
    expect(await client.registerLaunchCommand(APP, 'run')).toBe(false);
  });

  it('openConnectedGamesSettingsInPlatform opens the web client settings page', async () => {
    const opened: string[] = [];
    const client = new Client({
      apiBase: 'http://127.0.0.1:9/api/v10',
      webBase: 'https://chat.example.test/',
      platform: {
        openUrl: (url) => {
          opened.push(url);
          return Promise.resolve();
        },
      },
    });
    await client.openConnectedGamesSettingsInPlatform();
    expect(opened).toEqual(['https://chat.example.test/settings/connected-games']);
  });
});
