import { useState } from 'react';
import { ComponentType, type APIChannel, type APISelectMenuComponent } from 'discord-api-types/v10';
import { usePickChoices, type PickKind } from './pickers.js';
import type { ComponentActions } from './useComponentActions.js';

const KINDS: Partial<Record<number, PickKind>> = {
  [ComponentType.UserSelect]: 'user',
  [ComponentType.RoleSelect]: 'role',
  [ComponentType.MentionableSelect]: 'mentionable',
  [ComponentType.ChannelSelect]: 'channel',
};

interface Choice {
  value: string;
  label: string;
  description?: string | undefined;
}

/** The options of a select: a String Select's own, or people, roles or channels the client knows. */
function useChoices(select: APISelectMenuComponent, channel: APIChannel): Choice[] {
  const kind = KINDS[select.type] ?? 'user';
  const types = select.type === ComponentType.ChannelSelect ? select.channel_types : undefined;
  const picks = usePickChoices(channel, kind, types);
  if (select.type === ComponentType.StringSelect) {
    return select.options.map((o) => ({
      value: o.value,
      label: [o.emoji?.name, o.label].filter((p) => p !== undefined).join(' '),
      description: o.description,
    }));
  }
  return picks.map((p) => ({
    value: p.id,
    label: p.type === 'role' && kind === 'mentionable' ? `@${p.label}` : p.label,
  }));
}

function initialValues(select: APISelectMenuComponent): string[] {
  if (select.type === ComponentType.StringSelect) {
    return select.options.filter((o) => o.default === true).map((o) => o.value);
  }
  return (select.default_values ?? []).map((d) => d.id);
}

/**
 * A select menu of an app's message: one choice sends at once; several are picked in a list
 * and sent with "Apply" once their count is within min_values–max_values.
 */
export function SelectMenu({
  select,
  channel,
  actions,
}: {
  select: APISelectMenuComponent;
  channel: APIChannel;
  actions: ComponentActions;
}) {
  const choices = useChoices(select, channel);
  const [values, setValues] = useState<string[]>(() => initialValues(select));
  const min = select.min_values ?? 1;
  const max = select.max_values ?? 1;
  const busy = actions.pending.has(select.custom_id);
  const disabled = select.disabled === true || busy;
  const label = select.placeholder ?? 'Make a selection';
  const send = (picked: string[]) => {
    actions.send(select.type, select.custom_id, picked);
  };
  if (max <= 1) {
    return (
      <select
        className="app-select"
        aria-label={label}
        aria-busy={busy || undefined}
        disabled={disabled}
        value={values[0] ?? ''}
        onChange={(event) => {
          const picked = event.target.value === '' ? [] : [event.target.value];
          setValues(picked);
          if (picked.length >= min) send(picked);
        }}
      >
        <option value="" disabled={min > 0}>
          {label}
        </option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value} title={choice.description}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  }
  const outOfRange = values.length < min || values.length > max;
  return (
    <div className="app-select-multi">
      <select
        multiple
        className="app-select"
        aria-label={label}
        aria-busy={busy || undefined}
        disabled={disabled}
        value={values}
        size={Math.min(choices.length, 6)}
        onChange={(event) => {
          setValues([...event.target.selectedOptions].map((o) => o.value));
        }}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value} title={choice.description}>
            {choice.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="secondary"
        disabled={disabled || outOfRange}
        onClick={() => {
          send(values);
        }}
      >
        Apply
      </button>
      <span className="hint">{min === max ? `Pick ${min}.` : `Pick ${min} to ${max}.`}</span>
    </div>
  );
}
