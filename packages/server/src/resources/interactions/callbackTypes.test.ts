import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useRespondFixture } from '../../../test/support/respondFixture.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

const CALLBACK = ['POST', '/interactions/1/t/callback'] as [string, string];

const BUTTON_ROW = {
  type: 1,
  components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }],
};

const MODAL = {
  custom_id: 'feedback',
  title: 'Feedback',
  components: [
    {
      type: 18,
      label: 'Your name',
      component: { type: 4, custom_id: 'name', style: 1, required: true },
    },
    { type: 10, content: 'Thanks for writing.' },
  ],
};

describeDrivers(
  'interaction callbacks for components, modals and autocomplete ($driver)',
  (driver) => {
    const f = useRespondFixture(driver);

    /** A message of the bot with a button, as a component interaction's source. */
    async function botMessage(): Promise<{ id: string }> {
      const res = await f.g.call('POST', `/channels/${f.channelId}/messages`, {
        auth: f.g.bot.token,
        payload: { content: 'press it', components: [BUTTON_ROW] },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    }

    it('updates the message a button is on (UPDATE_MESSAGE), and it becomes the original', async () => {
      const message = await botMessage();
      const interaction = await f.seed({ type: 3, messageId: message.id });
      const res = await f.callback(
        interaction,
        { type: 7, data: { content: 'pressed', components: [] } },
        { query: '?with_response=true' },
      );
      expect(res.statusCode, res.body).toBe(200);
      expectOpenApiResponse(res, ...CALLBACK);
      expect(res.json()).toMatchObject({
        interaction: { id: interaction.id, type: 3, response_message_id: message.id },
        resource: { type: 7, message: { id: message.id, content: 'pressed', components: [] } },
      });
      const updated = await f.dispatches.next('MESSAGE_UPDATE');
      expect(updated.data).toMatchObject({ id: message.id, content: 'pressed' });
      expect(await f.stored(interaction.id)).toMatchObject({
        responseType: 7,
        originalMessageId: message.id,
      });
      // The original response is that message: the app edits it again through the token.
      const edit = await f.tokenRoute(
        'PATCH',
        `/webhooks/${f.g.bot.applicationId}/${interaction.token}/messages/@original`,
        { content: 'and again' },
      );
      expect(edit.statusCode, edit.body).toBe(200);
      expect(edit.json()).toMatchObject({ id: message.id, content: 'and again' });
    });

    it('acknowledges a click without changes (DEFERRED_UPDATE_MESSAGE)', async () => {
      const message = await botMessage();
      const interaction = await f.seed({ type: 3, messageId: message.id });
      const res = await f.callback(interaction, { type: 6 });
      expect(res.statusCode, res.body).toBe(204);
      expect(await f.stored(interaction.id)).toMatchObject({
        responseType: 6,
        originalMessageId: message.id,
      });
      expect(f.dispatches.ofType('MESSAGE_UPDATE')).toEqual([]);
      const original = await f.tokenRoute(
        'GET',
        `/webhooks/${f.g.bot.applicationId}/${interaction.token}/messages/@original`,
      );
      expect(original.json()).toMatchObject({ id: message.id, content: 'press it' });
    });

    it('answers a click with a new message of type 0 naming the clicked message', async () => {
      const message = await botMessage();
      const interaction = await f.seed({ type: 3, messageId: message.id });
      const res = await f.callback(
        interaction,
        { type: 4, data: { content: 'you clicked' } },
        {
          query: '?with_response=true',
        },
      );
      expect(res.json()).toMatchObject({
        resource: {
          message: {
            type: 0,
            interaction_metadata: { type: 3, interacted_message_id: message.id },
          },
        },
      });
    });

    it('shows a modal to the invoking user and keeps it for the submit', async () => {
      const interaction = await f.seed({ type: 2 });
      const res = await f.callback(interaction, { type: 9, data: MODAL });
      expect(res.statusCode, res.body).toBe(204);
      const shown = await f.dispatches.next('INTERACTION_MODAL_CREATE');
      expect(shown).toMatchObject({
        guildId: null,
        userIds: [f.member.userId],
        applicationId: f.g.bot.applicationId,
        data: {
          id: interaction.id,
          channel_id: f.channelId,
          custom_id: 'feedback',
          title: 'Feedback',
          application: { id: f.g.bot.applicationId },
          nonce: `nonce-${interaction.id}`,
        },
      });
      expect((shown.data as { components: unknown[] }).components).toHaveLength(2);
      expect(await f.stored(interaction.id)).toMatchObject({
        responseType: 9,
        modalCustomId: 'feedback',
        modal: { custom_id: 'feedback', title: 'Feedback' },
      });
    });

    it('refuses a bad modal with the platform error and acknowledges nothing', async () => {
      const interaction = await f.seed({ type: 2 });
      const disabled = {
        ...MODAL,
        components: [
          {
            type: 18,
            label: 'Pick',
            component: {
              type: 3,
              custom_id: 'p',
              disabled: true,
              options: [{ label: 'a', value: 'a' }],
            },
          },
        ],
      };
      for (const data of [
        disabled,
        { ...MODAL, title: 'x'.repeat(46) },
        { ...MODAL, components: [] },
        { ...MODAL, custom_id: undefined },
      ]) {
        const res = await f.callback(interaction, { type: 9, data });
        f.expectError(res, 50035, CALLBACK);
        expect(res.json()).toHaveProperty('errors.data');
      }
      f.expectError(await f.callback(interaction, { type: 9 }), 50035, CALLBACK);
      expect(await f.stored(interaction.id)).toMatchObject({ responseType: null, modal: null });
      expect(f.dispatches.ofType('INTERACTION_MODAL_CREATE')).toEqual([]);
    });

    it('answers a modal submit opened from a button with UPDATE_MESSAGE on that message', async () => {
      const message = await botMessage();
      const submit = await f.seed({ type: 5, customId: 'feedback', fromMessageId: message.id });
      const res = await f.callback(submit, { type: 7, data: { content: 'thanks' } });
      expect(res.statusCode, res.body).toBe(204);
      expect((await f.dispatches.next('MESSAGE_UPDATE')).data).toMatchObject({
        id: message.id,
        content: 'thanks',
      });
    });

    it('sends autocomplete choices to the invoking user only', async () => {
      const interaction = await f.seed({
        type: 4,
        options: [{ name: 'fruit', type: 3, value: 'ap', focused: true }],
      });
      const choices = [
        { name: 'Apple', value: 'apple' },
        { name: 'Apricot', value: 'apricot', name_localizations: { fr: 'Abricot' } },
      ];
      const res = await f.callback(interaction, { type: 8, data: { choices } });
      expect(res.statusCode, res.body).toBe(204);
      const sent = await f.dispatches.next('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE');
      expect(sent).toMatchObject({
        guildId: null,
        userIds: [f.member.userId],
        data: { id: interaction.id, choices, nonce: `nonce-${interaction.id}` },
      });
    });

    it('refuses more than 25 choices, or values of the wrong type', async () => {
      const interaction = await f.seed({
        type: 4,
        options: [
          { name: 'sub', type: 1, options: [{ name: 'n', type: 4, value: '1', focused: true }] },
        ],
      });
      const many = Array.from({ length: 26 }, (_, i) => ({ name: `n${String(i)}`, value: i }));
      const tooMany = await f.callback(interaction, { type: 8, data: { choices: many } });
      f.expectError(tooMany, 50035, CALLBACK);
      expect(tooMany.json()).toHaveProperty('errors.data.choices');
      const wrongType = await f.callback(interaction, {
        type: 8,
        data: {
          choices: [
            { name: 'one', value: 1 },
            { name: 'half', value: 1.5 },
          ],
        },
      });
      f.expectError(wrongType, 50035, CALLBACK);
      expect(wrongType.json()).toMatchObject({
        errors: {
          data: { choices: { '1': { value: { _errors: [{ code: 'NUMBER_TYPE_COERCE' }] } } } },
        },
      });
      f.expectError(await f.callback(interaction, { type: 8 }), 50035, CALLBACK);
      expect(await f.stored(interaction.id)).toMatchObject({ responseType: null });
      expect(f.dispatches.ofType('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE')).toEqual([]);
    });
  },
);
