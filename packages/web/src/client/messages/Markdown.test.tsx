import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Markdown } from './Markdown.js';
import { parseMarkdown } from './markdown.js';
import { GUILD_ID, ME, readyState, renderWithClient, CHANNEL_ID } from '../test/render.js';
import { reduce } from '../state.js';

afterEach(cleanup);

function show(content: string) {
  let state = readyState();
  state = reduce(
    state,
    {
      t: 'GUILD_ROLE_CREATE',
      d: {
        guild_id: GUILD_ID,
        role: {
          id: '500000000000000001',
          name: 'Mods',
          permissions: '0',
          position: 1,
          color: 0xff0000,
          colors: { primary_color: 0xff0000, secondary_color: null, tertiary_color: null },
          hoist: false,
          managed: false,
          mentionable: true,
          icon: null,
          unicode_emoji: null,
          flags: 0,
        },
      },
    },
    0,
  );
  renderWithClient(
    <div data-testid="md">
      <Markdown content={content} guildId={GUILD_ID} />
    </div>,
    state,
  );
  return screen.getByTestId('md');
}

describe('parseMarkdown', () => {
  it('reads the inline styles, nested', () => {
    expect(parseMarkdown('**bold *it* __u__** ~~s~~')).toEqual([
      {
        type: 'strong',
        children: [
          { type: 'text', text: 'bold ' },
          { type: 'em', children: [{ type: 'text', text: 'it' }] },
          { type: 'text', text: ' ' },
          { type: 'u', children: [{ type: 'text', text: 'u' }] },
        ],
      },
      { type: 'text', text: ' ' },
      { type: 's', children: [{ type: 'text', text: 's' }] },
    ]);
  });

  it('keeps markup inside code as text', () => {
    expect(parseMarkdown('`**x**` and\n```js\n**y** <@1>\n```')).toEqual([
      { type: 'inlineCode', text: '**x**' },
      { type: 'text', text: ' and' },
      { type: 'br' },
      { type: 'codeBlock', lang: 'js', text: '**y** <@1>' },
    ]);
  });

  it('reads headings, subtext and quotes only at the start of a line', () => {
    expect(parseMarkdown('# Title\n> quoted **b**\nplain # not\n-# small')).toEqual([
      { type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] },
      {
        type: 'blockquote',
        children: [
          { type: 'text', text: 'quoted ' },
          { type: 'strong', children: [{ type: 'text', text: 'b' }] },
        ],
      },
      { type: 'text', text: 'plain # not' },
      { type: 'subtext', children: [{ type: 'text', text: 'small' }] },
    ]);
  });

  it('quotes the rest of the message after >>>', () => {
    const [quote] = parseMarkdown('>>> one\ntwo');
    expect(quote).toEqual({
      type: 'blockquote',
      children: [{ type: 'text', text: 'one' }, { type: 'br' }, { type: 'text', text: 'two' }],
    });
  });

  it('reads escapes as the character itself', () => {
    expect(parseMarkdown('\\*not italic\\* \\<@1>')).toEqual([
      { type: 'text', text: '*not italic* <@1>' },
    ]);
  });

  it('links only http(s)', () => {
    expect(parseMarkdown('[x](javascript:alert(1)) <javascript:alert(1)>')).toEqual([
      { type: 'text', text: '[x](javascript:alert(1)) <javascript:alert(1)>' },
    ]);
    expect(parseMarkdown('see https://example.com/a_b.')).toEqual([
      { type: 'text', text: 'see ' },
      {
        type: 'link',
        url: 'https://example.com/a_b',
        children: [{ type: 'text', text: 'https://example.com/a_b' }],
      },
      { type: 'text', text: '.' },
    ]);
  });

  it('stops nesting at its depth limit and parses hostile input quickly', () => {
    const deep = '||**'.repeat(200) + 'x' + '**||'.repeat(200);
    const start = performance.now();
    parseMarkdown(deep);
    parseMarkdown('*'.repeat(4000));
    parseMarkdown('_a'.repeat(2000));
    parseMarkdown('`'.repeat(4000));
    parseMarkdown('<@'.repeat(2000));
    parseMarkdown('> '.repeat(2000) + '\n'.repeat(2000));
    expect(performance.now() - start).toBeLessThan(2000);
    let depth = 0;
    let nodes = parseMarkdown(deep);
    while (nodes[0] !== undefined && 'children' in nodes[0]) {
      nodes = nodes[0].children;
      depth += 1;
    }
    expect(depth).toBeLessThanOrEqual(10);
  });
});

describe('Markdown', () => {
  it('renders styles as elements', () => {
    const md = show('**b** *i* __u__ ~~s~~ `c`');
    expect(md.querySelector('strong')?.textContent).toBe('b');
    expect(md.querySelector('em')?.textContent).toBe('i');
    expect(md.querySelector('u')?.textContent).toBe('u');
    expect(md.querySelector('s')?.textContent).toBe('s');
    expect(md.querySelector('code')?.textContent).toBe('c');
  });

  it('renders hostile strings as text, never as HTML', () => {
    const md = show('<img src=x onerror=alert(1)> <script>alert(1)</script> **<b>x</b>**');
    expect(md.querySelector('img')).toBeNull();
    expect(md.querySelector('script')).toBeNull();
    expect(md.querySelector('b')).toBeNull();
    expect(md.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(md.textContent).toContain('<script>alert(1)</script>');
  });

  it('gives links rel="noopener noreferrer" and refuses other schemes', () => {
    const md = show('[site](https://example.com) [bad](javascript:alert(1)) data:text/html,x');
    const links = md.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://example.com/');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[0]?.textContent).toBe('site');
  });

  it('resolves user, role and channel mentions to names', () => {
    const md = show(
      `hi <@${ME.id}> <@!${ME.id}> <@&500000000000000001> <#${CHANNEL_ID}> <@9> @everyone @here`,
    );
    expect(md.textContent).toBe('hi @Ada @Ada @Mods #general @unknown-user @everyone @here');
    const role = screen.getByText('@Mods');
    expect(role.style.color).toBe('rgb(255, 0, 0)');
    expect(screen.getByRole('link', { name: '#general' }).getAttribute('href')).toBe(
      `/channels/${GUILD_ID}/${CHANNEL_ID}`,
    );
  });

  it('hides a spoiler until it is clicked or activated by keyboard', async () => {
    const user = userEvent.setup();
    const md = show('a ||secret|| b ||two||');
    const spoilers = screen.getAllByRole('button', { name: 'Spoiler, reveal' });
    expect(spoilers).toHaveLength(2);
    const [first, second] = spoilers;
    if (first === undefined || second === undefined) throw new Error('two spoilers expected');
    await user.click(first);
    expect(md.querySelector('.md-spoiler.shown')?.textContent).toBe('secret');
    second.focus();
    await user.keyboard('{Enter}');
    expect(md.querySelectorAll('.md-spoiler.shown')).toHaveLength(2);
  });

  it('renders code blocks, quotes and headings as blocks', () => {
    const md = show('# Big\n> quote\n```\ncode *x*\n```');
    expect(md.querySelector('h3')?.textContent).toBe('Big');
    expect(md.querySelector('blockquote')?.textContent).toBe('quote');
    expect(md.querySelector('pre code')?.textContent).toBe('code *x*');
  });
});
