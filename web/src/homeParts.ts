/**
 * The home page's sections that stand on their own: board previews, the
 * live table of open rooms (from /ws/lobby), the saved games as small
 * boards, and the import of a PGN or FEN (POST /api/import: the server reads
 * it and says what is wrong and where).
 */
import * as api from './api';
import { Board } from './board/ground';
import { button, go, h } from './dom';
import { t, type Key } from './i18n';
import type { Color, Lobby } from './protocol';
import { Socket } from './socket';
import { fullMoves, gameStore } from './store';
import { VARIANTS, VARIANT_INFO, isVariant, type VariantName } from './variants';

/** The variant's translated name. */
export const variantName = (v: VariantName): string => t(`variant.${v}` as Key);

/** Boards mounted by a page, destroyed with it. */
export class Previews {
  private boards: Board[] = [];
  /** A small static board of `fen` (the start position when null). */
  board(v: VariantName, fen: string | null, label: string, orientation: Color = 'white'): HTMLElement {
    const host = h('div', { class: 'preview' });
    const b = new Board(host, { variant: VARIANT_INFO[v], fen: fen ?? undefined, orientation, viewOnly: true, label });
    b.set({ fen: fen ?? VARIANT_INFO[v].startFen, turn: 'white', check: false, lastMove: null, moves: [], movable: null });
    host.classList.add('board-preview');
    this.boards.push(b);
    return host;
  }
  destroy(): void {
    for (const b of this.boards) b.destroy();
    this.boards = [];
  }
}

/** The lobby: counts and the open public rooms as a table, updated live. */
export function lobbyTable(): { el: HTMLElement; destroy: () => void } {
  const counts = h('p', { class: 'lobby-counts', 'aria-live': 'polite' }, t('lobby.connecting'));
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'open-rooms' },
    h('caption', { class: 'sr-only' }, t('lobby.table')),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('lobby.game')), h('th', { scope: 'col' }, t('lobby.clock')), h('th', { scope: 'col' }, t('lobby.side')), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('lobby.join'))))),
    body,
  );
  const none = h('p', { class: 'muted lobby-none' }, t('lobby.none'));
  const el = h('section', { class: 'lobby card', 'aria-labelledby': 'lobby-h' }, h('h2', { id: 'lobby-h' }, t('lobby.title')), counts, table, none);
  const show = (l: Lobby): void => {
    counts.textContent = `${t('lobby.playing', { count: l.counters.games_playing })} · ${t('lobby.waiting', { count: l.counters.rooms_waiting })}`;
    body.replaceChildren(
      ...l.rooms.map((r) => {
        const clock = r.clock ? `${r.clock.initial / 60000} + ${r.clock.increment / 1000}` : t('home.clock.none');
        const side = t(r.open_color === 'white' && r.variant === 'xiangqi' ? 'side.red' : `side.${r.open_color}`);
        return h(
          'tr',
          {},
          h('td', {}, variantName(r.variant)),
          h('td', {}, clock),
          h('td', {}, side),
          h('td', {}, h('a', { href: r.invite_url, class: 'btn primary', 'aria-label': `${t('lobby.join')}: ${variantName(r.variant)} ${clock}` }, t('lobby.join'))),
        );
      }),
    );
    table.hidden = l.rooms.length === 0;
    none.hidden = l.rooms.length > 0;
  };
  table.hidden = true;
  const sock = new Socket({
    url: () => '/ws/lobby',
    onMessage: (m) => {
      if (m.t === 'lobby') show(m.d);
    },
  });
  return { el, destroy: () => sock.close() };
}

/** How many saved games get a board (the rest are listed in words). */
const SAVED_BOARDS = 12;

/** The saved games of this browser, each a small board with "continue" and "delete". */
export function savedGames(previews: Previews): HTMLElement {
  const s = gameStore();
  const games = s.list();
  const ul = h('ul', { class: 'saved' });
  const section = h('section', { class: 'saved-games', 'aria-labelledby': 'saved-h' }, h('h2', { id: 'saved-h' }, t('saved.title')));
  games.forEach((g, i) => {
    const status = g.outcome ? ` · ${t('saved.finished')}` : '';
    const who = g.mode === 'ai' ? t('saved.vsAi', { level: g.aiLevel ?? 1 }) : t('saved.local');
    const text = `${variantName(g.variant)} · ${who} · ${t('saved.moves', { count: fullMoves(g.plies) })}${status}`;
    const li = h(
      'li',
      { class: 'saved-game' },
      h('a', { href: `/r/${g.id}`, class: 'saved-link' }, text),
      i < SAVED_BOARDS ? previews.board(g.variant, g.fen, text, g.human ?? 'white') : null,
      h('time', { datetime: new Date(g.updatedAt).toISOString(), class: 'muted' }, new Date(g.updatedAt).toLocaleString()),
      h(
        'div',
        { class: 'row' },
        h('a', { href: `/r/${g.id}`, class: 'btn primary', 'aria-label': `${t('saved.continue')}: ${text}` }, t('saved.continue')),
        button(t('act.analyse'), () => {
          api
            .analyse(g.id)
            .then((id) => go(`/analysis/${encodeURIComponent(id)}`))
            .catch((e: unknown) => li.append(h('p', { class: 'error', role: 'alert' }, errorText(e))));
        }, { class: 'small saved-analyse', 'aria-label': `${t('act.analyse')}: ${text}` }),
        button(t('saved.delete'), () => {
          s.remove(g.id);
          li.remove();
          if (!ul.children.length) ul.replaceWith(h('p', { class: 'muted' }, t('saved.none')));
        }, { 'aria-label': t('saved.deleteOne', { game: variantName(g.variant) }), class: 'small' }),
      ),
    );
    ul.append(li);
  });
  section.append(games.length ? ul : h('p', { class: 'muted' }, t('saved.none')));
  return section;
}

/** What to do with an imported game: play on from its last position, or analyse it. */
export interface ImportActions {
  /** Plays on from `fen`; a refusal is written into `shownIn`, under the buttons. */
  play: (mode: 'local' | 'ai' | 'friend', variant: VariantName, fen: string, shownIn: HTMLElement) => void;
}

/** The import box: paste a PGN or a FEN, the server reads it, then play from there or analyse. */
export function importBox(actions: ImportActions): HTMLElement {
  const text = h('textarea', { id: 'import-text', rows: 4, spellcheck: 'false', placeholder: '[Event "…"]\n1. e4 e5 2. Nf3 …   /   rnbqkbnr/… w KQkq - 0 1' });
  const variant = h('select', { id: 'import-variant' }, h('option', { value: '' }, t('import.auto')), ...VARIANTS.map((v) => h('option', { value: v }, variantName(v))));
  const out = h('div', { class: 'import-result', 'aria-live': 'polite', id: 'import-result' });
  const read = button(t('import.read'), () => {
    out.replaceChildren();
    const v = variant.value;
    api
      .importGame(text.value, isVariant(v) ? v : null)
      .then((g) => {
        const fen = g.status.fen;
        const moves = g.moves.length;
        const head = [g.headers.White, g.headers.Black].filter(Boolean).join(' – ');
        const summary = h('p', { id: 'import-summary' }, `${variantName(g.variant)} · ${t('saved.moves', { count: fullMoves(moves) })}${head ? ` · ${head}` : ''}`);
        const btns = h('div', { class: 'row' });
        const refused = h('p', { class: 'error', role: 'alert', id: 'import-play-error' });
        if (!g.status.outcome)
          btns.append(
            button(t('import.playAi'), () => actions.play('ai', g.variant, fen, refused), { id: 'import-ai', class: 'primary' }),
            button(t('import.playFriend'), () => actions.play('friend', g.variant, fen, refused), { id: 'import-friend' }),
            button(t('import.playLocal'), () => actions.play('local', g.variant, fen, refused), { id: 'import-local' }),
          );
        btns.append(
          button(t('act.analyse'), () => {
            api
              .analyseGame(g.variant, g.fen, g.moves)
              .then((id) => go(`/analysis/${encodeURIComponent(id)}`))
              .catch((e: unknown) => out.append(h('p', { class: 'error', role: 'alert' }, errorText(e))));
          }, { id: 'import-analyse' }),
        );
        out.replaceChildren(summary, btns, refused);
      })
      .catch((e: unknown) => out.replaceChildren(h('p', { class: 'error', role: 'alert', id: 'import-error' }, errorText(e))));
  }, { id: 'import-read', class: 'primary' });
  return h(
    'section',
    { class: 'import card', 'aria-labelledby': 'import-h' },
    h('h2', { id: 'import-h' }, t('import.title')),
    h('p', { class: 'muted' }, t('import.help')),
    h('label', { for: 'import-text' }, t('import.text')),
    text,
    h('div', { class: 'row' }, h('label', { for: 'import-variant' }, t('import.variant')), variant, read),
    out,
  );
}

/** The server's message for a refused request (it says what and where), else the code. */
export const errorText = (e: unknown): string => (e instanceof api.ApiError ? (e.message ? e.message : t('error.server', { code: e.code })) : String(e));
