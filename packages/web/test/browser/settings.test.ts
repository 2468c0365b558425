/**
 * Server settings in the web client, through the API as any client would: the owner makes a
 * role, names it, gives it a colour and permissions and moves it above another; a member who may
 * not manage roles is not offered the settings. No console error; every wait is for a selector
 * or a value the API answers.
 *
 * @module
 */
import { expect, it } from 'vitest';
import { seedDeveloper } from '../../../server/test/support/testServer.js';
import { describeBrowser, screenshot, useWebServer } from './support.js';

/** KICK_MEMBERS and VIEW_CHANNEL. */
const KICK_MEMBERS = 1n << 1n;

interface Role {
  id: string;
  name: string;
  color: number;
  position: number;
  permissions: string;
}

describeBrowser('server settings in the web client', () => {
  const fx = useWebServer();

  const { api } = fx;

  const openClient = (token: string, path: string) => fx.openAs(token, path);

  it('makes, edits and orders roles; a member without Manage Roles is not offered them', async () => {
    const owner = await seedDeveloper(fx.server.app, 'rolf');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: owner.userId,
      name: 'Harbor',
      channels: [{ name: 'general', type: 'text' }],
    });
    const roles = () => api<Role[]>(owner.userToken, `GET /guilds/${guild.id}/roles`);
    const watched = await openClient(owner.userToken, `/channels/${guild.id}`);
    try {
      const { page } = watched;
      await page.getByRole('button', { name: 'Roles' }).click();
      const dialog = page.getByRole('dialog', { name: 'Roles' });

      await dialog.getByRole('button', { name: 'Create Role' }).click();
      const editor = dialog.getByRole('form', { name: 'Edit new role' });
      await editor.getByLabel('Role name').fill('Crew');
      await editor.getByLabel('Role colour').fill('#1abc9c');
      await editor.getByRole('checkbox', { name: 'Kick Members' }).check();
      await editor.getByRole('button', { name: 'Save Changes' }).click();
      await dialog.getByRole('button', { name: 'Edit Crew' }).waitFor();
      const crew = (await roles()).find((r) => r.name === 'Crew');
      expect(crew).toMatchObject({ color: 0x1abc9c });
      expect(BigInt(crew?.permissions ?? '0') & KICK_MEMBERS).toBe(KICK_MEMBERS);

      // A second role lands above; Crew moves back over it.
      await dialog.getByRole('button', { name: 'Create Role' }).click();
      await dialog
        .getByRole('form', { name: 'Edit new role' })
        .getByLabel('Role name')
        .fill('Deck');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await dialog.getByRole('button', { name: 'Edit Deck' }).waitFor();
      const order = async () =>
        (await roles())
          .filter((r) => r.id !== guild.id)
          .sort((a, b) => b.position - a.position)
          .map((r) => r.name);
      const before = await order();
      const lower = before[1] ?? '';
      await dialog.getByRole('button', { name: `Move ${lower} up` }).click();
      await expect.poll(order).toEqual([lower, before[0]]);
      await expect
        .poll(() => dialog.getByRole('list', { name: 'Roles, highest first' }).textContent())
        .toMatch(new RegExp(`^${lower}.*${before[0] ?? ''}.*@everyone`));
      await screenshot(page, 'client-roles');
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }

    // A member with no Manage Roles sees no Roles button.
    const { token } = await fx.server.app.services.auth.register({
      email: 'mia@example.test',
      username: 'mia',
      password: 'correct horse battery',
    });
    const invite = await api<{ code: string }>(
      owner.userToken,
      `POST /channels/${(await api<{ id: string }[]>(owner.userToken, `GET /guilds/${guild.id}/channels`))[0]?.id ?? ''}/invites`,
      {},
    );
    await api(token, `POST /invites/${invite.code}`, {});
    const member = await openClient(token, `/channels/${guild.id}`);
    try {
      await member.page.getByRole('heading', { name: 'Harbor' }).waitFor();
      expect(await member.page.getByRole('button', { name: 'Roles' }).count()).toBe(0);
    } finally {
      await member.context.close();
    }
  });
});
