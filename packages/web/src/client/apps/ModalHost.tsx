import { useEffect, useRef, useState } from 'react';
import { ChannelType, ComponentType, type APIChannel } from 'discord-api-types/v10';
import { Dialog } from '../../components/Dialog.js';
import { useFocusInvalid } from '../../components/useFocusInvalid.js';
import { errorMessage } from '../../lib/api.js';
import { useClient } from '../context.js';
import { Markdown } from '../messages/Markdown.js';
import { guildIdOf, InteractionKind, NO_RESPONSE, sendInteraction } from './interactions.js';
import {
  buildModalSubmit,
  initialAnswers,
  validateModal,
  type ModalAnswer,
  type ModalCreate,
} from './modalPayload.js';
import { ModalFieldView } from './ModalField.js';
import { dismissNotice, useNotices } from './notices.js';
import '../../styles/apps.css';

/**
 * Shows the modals apps open (INTERACTION_MODAL_CREATE, on this person's own sessions), one at a
 * time in arrival order, and the apps' notices. Mounted once in the shell.
 */
export function ModalHost(): React.JSX.Element | null {
  const { gateway } = useClient();
  const [queue, setQueue] = useState<ModalCreate[]>([]);
  const notices = useNotices();
  useEffect(
    () =>
      gateway.on('INTERACTION_MODAL_CREATE', (data) => {
        setQueue((current) => [...current, data as ModalCreate]);
      }),
    [gateway],
  );
  const modal = queue[0];
  // By id: a modal cancelled while its submit is in flight must not, when the app's answer
  // comes, close the one shown after it.
  const close = (id: string) => {
    setQueue((current) => current.filter((m) => m.id !== id));
  };
  return (
    <>
      {notices.length === 0 ? null : (
        <div className="app-notices" role="alert">
          {notices.map((notice) => (
            <p key={notice.id} className="app-notice">
              {notice.text}{' '}
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  dismissNotice(notice.id);
                }}
              >
                Dismiss
              </button>
            </p>
          ))}
        </div>
      )}
      {modal === undefined ? null : (
        <AppModal
          key={modal.id}
          modal={modal}
          onClose={() => {
            close(modal.id);
          }}
        />
      )}
    </>
  );
}

/** The channel a modal was opened in; a DM this client has not loaded is known by its id only. */
function useModalChannel(channelId: string): APIChannel {
  const { store } = useClient();
  return (
    store.get().channels[channelId] ??
    ({ id: channelId, type: ChannelType.DM } as unknown as APIChannel)
  );
}

function AppModal({ modal, onClose }: { modal: ModalCreate; onClose: () => void }) {
  const client = useClient();
  const channel = useModalChannel(modal.channel_id);
  const [answers, setAnswers] = useState<Record<string, ModalAnswer>>(() =>
    initialAnswers(modal.components),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const guildId = guildIdOf(channel) ?? null;
  const formRef = useRef<HTMLFormElement>(null);
  const focusInvalid = useFocusInvalid(formRef, errors);

  const submit = async () => {
    const found = validateModal(modal.components, answers);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) {
      focusInvalid();
      return;
    }
    const { data, files } = buildModalSubmit(modal, answers);
    setSending(true);
    try {
      const outcome = await sendInteraction(client, {
        type: InteractionKind.MODAL_SUBMIT,
        applicationId: modal.application.id,
        channel,
        data,
        files,
      });
      if (outcome === 'success') onClose();
      else setFailure(NO_RESPONSE);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSending(false);
    }
  };

  const set = (customId: string) => (answer: ModalAnswer) => {
    setAnswers((current) => ({ ...current, [customId]: answer }));
  };

  return (
    <Dialog
      title={modal.title}
      description={modal.application.name}
      onClose={onClose}
      className="app-modal"
    >
      <form
        ref={formRef}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {modal.components.map((component, i) => {
          switch (component.type) {
            case ComponentType.TextDisplay:
              return (
                <div key={i} className="app-text">
                  <Markdown content={component.content} guildId={guildId} />
                </div>
              );
            case ComponentType.Label:
              return (
                <ModalFieldView
                  key={i}
                  field={component.component}
                  label={component.label}
                  description={component.description}
                  answer={answers[component.component.custom_id] ?? null}
                  error={errors[component.component.custom_id]}
                  channel={channel}
                  onChange={set(component.component.custom_id)}
                />
              );
            case ComponentType.ActionRow:
              return component.components.map((input) => (
                <ModalFieldView
                  key={input.custom_id}
                  field={input}
                  label={input.label ?? input.custom_id}
                  answer={answers[input.custom_id] ?? null}
                  error={errors[input.custom_id]}
                  channel={channel}
                  onChange={set(input.custom_id)}
                />
              ));
            default:
              return null;
          }
        })}
        {failure === null ? null : (
          <p className="form-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={sending}>
            {sending ? 'Submitting…' : 'Submit'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
