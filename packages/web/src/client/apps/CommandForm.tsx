import { useEffect, useRef, useState } from 'react';
import type { APIApplicationCommandOptionChoice, APIChannel } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { useClient } from '../context.js';
import {
  buildCommandData,
  validateOptions,
  type CommandEntry,
  type FieldValue,
} from './commandOptions.js';
import {
  InteractionKind,
  interactionBody,
  makeInteractionNonce,
  NO_RESPONSE,
  sendInteraction,
} from './interactions.js';
import { OptionField } from './OptionField.js';
import { useFocusInvalid } from '../../components/useFocusInvalid.js';

/** How long typing pauses before autocomplete asks the app (ms). */
export const AUTOCOMPLETE_DEBOUNCE_MS = 300;

type Status = { kind: 'editing' } | { kind: 'sending' } | { kind: 'error'; message: string };

interface Suggestions {
  option: string;
  choices: APIApplicationCommandOptionChoice[];
}

/**
 * A chosen command's options as fields: required ones enforced, values checked as the API
 * checks them, autocomplete asked of the app (type 4, debounced, answers matched by nonce),
 * Enter or "Send" invokes it (type 2). While the app has not answered: "<app> is thinking…";
 * INTERACTION_FAILURE: "The application did not respond".
 */
export function CommandForm({
  channel,
  entry,
  onCancel,
  onDone,
}: {
  channel: APIChannel;
  entry: CommandEntry;
  onCancel: () => void;
  onDone: () => void;
}) {
  const client = useClient();
  const [values, setValues] = useState<Record<string, FieldValue>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>({ kind: 'editing' });
  const [suggestions, setSuggestions] = useState<Suggestions | null>(null);
  const latestNonce = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const formRef = useRef<HTMLDivElement>(null);
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const focusInvalid = useFocusInvalid(formRef, errors);

  // Only the answer to the latest autocomplete request is shown; older ones are stale.
  useEffect(() => {
    const off = client.gateway.on('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', (data) => {
      const answer = data as { nonce?: string; choices?: APIApplicationCommandOptionChoice[] };
      if (answer.nonce === undefined || answer.nonce !== latestNonce.current) return;
      setSuggestions((current) =>
        current === null ? null : { option: current.option, choices: answer.choices ?? [] },
      );
    });
    return () => {
      off();
      clearTimeout(timer.current);
    };
  }, [client.gateway]);

  useEffect(() => {
    const form = formRef.current;
    (
      form?.querySelector<HTMLElement>('input, select, textarea') ??
      form?.querySelector<HTMLElement>('.command-form-actions button:last-child')
    )?.focus();
  }, []);

  const askAutocomplete = (option: string) => {
    clearTimeout(timer.current);
    setSuggestions({ option, choices: [] });
    timer.current = setTimeout(() => {
      const sessionId = client.store.get().sessionId;
      if (sessionId === null) return;
      const nonce = makeInteractionNonce();
      latestNonce.current = nonce;
      const { data } = buildCommandData(entry, valuesRef.current, option);
      api('POST', '/interactions', {
        body: interactionBody(
          {
            type: InteractionKind.AUTOCOMPLETE,
            applicationId: entry.command.application_id,
            channel,
            data,
          },
          sessionId,
          nonce,
        ),
      }).catch(() => {
        // Suggestions are a help: a refused request leaves the field as typed.
      });
    }, AUTOCOMPLETE_DEBOUNCE_MS);
  };

  const submit = async () => {
    const found = validateOptions(entry.options, values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusInvalid();
      return;
    }
    const { data, files } = buildCommandData(entry, values);
    setStatus({ kind: 'sending' });
    setSuggestions(null);
    try {
      const outcome = await sendInteraction(client, {
        type: InteractionKind.COMMAND,
        applicationId: entry.command.application_id,
        channel,
        data,
        files,
      });
      if (outcome === 'success') onDone();
      else setStatus({ kind: 'error', message: NO_RESPONSE });
    } catch (error) {
      setStatus({ kind: 'error', message: errorMessage(error) });
    }
  };

  return (
    // Not a <form>: the composer around it is one, and forms do not nest. Enter in a field
    // sends, as a form would.
    <div
      ref={formRef}
      role="form"
      className="command-form"
      aria-label={`/${entry.label}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          if (suggestions !== null) setSuggestions(null);
          else onCancel();
        } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          void submit();
        }
      }}
    >
      <div className="command-form-header">
        <span className="command-chip">/{entry.label}</span>
        <span className="command-form-app">{entry.appName}</span>
      </div>
      {entry.options.length === 0 ? (
        <p className="hint">This command has no options. Press Enter to send it.</p>
      ) : null}
      {entry.options.map((option) => (
        <div key={option.name} className="command-option-field">
          <OptionField
            channel={channel}
            option={option}
            value={values[option.name] ?? null}
            error={errors[option.name]}
            onChange={(value) => {
              setValues((current) => ({ ...current, [option.name]: value }));
            }}
            onFocusText={() => {
              askAutocomplete(option.name);
            }}
          />
          {suggestions?.option === option.name && suggestions.choices.length > 0 ? (
            <ul className="autocomplete-choices" aria-label={`${option.name} suggestions`}>
              {suggestions.choices.map((choice) => (
                <li key={String(choice.value)}>
                  <button
                    type="button"
                    onClick={() => {
                      setValues((current) => ({ ...current, [option.name]: String(choice.value) }));
                      setSuggestions(null);
                    }}
                  >
                    {choice.name}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ))}
      <div className="command-form-actions">
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          disabled={status.kind === 'sending'}
          onClick={() => {
            void submit();
          }}
        >
          Send
        </button>
      </div>
      <div role="status" aria-live="polite" className="command-status">
        {status.kind === 'sending' ? `${entry.appName} is thinking…` : null}
      </div>
      {status.kind === 'error' ? (
        <p className="form-error" role="alert">
          {status.message}
        </p>
      ) : null}
    </div>
  );
}
