import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { UserPanel } from './UserPanel.js';
import { renderWithClient } from './test/render.js';

afterEach(cleanup);

describe('UserPanel', () => {
  it('names the user and links to the connected games settings', async () => {
    const memory = memoryLocation({ path: '/channels/@me', record: true });
    renderWithClient(
      <Router hook={memory.hook}>
        <UserPanel />
      </Router>,
    );
    expect(screen.getByText('Ada')).toBeDefined();
    const link = screen.getByRole('link', { name: 'Connected games' });
    expect(link.getAttribute('href')).toBe('/settings/connected-games');
    await userEvent.setup().click(link);
    expect(memory.history.at(-1)).toBe('/settings/connected-games');
  });
});
