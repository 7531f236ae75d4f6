/**
 * Home: the game cards (with a preview of each start position), the three
 * ways to play, the import of a PGN or FEN, the live table of open rooms and
 * the saved games.
 */
import * as api from './api';
import { button, go, h } from './dom';
import { t, type Key } from './i18n';
import type { Page } from './main';
import type { Color } from './protocol';
import { Previews, errorText, importBox, lobbyTable, savedGames, variantName } from './homeParts';
import { gameStore, seats } from './store';
import { VARIANTS, VARIANT_INFO, isVariant, type VariantName } from './variants';

export { variantName } from './homeParts';

const GAME_KEY = 'cpx.game';
/** The game chosen last time (chess on a first visit). */
function lastGame(): VariantName {
  try {
    const g = localStorage.getItem(GAME_KEY);
    return isVariant(g) ? g : 'chess';
  } catch {
    return 'chess';
  }
}
function rememberGame(v: VariantName): void {
  try {
    localStorage.setItem(GAME_KEY, v);
  } catch {
    /* not remembered */
  }
}

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

/** The game cards: a radio each, the start position drawn small, a blurb and the rules link. */
function gameCards(previews: Previews, chosen: VariantName, onPick: (v: VariantName) => void): HTMLElement {
  const pick = h('fieldset', { class: 'variant-pick' }, h('legend', {}, t('home.chooseGame')));
  for (const v of VARIANTS) {
    const input = h('input', { type: 'radio', name: 'variant', value: v, id: `v-${v}`, checked: v === chosen });
    input.addEventListener('change', () => {
      if (isVariant(input.value)) onPick(input.value);
    });
    pick.append(
      h(
        'div',
        { class: 'variant-card' },
        h('label', { for: `v-${v}`, class: 'variant-head' }, input, h('strong', {}, variantName(v))),
        previews.board(v, null, t('home.startOf', { game: variantName(v) })),
        h('span', { class: 'blurb' }, t(`variant.${v}.blurb` as Key)),
        h('a', { href: `/rules/${v}` }, t('home.rulesOf', { game: variantName(v) })),
      ),
    );
  }
  return pick;
}

/** A mode card's heading with its round icon. */
const modeHead = (id: string, icon: string, text: string): HTMLElement => h('h2', { id }, h('span', { class: 'mode-icon', 'aria-hidden': 'true' }, icon), text);
type ClockChoice = { minutes: number; increment: number } | null;
const clockOf = (sel: HTMLSelectElement): ClockChoice => CLOCKS[Number(sel.value)] ?? null;

/** The three ways to play, and how to start one of them from a given position (the import's play-on). */
interface Modes {
  el: HTMLElement;
  startFrom: (mode: 'local' | 'ai' | 'friend', variant: VariantName, fen: string | null) => Promise<void>;
}

function modeCards(variant: () => VariantName, startFen: string | null): Modes {
  const localClock = clockSelect('local-clock');
  const level = h('select', { id: 'ai-level' });
  for (let i = 1; i <= 8; i++) level.append(h('option', { value: String(i) }, t('home.level', { level: i })));
  const aiColor = colorSelect('ai-color');
  const aiClock = clockSelect('ai-clock');
  const fClock = clockSelect('friend-clock');
  fClock.value = '3';
  const fColor = colorSelect('friend-color');
  const fPublic = h('input', { type: 'checkbox', id: 'friend-public' });
  const startFrom = (mode: 'local' | 'ai' | 'friend', v: VariantName, fen: string | null): Promise<void> =>
    mode === 'friend'
      ? createFriendRoom(v, clockOf(fClock), chooseColor(fColor.value), fPublic.checked, fen)
      : startGame({ variant: v, mode, aiLevel: mode === 'ai' ? Number(level.value) : null, human: mode === 'ai' ? chooseColor(aiColor.value) : null, clock: clockOf(mode === 'ai' ? aiClock : localClock), startFen: fen });
  const start = (mode: 'local' | 'ai' | 'friend', shownIn: HTMLElement, fen: string | null): void => {
    shownIn.textContent = '';
    startFrom(mode, variant(), fen).catch((e: unknown) => (shownIn.textContent = errorText(e)));
  };
  // a refusal (a bad `fen` in the link, the server unreachable) is said under the button pressed, where the player looks
  const localErr = h('p', { class: 'error', role: 'alert', id: 'start-error-local' });
  const aiErr = h('p', { class: 'error', role: 'alert', id: 'start-error-ai' });
  const local = h(
    'section',
    { class: 'mode', 'aria-labelledby': 'm-local' },
    modeHead('m-local', '⇅', t('home.local')),
    h('p', {}, t('home.local.help')),
    h('label', { for: 'local-clock' }, t('home.clock')),
    localClock,
    button(t('home.start'), () => start('local', localErr, startFen), { id: 'start-local', class: 'primary' }),
    localErr,
  );
  const ai = h(
    'section',
    { class: 'mode', 'aria-labelledby': 'm-ai' },
    modeHead('m-ai', '⚙', t('home.ai')),
    h('p', {}, t('home.ai.help')),
    h('label', { for: 'ai-level' }, t('home.strength')),
    level,
    h('label', { for: 'ai-color' }, t('home.color')),
    aiColor,
    h('label', { for: 'ai-clock' }, t('home.clock')),
    aiClock,
    // not a second "Start": each way to play has a button of its own name (the same-device one is "Start")
    button(t('home.playAi'), () => start('ai', aiErr, startFen), { id: 'start-ai', class: 'primary' }),
    aiErr,
  );
  const err = h('p', { class: 'error', role: 'alert' });
  const friend = h(
    'section',
    { class: 'mode', 'aria-labelledby': 'm-friend' },
    modeHead('m-friend', '⇄', t('home.friend')),
    h('p', {}, t('home.friend.help')),
    h('label', { for: 'friend-clock' }, t('home.clock')),
    fClock,
    h('label', { for: 'friend-color' }, t('home.color')),
    fColor,
    h('label', { class: 'check' }, fPublic, ' ', t('home.public')),
    // an online room from the start position (the `fen` parameter is for same-device and computer games)
    button(t('home.createRoom'), () => start('friend', err, null), { id: 'create-room', class: 'primary' }),
    err,
  );
  return { el: h('div', { class: 'modes' }, local, ai, friend), startFrom };
}

/** The home page. */
export function home(): Page {
  const wanted = new URLSearchParams(location.search).get('game') ?? /^#\/play\/(\w+)/.exec(location.hash)?.[1];
  let variant: VariantName = isVariant(wanted) ? wanted : lastGame();
  const previews = new Previews();
  // `?game=xiangqi&fen=…`: start same-device and computer games from a set position (rules diagrams, tests)
  const startFen = new URLSearchParams(location.search).get('fen');
  const pick = gameCards(previews, variant, (v) => {
    variant = v;
    rememberGame(v);
  });
  const modes = modeCards(() => variant, startFen);
  const lobby = lobbyTable();
  // an imported game: played on from its last position with the choices of the mode cards
  const imported = importBox({
    play: (mode, v, fen, shownIn) => {
      shownIn.textContent = '';
      modes.startFrom(mode, v, fen).catch((e: unknown) => (shownIn.textContent = errorText(e)));
    },
  });
  const el = h(
    'div',
    { class: 'home' },
    h('h1', {}, t('home.title')),
    startFen ? h('p', { class: 'notice', role: 'status', id: 'custom-fen' }, t('home.customFen', { fen: startFen })) : null,
    pick,
    modes.el,
    h('div', { class: 'home-lower' }, lobby.el, imported),
    savedGames(previews),
  );
  return {
    el,
    destroy: () => {
      lobby.destroy();
      previews.destroy();
    },
  };
}

/** Creates an online room with one seat for this browser and opens it (its invitation link is shown there). */
async function createFriendRoom(variant: VariantName, clock: { minutes: number; increment: number } | null, color: Color | 'random', pub: boolean, fen: string | null): Promise<void> {
  const r = await api.createRoom({ variant, clock, color, public: pub, ai_level: null, fen });
  seats.set(localStorage, r.id, r.seat_token);
  if (r.invite_url) localStorage.setItem('cpx.invite.' + r.id, r.invite_url);
  go(`/r/${r.id}`);
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
