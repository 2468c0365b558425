import { useId } from 'react';
import {
  ComponentType,
  TextInputStyle,
  type APIChannel,
  type APITextInputComponent,
} from 'discord-api-types/v10';
import { Field, FieldFrame } from '../../components/Field.js';
import type { ModalAnswer, ModalField } from './modalPayload.js';
import { SelectField } from './OptionField.js';
import { usePickChoices, type PickKind } from './pickers.js';

interface FieldProps {
  field: ModalField;
  label: string;
  description?: string | undefined;
  answer: ModalAnswer;
  error: string | undefined;
  channel: APIChannel;
  onChange: (answer: ModalAnswer) => void;
}

const required = (field: ModalField) => !('required' in field) || field.required !== false;
const shownLabel = (field: ModalField, label: string) =>
  field.type !== ComponentType.Checkbox && required(field) ? `${label} (required)` : label;

/** The `accept` of a File Upload: its file-type groups and extensions. */
function acceptOf(types: readonly string[] | undefined): string | undefined {
  if (types === undefined || types.length === 0) return undefined;
  return types.map((t) => (t.startsWith('.') ? t : `${t}/*`)).join(',');
}

/** A fieldset of radios or checkboxes (Radio Group, Checkbox Group, multi String Select). */
function ChoiceSet({
  legend,
  description,
  error,
  multiple,
  options,
  answer,
  onChange,
}: {
  legend: string;
  description?: string | undefined;
  error: string | undefined;
  multiple: boolean;
  options: { value: string; label: string; description?: string | undefined }[];
  answer: ModalAnswer;
  onChange: (answer: ModalAnswer) => void;
}) {
  const id = useId();
  const picked: string[] = Array.isArray(answer)
    ? answer.filter((v): v is string => typeof v === 'string')
    : typeof answer === 'string'
      ? [answer]
      : [];
  return (
    <fieldset
      className="field choice-set"
      aria-invalid={error === undefined ? undefined : true}
      aria-describedby={error === undefined ? undefined : `${id}-error`}
    >
      <legend>{legend}</legend>
      {description === undefined ? null : <p className="hint">{description}</p>}
      {options.map((option) => (
        <label key={option.value} className="choice">
          <input
            type={multiple ? 'checkbox' : 'radio'}
            name={id}
            value={option.value}
            checked={picked.includes(option.value)}
            onChange={(event) => {
              if (!multiple) onChange(option.value);
              else
                onChange(
                  event.target.checked
                    ? [...picked, option.value]
                    : picked.filter((v) => v !== option.value),
                );
            }}
          />{' '}
          {option.label}
          {option.description === undefined ? null : (
            <span className="hint"> — {option.description}</span>
          )}
        </label>
      ))}
      {error === undefined ? null : (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function TextInputField({
  field,
  label,
  description,
  answer,
  error,
  onChange,
}: FieldProps & { field: APITextInputComponent }) {
  const value = typeof answer === 'string' ? answer : '';
  const common = {
    placeholder: field.placeholder,
    minLength: field.min_length,
    maxLength: field.max_length,
    required: required(field),
  };
  if (field.style === TextInputStyle.Paragraph) {
    return (
      <FieldFrame label={shownLabel(field, label)} error={error} hint={description}>
        {(control) => (
          <textarea
            {...control}
            rows={4}
            value={value}
            onChange={(event) => {
              onChange(event.target.value);
            }}
            {...common}
          />
        )}
      </FieldFrame>
    );
  }
  return (
    <Field
      label={shownLabel(field, label)}
      hint={description}
      error={error}
      value={value}
      onChange={(event) => {
        onChange(event.target.value);
      }}
      {...common}
    />
  );
}

function AutoSelectField(props: FieldProps & { kind: PickKind }) {
  const { field, label, description, answer, error, channel, onChange, kind } = props;
  const types = field.type === ComponentType.ChannelSelect ? field.channel_types : undefined;
  const choices = usePickChoices(channel, kind, types);
  const options = choices.map((c) => ({
    value: c.id,
    label: c.type === 'role' && kind === 'mentionable' ? `@${c.label}` : c.label,
  }));
  return (
    <SelectMenu
      legend={shownLabel(field, label)}
      description={description}
      error={error}
      multiple={('max_values' in field ? (field.max_values ?? 1) : 1) > 1}
      options={options}
      placeholder={'placeholder' in field ? (field.placeholder ?? 'Choose…') : 'Choose…'}
      answer={answer}
      onChange={onChange}
    />
  );
}

/**
 * A select menu of a modal: checkboxes when several values may be picked, else a single
 * select with an empty first choice (no answer).
 */
function SelectMenu(
  props: Parameters<typeof ChoiceSet>[0] & { placeholder: string },
): React.JSX.Element {
  const { legend, description, error, options, answer, onChange, placeholder } = props;
  if (props.multiple) return <ChoiceSet {...props} />;
  return (
    <SelectField
      label={legend}
      hint={description}
      error={error}
      value={Array.isArray(answer) && typeof answer[0] === 'string' ? answer[0] : ''}
      onChange={(value) => {
        onChange(value === '' ? [] : [value]);
      }}
    >
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </SelectField>
  );
}

/** One interactive component of a modal, under its Label's text. */
export function ModalFieldView(props: FieldProps): React.JSX.Element | null {
  const { field, label, description, answer, error, onChange } = props;
  switch (field.type) {
    case ComponentType.UserSelect:
      return <AutoSelectField {...props} kind="user" />;
    case ComponentType.RoleSelect:
      return <AutoSelectField {...props} kind="role" />;
    case ComponentType.MentionableSelect:
      return <AutoSelectField {...props} kind="mentionable" />;
    case ComponentType.ChannelSelect:
      return <AutoSelectField {...props} kind="channel" />;
    case ComponentType.TextInput:
      return <TextInputField {...props} field={field} />;
    case ComponentType.StringSelect: {
      const options = field.options.map((o) => ({
        value: o.value,
        label: o.label,
        description: o.description,
      }));
      return (
        <SelectMenu
          legend={shownLabel(field, label)}
          description={description}
          error={error}
          multiple={(field.max_values ?? 1) > 1}
          options={options}
          placeholder={field.placeholder ?? 'Choose…'}
          answer={answer}
          onChange={onChange}
        />
      );
    }
    case ComponentType.FileUpload:
      return (
        <Field
          label={shownLabel(field, label)}
          hint={description}
          error={error}
          type="file"
          multiple={(field.max_values ?? 1) > 1}
          accept={acceptOf(field.file_types)}
          onChange={(event) => {
            onChange([...(event.target.files ?? [])]);
          }}
        />
      );
    case ComponentType.RadioGroup:
      return (
        <ChoiceSet
          legend={shownLabel(field, label)}
          description={description}
          error={error}
          multiple={false}
          options={field.options}
          answer={answer}
          onChange={onChange}
        />
      );
    case ComponentType.CheckboxGroup:
      return (
        <ChoiceSet
          legend={shownLabel(field, label)}
          description={description}
          error={error}
          multiple
          options={field.options}
          answer={answer}
          onChange={onChange}
        />
      );
    case ComponentType.Checkbox:
      return (
        <div className="field">
          <label className="choice">
            <input
              type="checkbox"
              checked={answer === true}
              onChange={(event) => {
                onChange(event.target.checked);
              }}
            />{' '}
            {label}
          </label>
          {description === undefined ? null : <p className="hint">{description}</p>}
        </div>
      );
    default:
      return null;
  }
}
