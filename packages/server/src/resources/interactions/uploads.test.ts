import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useInteractionFixture } from '../../../test/support/interactionFixture.js';
import { multipartBody } from '../../../test/support/invites.js';
import { validateModal } from '../components/index.js';

describeDrivers('files uploaded with interactions: $driver', (driver) => {
  const f = useInteractionFixture(driver);

  const post = (payload: Record<string, unknown>, files: Record<string, string>) => {
    const body = multipartBody(
      { payload_json: JSON.stringify(payload) },
      Object.fromEntries(
        Object.entries(files).map(([field, text]) => [
          field,
          { data: text, type: 'text/plain', filename: `${field.replace(/\W/g, '')}.txt` },
        ]),
      ),
    );
    return f.server.app.http.inject({
      method: 'POST',
      url: '/api/v10/interactions',
      headers: { authorization: f.guild.owner.token, 'content-type': body.type },
      payload: body.payload,
    });
  };
  /** Fetches a resolved attachment's signed URL through the server. */
  const download = (url: string) =>
    f.server.app.http.inject({ method: 'GET', url: url.slice(new URL(url).origin.length) });

  it('resolves an attachment option to the uploaded file, served at its signed URL', async () => {
    const command = await f.command({
      name: 'upload',
      description: 'Takes a file',
      options: [{ type: 11, name: 'file', description: 'The file', required: true }],
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const res = await post(
      {
        type: 2,
        application_id: f.guild.bot.applicationId,
        channel_id: await f.channelId(),
        session_id: 's',
        data: {
          id: command['id'],
          name: 'upload',
          type: 1,
          options: [{ name: 'file', type: 11, value: '0' }],
          attachments: [{ id: '0', filename: 'notes.txt' }],
        },
      },
      { 'files[0]': 'hello file' },
    );
    expect(res.statusCode).toBe(204);
    const created = (await bot.dispatch('INTERACTION_CREATE')).d as {
      id: string;
      data: {
        options: { value: string }[];
        resolved: { attachments: Record<string, { url: string; filename: string; size: number }> };
      };
    };
    const attachmentId = created.data.options[0]?.value ?? '';
    expect(attachmentId).not.toBe('0');
    const attachment = created.data.resolved.attachments[attachmentId];
    expect(attachment).toMatchObject({ id: attachmentId, filename: 'notes.txt', size: 10 });
    const file = await download(attachment?.url ?? '');
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('hello file');
    // Unsigned, or once the interaction is gone: not found.
    expect((await download((attachment?.url ?? '').split('?')[0] ?? '')).statusCode).toBe(404);
    f.clock.advance(15 * 60_000);
    await f.server.app.services.interactionLifecycle.sweep();
    expect((await download(attachment?.url ?? '')).statusCode).toBe(404);
  });

  it("takes a modal's File Upload with its files, and refuses files nobody listed", async () => {
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const command = await f.command({ name: 'form', description: 'A form' });
    const channelId = await f.channelId();
    const invoke = {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: channelId,
      session_id: 's',
      data: { id: command['id'], name: 'form', type: 1 },
    };
    expect((await f.call('POST', '/interactions', f.guild.owner.token, invoke)).statusCode).toBe(
      204,
    );
    const first = (await bot.dispatch('INTERACTION_CREATE')).d as { id: string };
    const modal = validateModal({
      custom_id: 'docs',
      title: 'Your documents',
      components: [{ type: 18, label: 'Files', component: { type: 19, custom_id: 'doc' } }],
    });
    await f.server.app.storage.interactions.setModal(first.id, 'docs', modal);
    const submit = (files: Record<string, string>, attachments: unknown[], values: string[]) =>
      post(
        {
          type: 5,
          application_id: f.guild.bot.applicationId,
          channel_id: channelId,
          session_id: 's',
          data: {
            custom_id: 'docs',
            components: [{ type: 18, component: { type: 19, custom_id: 'doc', values } }],
            attachments,
          },
        },
        files,
      );
    const unlisted = await submit({ 'files[0]': 'a', 'files[1]': 'b' }, [{ id: 0 }], ['0']);
    expect(unlisted.statusCode).toBe(400);
    expect(unlisted.json()).toMatchObject({ code: 50035 });
    const ok = await submit({ 'files[0]': 'report' }, [{ id: 0, filename: 'r.txt' }], ['0']);
    expect(ok.statusCode).toBe(204);
    const submitted = await bot.next(
      (frame) => frame.t === 'INTERACTION_CREATE' && (frame.d as { type: number }).type === 5,
    );
    const data = (
      submitted.d as {
        data: {
          components: { component: { values: string[] } }[];
          resolved: { attachments: Record<string, { filename: string; url: string }> };
        };
      }
    ).data;
    const [uploadedId = ''] = data.components[0]?.component.values ?? [];
    expect(data.resolved.attachments[uploadedId]).toMatchObject({ filename: 'r.txt' });
    expect((await download(data.resolved.attachments[uploadedId]?.url ?? '')).body).toBe('report');
  });
});
