import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CommandsPage } from './CommandsPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const command = ([id, name, type, options]: [string, string, number, number]) => ({
  id,
  application_id: '100000000000000001',
  version: '1',
  type,
  name,
  description: type === 1 ? `The ${name} command` : '',
  options: Array.from({ length: options }, (_, i) => ({
    type: 3,
    name: `o${String(i)}`,
    description: 'x',
  })),
});

describe('CommandsPage', () => {
  it('lists the global commands and deletes one after confirming', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(
      () => json(200, [command(['1', 'ping', 1, 2]), command(['2', 'Report', 3, 0])]),
      () => json(200, []),
      () => json(204, null),
    );
    render(
      <AppHarness app={app}>
        <CommandsPage />
      </AppHarness>,
    );
    const ping = (await screen.findByRole('rowheader', { name: 'ping' })).closest('tr');
    if (ping === null) throw new Error('no row');
    expect(within(ping).getByText('Slash')).toBeDefined();
    expect(within(ping).getByText('2')).toBeDefined();
    expect(screen.getByRole('rowheader', { name: 'Report' }).closest('tr')?.textContent).toContain(
      'Message',
    );
    expect(requestOf(fetch, 0)).toMatchObject({
      method: 'GET',
      url: `/api/v10/applications/${app.id}/commands`,
    });

    await user.click(screen.getByRole('button', { name: 'Delete ping' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete ping?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => {
      expect(screen.queryByRole('rowheader', { name: 'ping' })).toBeNull();
    });
    expect(requestOf(fetch, 2)).toMatchObject({
      method: 'DELETE',
      url: `/api/v10/applications/${app.id}/commands/1`,
    });
    expect(screen.getByRole('rowheader', { name: 'Report' })).toBeDefined();
  });

  it('lists guild commands beside the global ones, by server, and deletes one', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const tag = { ...command(['7', 'tag', 1, 1]), guild_id: '300000000000000003' };
    const fetch = stubFetch(
      () => json(200, []),
      () => json(200, [{ guild: { id: '300000000000000003', name: 'Harbor' }, commands: [tag] }]),
      () => json(204, null),
    );
    render(
      <AppHarness app={app}>
        <CommandsPage />
      </AppHarness>,
    );
    const harbor = await screen.findByRole('region', { name: 'Commands in Harbor' });
    expect(within(harbor).getByRole('rowheader', { name: 'tag' })).toBeDefined();
    expect(screen.getByText('No global commands yet.')).toBeDefined();
    expect(requestOf(fetch, 1)).toMatchObject({
      method: 'GET',
      url: `/api/v10/applications/${app.id}/guild-commands`,
    });
    await user.click(within(harbor).getByRole('button', { name: 'Delete tag' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete tag?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await vi.waitFor(() => {
      expect(screen.getByText('No guild commands yet.')).toBeDefined();
    });
    expect(requestOf(fetch, 2)).toMatchObject({
      method: 'DELETE',
      url: `/api/v10/applications/${app.id}/guilds/300000000000000003/commands/7`,
    });
  });
});
