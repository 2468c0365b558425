import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { UrlGenerator } from './UrlGenerator.js';

afterEach(cleanup);

const ORIGIN = 'http://127.0.0.1:8080';

function generated(): URL {
  return new URL(screen.getByLabelText<HTMLInputElement>('Generated URL').value);
}

describe('UrlGenerator', () => {
  it('makes a bot install URL from the scopes and the permission checkboxes', async () => {
    const user = userEvent.setup();
    render(<UrlGenerator clientId="42" redirectUris={[]} origin={ORIGIN} />);
    expect(screen.getByLabelText<HTMLInputElement>('Generated URL').value).toBe('');
    expect(screen.queryByRole('group', { name: 'Bot Permissions' })).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'applications.commands' }));
    await user.click(screen.getByRole('checkbox', { name: 'bot' }));
    const permissions = screen.getByRole('group', { name: 'Bot Permissions' });
    await user.click(within(permissions).getByRole('checkbox', { name: 'Send Messages' }));
    await user.click(within(permissions).getByRole('checkbox', { name: 'View Channels' }));

    const url = generated();
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: '42',
      // VIEW_CHANNEL (1 << 10) + SEND_MESSAGES (1 << 11)
      permissions: String(1024 + 2048),
      integration_type: '0',
      scope: 'bot applications.commands',
    });
    expect(screen.queryByText(/need a redirect URI/)).toBeNull();
  });

  it('asks for a redirect for other scopes, then adds it with response_type=code', async () => {
    const user = userEvent.setup();
    render(
      <UrlGenerator
        clientId="42"
        redirectUris={['https://app.example/callback', 'https://other.example/cb']}
        origin={ORIGIN}
      />,
    );
    await user.click(screen.getByRole('checkbox', { name: 'identify' }));
    await user.click(screen.getByRole('checkbox', { name: 'email' }));
    expect(screen.getByText('These scopes need a redirect URI: pick one.')).toBeDefined();
    // Without bot, no permissions are offered or sent.
    expect(generated().searchParams.has('permissions')).toBe(false);

    await user.selectOptions(
      screen.getByLabelText('Select Redirect URL'),
      'https://app.example/callback',
    );
    await user.selectOptions(screen.getByLabelText('Integration Type'), 'User Install');
    const url = generated();
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('https://app.example/callback');
    expect(url.searchParams.get('integration_type')).toBe('1');
    expect(url.searchParams.get('scope')).toBe('identify email');
    expect(screen.queryByText(/need a redirect URI/)).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'identify' }));
    expect(generated().searchParams.get('scope')).toBe('email');
  });

  it('keeps a bot install a guild install, which the server requires', async () => {
    const user = userEvent.setup();
    render(<UrlGenerator clientId="42" redirectUris={[]} origin={ORIGIN} />);
    await user.click(screen.getByRole('checkbox', { name: 'applications.commands' }));
    const type = screen.getByLabelText<HTMLSelectElement>('Integration Type');
    await user.selectOptions(type, 'User Install');
    expect(generated().searchParams.get('integration_type')).toBe('1');
    await user.click(screen.getByRole('checkbox', { name: 'bot' }));
    expect(generated().searchParams.get('integration_type')).toBe('0');
    expect(type.value).toBe('0');
    expect(
      within(type).getByRole<HTMLOptionElement>('option', { name: 'User Install' }).disabled,
    ).toBe(true);
  });
});
