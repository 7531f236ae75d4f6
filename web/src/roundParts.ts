/**
 * Pieces of the game page drawn from what the server said, without state of
 * their own: the player bars, the move list, the navigation buttons, the
 * Xiangqi streak line and the result dialog. round.ts puts them together.
 */
import { button, h } from './dom';
import { lang, losingOrdinal, t, type Key } from './i18n';
import { materialDiff } from './material';
import { moveNumbering } from './moves';
import { formatClock, type Color, type GameStatus, type Outcome } from './protocol';
import { prefs } from './settings';
import type { VariantInfo } from './variants';

/** The translated name of a side in a game. */
export function sideName(v: VariantInfo, c: Color): string {
  return t(v.sideKeys[c]);
}

/** "Red wins · by perpetual check" / "Draw · by agreement". */
export function resultText(v: VariantInfo, o: Outcome): string {
  const head = o.winner ? t('result.wins', { side: sideName(v, o.winner) }) : t('result.draw');
  return `${head} · ${t(`reason.${o.reason}` as Key)}`;
}

/** Who sits on a side, as the player bar names them. */
export interface PlayerInfo {
  name: string;
  /** Connected (green dot), gone (red dot), or not a connection at all (no dot: the computer). */
  online: boolean | null;
}

const SYMBOLS: Record<string, string> = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
/** A piece letter as a chess symbol (8×8), else the letter. */
export const pieceSymbol = (l: string): string => SYMBOLS[l] ?? l;
const XQ_CHARS: Record<string, [string, string, string]> = { r: ['俥', '車', 'R'], c: ['炮', '砲', 'C'], n: ['傌', '馬', 'H'], b: ['相', '象', 'E'], a: ['仕', '士', 'A'], p: ['兵', '卒', 'P'] };

/** The pieces a side is up, drawn the way its board draws them. */
function materialLine(v: VariantInfo, c: Color, fen: string): HTMLElement {
  const m = materialDiff(v, fen)[c];
  // the pieces captured from the other side: drawn in the other side's colour
  const captured = c === 'white' ? 'black' : 'white';
  // Xiangqi pieces as the board draws them: characters, or the Western letters of the setting
  const xq = prefs().glyphs === 'western' ? 2 : captured === 'white' ? 0 : 1;
  const glyph = (role: string): string => (v.family === 'xiangqi' ? (XQ_CHARS[role]?.[xq] ?? role) : pieceSymbol(captured === 'white' ? role.toUpperCase() : role));
  // a long run of one kind (Horde's pawns) as a count, so the bar stays one line
  const text = m.pieces.map(([role, n]) => (n > 4 ? `${glyph(role)}×${n}` : glyph(role).repeat(n))).join(' ');
  return h(
    'span',
    { class: `material material-${c}`, title: m.points ? t('round.materialUp', { points: m.points }) : undefined },
    h('span', { class: 'captured', 'aria-hidden': 'true' }, text),
    m.points ? h('span', { class: 'diff' }, `+${m.points}`) : null,
    m.points ? h('span', { class: 'sr-only' }, t('round.materialUp', { points: m.points })) : null,
  );
}

/** One player bar: connection dot, name, material lead, clock (when the game has one). */
export function playerBar(
  v: VariantInfo,
  c: Color,
  pos: 'top' | 'bottom',
  p: PlayerInfo,
  fen: string,
  clock: number | null,
): { bar: HTMLElement; clock: HTMLElement | null } {
  const dot = p.online === null ? null : h('span', { class: `dot ${p.online ? 'on' : 'off'}`, title: t(p.online ? 'conn.open' : 'conn.gone') });
  const clockEl =
    clock === null ? null : h('div', { class: `clock clock-${c}`, role: 'timer', 'aria-label': t('round.clockOf', { side: sideName(v, c) }) }, formatClock(clock));
  const bar = h(
    'div',
    { class: `pbar pbar-${pos} pbar-${c}` },
    h(
      'div',
      { class: 'pinfo' },
      dot,
      h('span', { class: 'pname' }, p.name),
      p.name === sideName(v, c) ? null : h('span', { class: 'pside muted' }, sideName(v, c)),
      materialLine(v, c, fen),
    ),
    clockEl,
  );
  return { bar, clock: clockEl };
}

/** The move list as lichess draws it: numbered pairs, the shown move highlighted; null while empty. */
export function moveList(history: readonly { san: string }[], startFen: string | null, ply: number, goto: (ply: number) => void): HTMLElement | null {
  if (history.length === 0) return null;
  const list = h('ol', { class: 'moves', 'aria-label': t('round.moves') });
  const num = moveNumbering(startFen);
  history.forEach((m, i) => {
    const n = num(i);
    const cur = i + 1 === ply;
    const b = button(m.san, () => goto(i + 1), { class: cur ? 'move current' : 'move', 'aria-current': cur ? 'true' : undefined });
    // the number cell is drawn by CSS from data-n (white's move, or a game's first move when Black starts)
    const first = i === 0 && n.side === 'black';
    list.append(h('li', { value: String(n.move), class: `${n.side === 'white' ? 'w' : 'b'}${first ? ' first' : ''}`, 'data-n': String(n.move) }, b));
  });
  return h('div', { class: 'move-list' }, list);
}

const ICONS: Record<string, string> = {
  first: 'M6 5h2v14H6zM20 5v14L9 12z',
  prev: 'M17 5v14L6 12z',
  next: 'M7 5v14l11-7z',
  last: 'M16 5h2v14h-2zM4 5v14l11-7z',
  flip: 'M7 3 3 7h3v10h2V7h3zM17 21l4-4h-3V7h-2v10h-3z',
};
/** A button showing an icon, with its name as tooltip and accessible name. */
export function iconButton(icon: keyof typeof ICONS, label: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = button('', onClick, { 'aria-label': label, title: label, class: 'icon', ...attrs });
  b.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="${ICONS[icon] ?? ''}"/></svg>`;
  return b;
}

/**
 * The Xiangqi repetition line, only while a streak exists, in words:
 * "Red has checked 4 times in a row: a 7th check loses". `limit` is the
 * server's threshold: the streak loses once it goes past it.
 */
export function streakBox(v: VariantInfo, s: GameStatus): HTMLElement | null {
  const lines: string[] = [];
  for (const c of ['white', 'black'] as const) {
    const st = s.streaks?.[c];
    if (!st) continue;
    const side = sideName(v, c);
    if (st.check.len > 0) lines.push(t('xq.checkedInRow', { side, count: st.check.len, next: losingOrdinal(lang(), st.check.limit + 1) }));
    for (const ch of st.chases) if (ch.len > 0) lines.push(t('xq.chasedInRow', { side, count: ch.len, target: ch.target, next: losingOrdinal(lang(), ch.limit + 1) }));
  }
  const counters = s.counters ? t('xq.counters', { total: s.counters.total_plies, progress: s.counters.progress_plies, effective: s.counters.effective_plies }) : '';
  if (!lines.length) return counters ? h('p', { class: 'xq-counters muted', title: counters }, counters) : null;
  return h(
    'div',
    { class: 'streaks', role: 'status', title: counters || undefined },
    ...lines.map((l) => h('p', {}, l)),
    counters ? h('p', { class: 'xq-counters muted' }, counters) : null,
  );
}

/** The dialog over the board when a game ends: the result in words and what to do next. */
export function resultDialog(v: VariantInfo, o: Outcome, actions: HTMLElement[], close: () => void): HTMLElement {
  const d = h('div', { class: 'result-dialog', role: 'dialog', 'aria-labelledby': 'rd-title', id: 'result-dialog' });
  const head = o.winner ? t('result.wins', { side: sideName(v, o.winner) }) : t('result.draw');
  d.append(
    button('×', close, { class: 'rd-close', 'aria-label': t('act.close'), title: t('act.close'), id: 'rd-close' }),
    h('h2', { id: 'rd-title' }, head),
    h('p', { class: 'rd-reason' }, t(`reason.${o.reason}` as Key)),
    h('div', { class: 'rd-actions' }, ...actions),
  );
  d.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });
  return d;
}
