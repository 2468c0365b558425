import type { ReactNode } from 'react';
import {
  ApplicationCommandOptionType,
  type APIApplicationCommandBasicOption,
  type APIChannel,
} from 'discord-api-types/v10';
import { Field, FieldFrame } from '../../components/Field.js';
import type { FieldValue } from './commandOptions.js';
import { usePickChoices, type PickKind } from './pickers.js';

/** A labelled select with the API's or the form's message under it (as Field for inputs). */
export function SelectField({
  label,
  error,
  hint,
  value,
  onChange,
  children,
  required,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
  required?: boolean;
}) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <select
          {...control}
          value={value}
          required={required}
          onChange={(event) => {
            onChange(event.target.value);
          }}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}

const PICKS: Partial<Record<number, PickKind>> = {
  [ApplicationCommandOptionType.User]: 'user',
  [ApplicationCommandOptionType.Channel]: 'channel',
  [ApplicationCommandOptionType.Role]: 'role',
  [ApplicationCommandOptionType.Mentionable]: 'mentionable',
};

function Picker({
  channel,
  kind,
  option,
  value,
  error,
  onChange,
}: {
  channel: APIChannel;
  kind: PickKind;
  option: APIApplicationCommandBasicOption;
  value: FieldValue;
  error: string | undefined;
  onChange: (value: FieldValue) => void;
}) {
  const types =
    option.type === ApplicationCommandOptionType.Channel ? option.channel_types : undefined;
  const choices = usePickChoices(channel, kind, types);
  return (
    <SelectField
      label={optionLabel(option)}
      hint={option.description}
      error={error}
      value={typeof value === 'string' ? value : ''}
      required={option.required === true}
      onChange={(id) => {
        onChange(id === '' ? null : id);
      }}
    >
      <option value="">Choose…</option>
      {choices.map((choice) => (
        <option key={`${choice.type}:${choice.id}`} value={choice.id}>
          {choice.type === 'role' && kind === 'mentionable' ? `@${choice.label}` : choice.label}
        </option>
      ))}
    </SelectField>
  );
}

/** The field's label: the option's name, marked when required. */
export function optionLabel(option: { name: string; required?: boolean }): string {
  return option.required === true ? `${option.name} (required)` : option.name;
}

/** One command option as a form field, by its type. */
export function OptionField({
  channel,
  option,
  value,
  error,
  onChange,
  onFocusText,
}: {
  channel: APIChannel;
  option: APIApplicationCommandBasicOption;
  value: FieldValue;
  error: string | undefined;
  onChange: (value: FieldValue) => void;
  /** Told when an autocomplete option's text changes or gets focus. */
  onFocusText?: (text: string) => void;
}) {
  const pick = PICKS[option.type];
  if (pick !== undefined) {
    return (
      <Picker
        channel={channel}
        kind={pick}
        option={option}
        value={value}
        error={error}
        onChange={onChange}
      />
    );
  }
  if (option.type === ApplicationCommandOptionType.Boolean) {
    return (
      <SelectField
        label={optionLabel(option)}
        hint={option.description}
        error={error}
        value={value === true ? 'true' : value === false ? 'false' : ''}
        required={option.required === true}
        onChange={(text) => {
          onChange(text === '' ? null : text === 'true');
        }}
      >
        <option value="">Choose…</option>
        <option value="true">True</option>
        <option value="false">False</option>
      </SelectField>
    );
  }
  if (option.type === ApplicationCommandOptionType.Attachment) {
    return (
      <Field
        label={optionLabel(option)}
        hint={option.description}
        error={error}
        type="file"
        required={option.required === true}
        onChange={(event) => {
          onChange(event.target.files?.[0] ?? null);
        }}
      />
    );
  }
  const choices = 'choices' in option ? option.choices : undefined;
  if (choices !== undefined && choices.length > 0) {
    return (
      <SelectField
        label={optionLabel(option)}
        hint={option.description}
        error={error}
        value={typeof value === 'string' ? value : ''}
        required={option.required === true}
        onChange={(text) => {
          onChange(text === '' ? null : text);
        }}
      >
        <option value="">Choose…</option>
        {choices.map((choice) => (
          <option key={String(choice.value)} value={String(choice.value)}>
            {choice.name}
          </option>
        ))}
      </SelectField>
    );
  }
  const numeric =
    option.type === ApplicationCommandOptionType.Integer ||
    option.type === ApplicationCommandOptionType.Number;
  const range =
    numeric && (option.min_value !== undefined || option.max_value !== undefined)
      ? ` (${option.min_value ?? '…'} to ${option.max_value ?? '…'})`
      : '';
  const autocomplete = 'autocomplete' in option && option.autocomplete === true;
  return (
    <Field
      label={optionLabel(option)}
      hint={`${option.description}${range}`}
      error={error}
      value={typeof value === 'string' ? value : ''}
      inputMode={
        numeric
          ? option.type === ApplicationCommandOptionType.Integer
            ? 'numeric'
            : 'decimal'
          : undefined
      }
      required={option.required === true}
      minLength={
        option.type === ApplicationCommandOptionType.String ? option.min_length : undefined
      }
      maxLength={
        option.type === ApplicationCommandOptionType.String ? option.max_length : undefined
      }
      autoComplete="off"
      onChange={(event) => {
        onChange(event.target.value);
        if (autocomplete) onFocusText?.(event.target.value);
      }}
      onFocus={(event) => {
        if (autocomplete) onFocusText?.(event.target.value);
      }}
    />
  );
}
