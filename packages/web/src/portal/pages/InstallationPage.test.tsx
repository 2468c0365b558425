import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InstallationPage } from './InstallationPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('InstallationPage', () => {
  it('sends the enabled contexts with their default install, and shows errors at their path', async () => {
    const user = userEvent.setup();
    const app = makeApp({ integration_types_config: { '0': {} } });
    const saved = {
      '0': { oauth2_install_params: { scopes: ['bot'], permissions: '2048' } },
      '1': { oauth2_install_params: { scopes: ['applications.commands'], permissions: '0' } },
    };
    const fetch = stubFetch(
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: { custom_install_url: { _errors: [{ code: 'X', message: 'Not a URL.' }] } },
        }),
      () => json(200, { ...app, integration_types_config: saved }),
    );
    render(
      <AppHarness app={app}>
        <InstallationPage />
      </AppHarness>,
    );
    expect(screen.getByRole('checkbox', { name: 'Guild Install' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'User Install' })).toHaveProperty('checked', false);
    await user.click(screen.getByRole('checkbox', { name: 'bot' }));
    await user.click(screen.getByText(/Guild Install: bot permissions \(/));
    await user.click(screen.getByRole('checkbox', { name: 'Send Messages' }));
    await user.click(screen.getByRole('checkbox', { name: 'User Install' }));
    // A user install offers no bot.
    expect(screen.getAllByRole('checkbox', { name: 'bot' })).toHaveLength(1);
    const [, userCommands] = screen.getAllByRole('checkbox', { name: 'applications.commands' });
    if (userCommands === undefined) throw new Error('no user install scopes');
    await user.click(userCommands);
    await user.click(screen.getByRole('radio', { name: 'Custom URL' }));
    await user.type(screen.getByLabelText('Custom Install URL'), 'https://x.example/add');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(requestOf(fetch, 0).body).toEqual({
      integration_types_config: saved,
      custom_install_url: 'https://x.example/add',
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Not a URL.');
    expect(screen.getByLabelText('Custom Install URL').getAttribute('aria-invalid')).toBe('true');

    // Back to the provided link: only what changed is sent (no custom URL was saved).
    await user.click(screen.getByRole('radio', { name: 'Guildhall Provided Link' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 1).body).toEqual({ integration_types_config: saved });
    expect(await screen.findByText('All changes saved.')).toBeDefined();
    expect(screen.getByLabelText<HTMLInputElement>('Install link').value).toBe(
      `${window.location.origin}/oauth2/authorize?client_id=${app.id}`,
    );
  });

  it('shows the install_params a guild install falls back to, and clears them when it saves', async () => {
    const user = userEvent.setup();
    const app = makeApp({
      integration_types_config: { '0': {} },
      install_params: { scopes: ['bot'], permissions: '8' },
    });
    const fetch = stubFetch(() => json(200, app));
    render(
      <AppHarness app={app}>
        <InstallationPage />
      </AppHarness>,
    );
    expect(screen.getByRole('checkbox', { name: 'bot' })).toHaveProperty('checked', true);
    await user.click(screen.getByRole('checkbox', { name: 'bot' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 0).body).toEqual({
      integration_types_config: { '0': {} },
      install_params: null,
    });
  });

  it('does not check a custom URL that is not chosen', async () => {
    const user = userEvent.setup();
    const app = makeApp({ integration_types_config: { '0': {} } });
    const fetch = stubFetch(() => json(200, app));
    render(
      <AppHarness app={app}>
        <InstallationPage />
      </AppHarness>,
    );
    await user.click(screen.getByRole('radio', { name: 'Custom URL' }));
    await user.type(screen.getByLabelText('Custom Install URL'), 'example.com');
    await user.click(screen.getByRole('radio', { name: 'Guildhall Provided Link' }));
    await user.click(screen.getByRole('checkbox', { name: 'User Install' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => {
      expect(fetch).toHaveBeenCalledOnce();
    });
  });

  it('refuses to turn every context off before sending', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch();
    render(
      <AppHarness app={makeApp({ integration_types_config: { '0': {} } })}>
        <InstallationPage />
      </AppHarness>,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Guild Install' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'At least one installation context must be enabled.',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});
