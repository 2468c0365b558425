/**
 * Server settings in the web client, through the API as any client would: the owner makes a
 * role, names it, gives it a colour and permissions, moves it above another and deletes one;
 * makes, edits and deletes channels with a role's overwrites; gives a member a role, times one
 * out, kicks and bans; opens an app's install page for the server. A member who may not do these
 * is not offered them. No console error; every wait is for a selector
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

  /** A person who joined `guild` through an invite to `channelId`. */
  const joined = async (ownerToken: string, channelId: string, name: string) => {
    const person = await fx.server.app.services.auth.register({
      email: `${name}@example.test`,
      username: name,
      password: 'correct horse battery',
    });
    const invite = await api<{ code: string }>(
      ownerToken,
      `POST /channels/${channelId}/invites`,
      {},
    );
    await api(person.token, `POST /invites/${invite.code}`, {});
    return { id: person.user_id, token: person.token };
  };

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

      // Deck goes: the list follows GUILD_ROLE_DELETE.
      await dialog.getByRole('button', { name: 'Edit Deck' }).click();
      await dialog.getByRole('button', { name: 'Delete Role' }).click();
      await dialog.getByRole('button', { name: 'Edit Deck' }).waitFor({ state: 'detached' });
      expect((await roles()).map((r) => r.name)).not.toContain('Deck');
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

  it("makes a channel, edits its topic and a role's permissions in it, and deletes it", async () => {
    const owner = await seedDeveloper(fx.server.app, 'chen');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: owner.userId,
      name: 'Quay',
      channels: [{ name: 'general', type: 'text' }],
    });
    const channels = () => api<Channel[]>(owner.userToken, `GET /guilds/${guild.id}/channels`);
    const watched = await openClient(owner.userToken, `/channels/${guild.id}`);
    try {
      const { page } = watched;
      await page.getByRole('button', { name: 'Create Channel' }).click();
      const create = page.getByRole('dialog', { name: 'Create Channel' });
      await create.getByLabel('Channel name').fill('ops');
      await create.getByRole('button', { name: 'Create Channel' }).click();
      // A text channel opens once made.
      await create.waitFor({ state: 'detached' });
      const ops = (await channels()).find((c) => c.name === 'ops');
      expect(ops).toMatchObject({ type: 0 });
      await page.waitForURL(new RegExp(`/channels/${guild.id}/${ops?.id ?? 'none'}$`));

      await page.getByRole('button', { name: 'Edit ops' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit ops' });
      await edit.getByLabel('Channel topic').fill('Shift handovers');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await edit.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await channels()).find((c) => c.name === 'ops')?.topic)
        .toBe('Shift handovers');

      // @everyone may not send messages in it.
      await page.getByRole('button', { name: 'Edit ops' }).click();
      const perms = page.getByRole('dialog', { name: 'Edit ops' }).getByRole('region', {
        name: 'Permissions',
      });
      await perms.getByLabel('Send Messages', { exact: true }).selectOption('deny');
      await perms.getByRole('button', { name: 'Save Permissions' }).click();
      await perms.getByRole('status').waitFor();
      const overwrite = (await channels())
        .find((c) => c.name === 'ops')
        ?.permission_overwrites?.find((o) => o.id === guild.id);
      expect(BigInt(overwrite?.deny ?? '0')).toBe(SEND_MESSAGES);
      expect(overwrite?.allow).toBe('0');

      await page
        .getByRole('dialog', { name: 'Edit ops' })
        .getByRole('button', { name: 'Delete Channel' })
        .click();
      await page.getByRole('link', { name: 'ops (text channel)' }).waitFor({ state: 'detached' });
      expect((await channels()).map((c) => c.name)).not.toContain('ops');
      await screenshot(page, 'client-channel-settings');
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it('gives a member a role, times one out, kicks one and bans one; a member may do none', async () => {
    const owner = await seedDeveloper(fx.server.app, 'ines');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: owner.userId,
      name: 'Dock',
      channels: [{ name: 'general', type: 'text' }],
    });
    const [general] = await api<Channel[]>(owner.userToken, `GET /guilds/${guild.id}/channels`);
    const crew = await api<Role>(owner.userToken, `POST /guilds/${guild.id}/roles`, {
      name: 'Crew',
    });
    const [ann, bo] = await Promise.all(
      ['ann', 'bo', 'cy'].map((name) => joined(owner.userToken, general?.id ?? '', name)),
    );
    const member = (id: string) =>
      api<{ roles: string[]; communication_disabled_until: string | null }>(
        owner.userToken,
        `GET /guilds/${guild.id}/members/${id}`,
      );
    const watched = await openClient(owner.userToken, `/channels/${guild.id}/${general?.id ?? ''}`);
    try {
      const { page } = watched;
      const members = page.getByRole('complementary', { name: 'Members' });
      const act = async (name: string, action: string) => {
        await members.getByRole('button', { name, exact: false }).first().click();
        await page.getByRole('menuitem', { name: action }).click();
        const title = action === 'Roles' ? `Roles of ${name}` : `${action} ${name}`;
        return page.getByRole('dialog', { name: title });
      };

      const rolesOf = await act('ann', 'Roles');
      await rolesOf.getByRole('checkbox', { name: 'Crew' }).check();
      await expect.poll(async () => (await member(ann?.id ?? '')).roles).toEqual([crew.id]);
      await rolesOf.getByRole('button', { name: 'Done' }).click();
      await rolesOf.waitFor({ state: 'detached' });

      const timeout = await act('bo', 'Timeout');
      await timeout.getByLabel('Duration').selectOption({ label: '1 hour' });
      await timeout.getByLabel('Reason').fill('cooling off');
      await timeout.getByRole('button', { name: 'Timeout' }).click();
      await timeout.waitFor({ state: 'detached' });
      const until = (await member(bo?.id ?? '')).communication_disabled_until;
      expect(Date.parse(until ?? '')).toBeGreaterThan(Date.now() + 50 * 60_000);

      const kick = await act('cy', 'Kick');
      await kick.getByRole('button', { name: 'Kick' }).click();
      await members.getByRole('button', { name: /cy/ }).waitFor({ state: 'detached' });

      const ban = await act('bo', 'Ban');
      await ban.getByLabel('Delete message history').selectOption({ label: 'Previous hour' });
      await ban.getByRole('button', { name: 'Ban' }).click();
      await members.getByRole('button', { name: /bo/ }).waitFor({ state: 'detached' });
      const bans = await api<{ user: { id: string } }[]>(
        owner.userToken,
        `GET /guilds/${guild.id}/bans`,
      );
      expect(bans.map((b) => b.user.id)).toEqual([bo?.id]);
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.context.close();
    }

    // ann, with a role that holds no permission, is offered no moderation and no settings.
    const plain = await openClient(ann?.token ?? '', `/channels/${guild.id}/${general?.id ?? ''}`);
    try {
      const { page } = plain;
      await page.getByRole('heading', { name: 'Dock' }).waitFor();
      await page
        .getByRole('complementary', { name: 'Members' })
        .getByRole('button', { name: /ines/ })
        .click();
      await page.getByRole('menu').waitFor();
      for (const action of ['Roles', 'Timeout', 'Kick', 'Ban'])
        expect(await page.getByRole('menuitem', { name: action }).count()).toBe(0);
      for (const setting of ['Create Channel', 'Add App', 'Roles', 'Edit general'])
        expect(await page.getByRole('button', { name: setting }).count()).toBe(0);
    } finally {
      await plain.context.close();
    }
  });

  it("opens an app's install page for the server from Add App", async () => {
    const owner = await seedDeveloper(fx.server.app, 'otto', 'Tally');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: owner.userId,
      name: 'Wharf',
      channels: [{ name: 'general', type: 'text' }],
    });
    const watched = await openClient(owner.userToken, `/channels/${guild.id}`);
    try {
      const { page } = watched;
      // Signed in as /login leaves a person: the install page knows them by the session cookie.
      const login = await watched.context.request.post(`${fx.server.baseUrl}/api/v10/auth/login`, {
        data: { login: 'otto@example.test', password: 'correct horse battery' },
      });
      expect(login.ok()).toBe(true);
      await page.getByRole('button', { name: 'Add App' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add App' });
      await dialog.getByLabel('Application ID or install link').fill('not an app');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByText('Paste an application ID').waitFor();

      await dialog.getByRole('button', { name: 'Add Tally' }).click();
      await page.waitForURL(/\/oauth2\/authorize/);
      const url = new URL(page.url());
      expect(url.searchParams.get('client_id')).toBe(owner.applicationId);
      expect(url.searchParams.get('guild_id')).toBe(guild.id);
      expect(url.searchParams.get('scope')).toBe('bot applications.commands');
      // The install page names the app, with this server chosen to install into.
      await page.getByText('Tally').first().waitFor();
      expect(await page.getByRole('combobox').first().inputValue()).toBe(guild.id);
    } finally {
      await watched.context.close();
    }
  });
});

interface Channel {
  id: string;
  name: string;
  type: number;
  topic?: string | null;
  permission_overwrites?: { id: string; allow: string; deny: string }[];
}

/** SEND_MESSAGES. */
const SEND_MESSAGES = 1n << 11n;
