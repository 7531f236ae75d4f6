/** Home: pick a game and a way to play; the lobby strip; saved games. */
import * as api from './api';
import { button, go, h } from './dom';
import { t, type Key } from './i18n';
import type { Page } from './main';
import type { Color, Lobby } from './protocol';
import { Socket } from './socket';
import { fullMoves, gameStore, seats } from './store';
import { VARIANTS, VARIANT_INFO, isVariant, type VariantName } from './variants';

/** Clock choices: minutes + increment seconds; `null` for none. */
const CLOCKS: ({ minutes: number; increment: number } | null)[] = [
  null,
  { minutes: 1, increment: 0 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
  { minutes: 30, increment: 0 },
  { minutes: 0.25, increment: 0 },
];
const clockLabel = (c: { minutes: number; increment: number } | null): string =>
  c ? `${c.minutes < 1 ? `${c.minutes * 60} s` : c.minutes} + ${c.increment}` : t('home.clock.none');

function clockSelect(id: string): HTMLSelectElement {
  const s = h('select', { id });
  CLOCKS.forEach((c, i) => s.append(h('option', { value: String(i) }, clockLabel(c))));
  return s;
}

/** The variant's translated name. */
export const variantName = (v: VariantName): string => t(`variant.${v}` as Key);

/** How a new game is played: two players at this screen, or against the computer. */
export interface NewGame {
  variant: VariantName;
  mode: 'local' | 'ai';
  aiLevel: number | null;
  /** Computer games: the human's colour (`random`: the server draws it). */
  human: Color | 'random' | null;
  clock: { minutes: number; increment: number } | null;
  startFen?: string | null;
}

/**
 * Starts a same-device game (a room holding both seats) or a computer game
 * (an AI room), saves it in this browser and opens it.
 */
export async function startGame(opts: NewGame): Promise<void> {
  const local = opts.mode === 'local';
  const r = await api.createRoom({
    variant: opts.variant,
    clock: opts.clock,
    color: local ? 'white' : (opts.human ?? 'random'),
    public: false,
    ai_level: local ? null : (opts.aiLevel ?? 1),
    ...(local ? { local: true } : {}),
    fen: opts.startFen ?? null,
  });
  const tokens = local && r.seat_tokens ? [r.seat_tokens.white, r.seat_tokens.black] : [r.seat_token];
  const now = Date.now();
  gameStore().save({
    id: r.id,
    variant: opts.variant,
    mode: opts.mode,
    aiLevel: local ? null : (opts.aiLevel ?? 1),
    human: local ? null : r.color,
    tokens,
    plies: 0,
    fen: opts.startFen ?? VARIANT_INFO[opts.variant].startFen,
    outcome: null,
    snapshot: null,
    createdAt: now,
    updatedAt: now,
  });
  go(`/r/${r.id}`);
}

function lobbyStrip(): { el: HTMLElement; destroy: () => void } {
  const counts = h('p', { class: 'lobby-counts', 'aria-live': 'polite' }, t('lobby.connecting'));
  const list = h('ul', { class: 'open-rooms' });
  const el = h('section', { class: 'lobby', 'aria-labelledby': 'lobby-h' }, h('h2', { id: 'lobby-h' }, t('lobby.title')), counts, list);
  const show = (l: Lobby): void => {
    counts.textContent = `${t('lobby.playing', { count: l.counters.games_playing })} · ${t('lobby.waiting', { count: l.counters.rooms_waiting })}`;
    list.replaceChildren(
      ...l.rooms.map((r) => {
        const clock = r.clock ? `${r.clock.initial / 60000} + ${r.clock.increment / 1000}` : t('home.clock.none');
        return h(
          'li',
          {},
          h('span', {}, `${variantName(r.variant)} · ${clock} · ${t('lobby.youPlay', { side: t(r.open_color === 'white' && r.variant === 'xiangqi' ? 'side.red' : `side.${r.open_color}`) })}`),
          ' ',
          h('a', { href: r.invite_url, class: 'btn' }, t('lobby.join')),
        );
      }),
    );
    if (l.rooms.length === 0) list.append(h('li', { class: 'muted' }, t('lobby.none')));
  };
  const sock = new Socket({
    url: () => '/ws/lobby',
    onMessage: (m) => {
      if (m.t === 'lobby') show(m.d);
    },
  });
  return { el, destroy: () => sock.close() };
}

function savedGames(): HTMLElement {
  const s = gameStore();
  const games = s.list();
  const ul = h('ul', { class: 'saved' });
  for (const g of games) {
    const status = g.outcome ? ` · ${t('saved.finished')}` : '';
    const who = g.mode === 'ai' ? t('saved.vsAi', { level: g.aiLevel ?? 1 }) : t('saved.local');
    ul.append(
      h(
        'li',
        {},
        h('a', { href: `/r/${g.id}` }, `${variantName(g.variant)} · ${who} · ${t('saved.moves', { count: fullMoves(g.plies) })}${status}`),
        ' ',
        h('time', { datetime: new Date(g.updatedAt).toISOString() }, new Date(g.updatedAt).toLocaleString()),
        ' ',
        button(t('saved.delete'), () => {
          s.remove(g.id);
          ul.replaceWith(savedGames());
        }, { 'aria-label': t('saved.deleteOne', { game: variantName(g.variant) }), class: 'small' }),
      ),
    );
  }
  return h('section', { class: 'saved-games', 'aria-labelledby': 'saved-h' }, h('h2', { id: 'saved-h' }, t('saved.title')), games.length ? ul : h('p', { class: 'muted' }, t('saved.none')));
}

/** The home page. */
export function home(): Page {
  const wanted = new URLSearchParams(location.search).get('game') ?? /^#\/play\/(\w+)/.exec(location.hash)?.[1];
  let variant: VariantName = isVariant(wanted) ? wanted : 'horde';
  // `?game=xiangqi&fen=…`: start same-device and computer games from a set position (rules diagrams, tests)
  const startFen = new URLSearchParams(location.search).get('fen');
  const pick = h('fieldset', { class: 'variant-pick' }, h('legend', {}, t('home.chooseGame')));
  for (const v of VARIANTS) {
    const input = h('input', { type: 'radio', name: 'variant', value: v, id: `v-${v}`, checked: v === variant });
    input.addEventListener('change', () => {
      if (isVariant(input.value)) variant = input.value;
    });
    pick.append(h('label', { for: `v-${v}`, class: 'variant-card' }, input, h('strong', {}, variantName(v)), h('span', {}, t(`variant.${v}.blurb` as Key)), h('a', { href: `/rules/${v}` }, t('home.rulesOf', { game: variantName(v) }))));
  }

  const startErr = h('p', { class: 'error', role: 'alert', id: 'start-error' });
  const start = (g: NewGame): void => {
    startErr.textContent = '';
    startGame(g).catch((e: unknown) => {
      startErr.textContent = e instanceof api.ApiError ? t('error.server', { code: e.code }) : String(e);
    });
  };
  // same device
  const localClock = clockSelect('local-clock');
  const local = h(
    'section',
    { class: 'mode', 'aria-labelledby': 'm-local' },
    h('h3', { id: 'm-local' }, t('home.local')),
    h('p', {}, t('home.local.help')),
    h('label', { for: 'local-clock' }, t('home.clock')),
    localClock,
    button(t('home.start'), () => start({ variant, mode: 'local', aiLevel: null, human: null, clock: CLOCKS[Number(localClock.value)] ?? null, startFen }), { id: 'start-local', class: 'primary' }),
  );

  // computer
  const level = h('select', { id: 'ai-level' });
  for (let i = 1; i <= 8; i++) level.append(h('option', { value: String(i) }, t('home.level', { level: i })));
  const aiColor = colorSelect('ai-color');
  const aiClock = clockSelect('ai-clock');
  const ai = h(
    'section',
    { class: 'mode', 'aria-labelledby': 'm-ai' },
    h('h3', { id: 'm-ai' }, t('home.ai')),
    h('label', { for: 'ai-level' }, t('home.strength')),
    level,
    h('label', { for: 'ai-color' }, t('home.color')),
    aiColor,
    h('label', { for: 'ai-clock' }, t('home.clock')),
    aiClock,
    button(
      t('home.start'),
      () => start({ variant, mode: 'ai', aiLevel: Number(level.value), human: chooseColor(aiColor.value), clock: CLOCKS[Number(aiClock.value)] ?? null, startFen }),
      { id: 'start-ai', class: 'primary' },
    ),
  );

  // friend
  const fClock = clockSelect('friend-clock');
  fClock.value = '3';
  const fColor = colorSelect('friend-color');
  const fPublic = h('input', { type: 'checkbox', id: 'friend-public' });
  const err = h('p', { class: 'error', role: 'alert' });
  const friend = h(
    'section',
    { class: 'mode', 'aria-labelledby': 'm-friend' },
    h('h3', { id: 'm-friend' }, t('home.friend')),
    h('label', { for: 'friend-clock' }, t('home.clock')),
    fClock,
    h('label', { for: 'friend-color' }, t('home.color')),
    fColor,
    h('label', { class: 'check' }, fPublic, ' ', t('home.public')),
    button(t('home.createRoom'), () => {
      err.textContent = '';
      const c = fColor.value;
      api
        .createRoom({ variant, clock: CLOCKS[Number(fClock.value)] ?? null, color: c === 'white' || c === 'black' ? c : 'random', public: fPublic.checked, ai_level: null })
        .then((r) => {
          seats.set(localStorage, r.id, r.seat_token);
          if (r.invite_url) localStorage.setItem('cpx.invite.' + r.id, r.invite_url);
          go(`/r/${r.id}`);
        })
        .catch((e: unknown) => {
          err.textContent = e instanceof api.ApiError ? t('error.server', { code: e.code }) : String(e);
        });
    }, { id: 'create-room', class: 'primary' }),
    err,
  );

  const lobby = lobbyStrip();
  const el = h(
    'div',
    { class: 'home' },
    h('h1', {}, t('home.title')),
    lobby.el,
    startFen ? h('p', { class: 'notice', role: 'status', id: 'custom-fen' }, t('home.customFen', { fen: startFen })) : null,
    pick,
    h('div', { class: 'modes' }, local, ai, friend),
    startErr,
    savedGames(),
  );
  return { el, destroy: lobby.destroy };
}

function colorSelect(id: string): HTMLSelectElement {
  const s = h('select', { id });
  s.append(
    h('option', { value: 'white' }, t('home.color.white')),
    h('option', { value: 'black' }, t('home.color.black')),
    h('option', { value: 'random' }, t('home.color.random')),
  );
  return s;
}
function chooseColor(v: string): Color | 'random' {
  return v === 'white' || v === 'black' ? v : 'random';
}
