/**
 * The parts of the game page that do not depend on who plays: board, move
 * list, navigation, clocks, dialogs. The one game page over the room
 * protocol (same device, computer and online alike) is in room.ts.
 */
import * as api from './api';
import { Board } from './board/ground';
import { button, h } from './dom';
import { t, type Key } from './i18n';
import { explosion, fenTurn, matchTyped, moveNumbering } from './moves';
import { formatClock, opposite, type Color, type GameStatus, type MoveInfo, type Outcome, type Warning } from './protocol';
import { variantName } from './home';
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

/** Shows a modal question; resolves true on confirm. */
export function confirmDialog(title: string, body: string, yes: string, no: string): Promise<boolean> {
  return new Promise((resolve) => {
    const d = h('dialog', { class: 'confirm', 'aria-labelledby': 'dlg-title' });
    const close = (r: boolean): void => {
      d.close();
      d.remove();
      resolve(r);
    };
    d.append(
      h('h2', { id: 'dlg-title' }, title),
      h('p', {}, body),
      h('div', { class: 'row' }, yes ? button(yes, () => close(true), { class: 'danger', id: 'dlg-yes' }) : null, button(no, () => close(false), { id: 'dlg-no', autofocus: true })),
    );
    d.addEventListener('cancel', () => close(false));
    document.body.append(d);
    d.showModal();
  });
}

/** The warning before a Xiangqi move the advanced rules would punish. */
async function checkWarning(warnings: readonly Warning[], uci: string): Promise<boolean> {
  const w = warnings.find((x) => x.uci === uci);
  if (!w || (!w.loses && !w.forbidden)) return true;
  const reason = w.outcome ? t(`reason.${w.outcome.reason}` as Key) : '';
  if (w.forbidden) {
    // the server refuses these moves: say why, do not offer to play it
    await confirmDialog(t('warn.forbiddenTitle'), t('warn.forbidden', { reason }), '', t('warn.cancel'));
    return false;
  }
  const streak = w.check ? ` (${t('xq.checkStreak', { len: w.check.len, limit: w.check.limit })})` : '';
  return confirmDialog(t('warn.title'), t('warn.loses', { reason: reason + streak }), t('warn.playAnyway'), t('warn.cancel'));
}

/** Everything the page shows, whatever drives the game. */
export interface Shown {
  variant: VariantInfo;
  startFen: string | null;
  history: { uci: string; san: string }[];
  status: GameStatus | null;
  moves: MoveInfo[];
  warnings: Warning[];
  outcome: Outcome | null;
  clock: Record<Color, number> | null;
  clockRunning: Color | null;
  movable: Color | 'both' | null;
  orientation: Color;
}

/** The game page's view: board, move list, navigation, panel; the subclass says what to show and does the actions. */
export abstract class RoundView {
  protected board: Board | null = null;
  protected viewPly: number | null = null;
  protected fenCache = new Map<number, string>();
  protected lastExplosion: string[] = [];
  protected notice = '';
  protected thinking = false;
  readonly el = h('div', { class: 'round' });
  private readonly boardHost = h('div', { class: 'board-wrap' });
  private readonly panel = h('div', { class: 'panel' });
  private readonly below = h('div', { class: 'below' });
  private timer: ReturnType<typeof setInterval>;
  private lastShownKey = '';
  private prevFen: string | null = null;
  private prevPly = -1;

  constructor() {
    this.el.append(h('div', { class: 'board-col' }, this.boardHost, this.below), this.panel);
    this.timer = setInterval(() => this.tick(), 200);
    // on the document, not the page: after a move made on the board the focus is on <body>
    document.addEventListener('keydown', this.onKey);
  }

  /** ← → step through the moves, Home and End jump to the start and the live position. */
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const tgt = e.target as HTMLElement | null;
    if (tgt && (tgt.tagName === 'INPUT' || tgt.tagName === 'SELECT' || tgt.tagName === 'TEXTAREA' || tgt.isContentEditable)) return;
    if (document.querySelector('dialog[open], .promotion-picker')) return;
    const s = this.shown();
    if (!s) return;
    if (e.key === 'ArrowLeft') this.step(-1);
    else if (e.key === 'ArrowRight') this.step(1);
    else if (e.key === 'Home') this.goto(0);
    else if (e.key === 'End') this.goto(s.history.length);
    else return;
    e.preventDefault();
  };

  protected abstract shown(): Shown | null;
  protected abstract play(uci: string): void;
  protected abstract actions(s: Shown): HTMLElement[];
  protected abstract extra(s: Shown): (HTMLElement | null)[];
  protected tick(): void {
    this.renderClocks();
  }

  destroy(): void {
    document.removeEventListener('keydown', this.onKey);
    clearInterval(this.timer);
    this.board?.destroy();
  }

  protected ensureBoard(s: Shown): Board {
    if (!this.board)
      this.board = new Board(this.boardHost, {
        variant: s.variant,
        orientation: s.orientation,
        onMove: (uci) => {
          if (uci) void this.tryPlay(uci);
          else this.render();
        },
        pieceName: (l) => t(`piece.${l}` as Key),
        label: t('board.label', { game: variantName(s.variant.name) }),
      });
    return this.board;
  }

  private async tryPlay(uci: string): Promise<void> {
    const s = this.shown();
    if (!s) return;
    if (!(await checkWarning(s.warnings, uci))) {
      this.lastShownKey = '';
      this.render();
      return;
    }
    this.play(uci);
  }

  private step(d: number): void {
    const s = this.shown();
    if (!s) return;
    const n = s.history.length;
    const cur = this.viewPly ?? n;
    this.goto(Math.max(0, Math.min(n, cur + d)));
  }

  protected goto(ply: number): void {
    const s = this.shown();
    if (!s) return;
    this.viewPly = ply >= s.history.length ? null : ply;
    if (this.viewPly === 0 && s.startFen) this.fenCache.set(0, s.startFen);
    if (this.viewPly !== null && !this.fenCache.has(this.viewPly)) {
      // a position not seen live (a game opened mid-way): ask the server for its FEN
      const p = this.viewPly;
      api
        .position(s.variant.name, s.startFen, s.history.slice(0, p).map((m) => m.uci))
        .then((r) => {
          this.fenCache.set(p, r.status.fen);
          this.render();
        })
        .catch(() => undefined);
    }
    this.render();
  }

  /** Re-renders the board (when its position changed) and the panel. */
  render(): void {
    this.el.setAttribute('aria-busy', String(this.busy()));
    const s = this.shown();
    if (!s || !s.status) {
      this.panel.replaceChildren(h('p', { 'aria-live': 'polite' }, this.notice || t('round.loading')));
      return;
    }
    const board = this.ensureBoard(s);
    const live = this.viewPly === null;
    const ply = live ? s.history.length : (this.viewPly ?? 0);
    const fen = live ? s.status.fen : this.fenCache.get(ply);
    const key = `${ply}|${fen ?? ''}|${live ? JSON.stringify(s.movable) : 'v'}|${s.moves.length}|${this.thinking}`;
    if (key !== this.lastShownKey && fen) {
      this.lastShownKey = key;
      const lm = ply > 0 ? s.history[ply - 1] : undefined;
      board.set({
        fen,
        turn: live ? s.status.turn : fen.split(' ')[1] === 'b' ? 'black' : 'white',
        check: live ? s.status.check : false,
        lastMove: lm ? splitUci(lm.uci) : null,
        moves: live ? s.moves : [],
        movable: live && !s.outcome && !this.thinking ? s.movable : null,
      });
      // Atomic: explode when a new move arrives live
      if (live && this.prevFen && ply === this.prevPly + 1 && lm) {
        const mv = splitUci(lm.uci);
        const e = mv ? explosion(s.variant, this.prevFen, fen, mv.from, mv.to) : null;
        if (e) {
          board.explode(e.squares);
          this.lastExplosion = e.removed;
        } else this.lastExplosion = [];
      }
      if (live) {
        this.prevFen = fen;
        this.prevPly = ply;
      }
    }
    this.renderPanel(s, ply);
  }

  private clockEls: Partial<Record<Color, HTMLElement>> = {};
  /** The typed-move form, kept across renders so a half-typed move survives an update. */
  private typed: { form: HTMLElement; input: HTMLInputElement } | null = null;

  private typedForm(v: VariantInfo): HTMLElement {
    if (this.typed) return this.typed.form;
    const input = h('input', { id: 'typed-move', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', placeholder: v.notation === 'wxf' ? 'h3e3 / C2=5' : 'e2e4 / Nf3' }) as HTMLInputElement;
    const form = h('form', { class: 'typed row' }, h('label', { for: 'typed-move' }, t('round.typeMove')), input, h('button', { type: 'submit' }, t('round.play')));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const m = matchTyped(input.value, this.shown()?.moves ?? []);
      if (!m) {
        this.notice = t('round.noSuchMove', { text: input.value });
        this.render();
        return;
      }
      input.value = '';
      void this.tryPlay(m.uci);
    });
    this.typed = { form, input };
    return form;
  }

  /** True while the shown position waits on the server (a status request, the engine's move, an unacknowledged move). */
  protected busy(): boolean {
    return false;
  }

  private renderClocks(): void {
    const s = this.shown();
    if (!s?.clock) return;
    for (const c of ['white', 'black'] as const) {
      const el = this.clockEls[c];
      if (el) {
        el.textContent = formatClock(s.clock[c]);
        el.classList.toggle('running', s.clockRunning === c);
        el.classList.toggle('low', s.clock[c] < 10000);
      }
    }
  }

  private renderPanel(s: Shown, ply: number): void {
    const v = s.variant;
    const status = s.status as GameStatus;
    const parts: (HTMLElement | null)[] = [];
    parts.push(h('h1', { class: 'game-title' }, variantName(v.name)));
    this.clockEls = {};
    if (s.clock) {
      const row = h('div', { class: 'clocks' });
      for (const c of [opposite(s.orientation), s.orientation]) {
        const el = h('span', { class: `clock clock-${c}`, role: 'timer', 'aria-label': t('round.clockOf', { side: sideName(v, c) }) }, formatClock(s.clock[c]));
        this.clockEls[c] = el;
        row.append(h('div', {}, h('span', { class: 'clock-side' }, sideName(v, c)), ' ', el));
      }
      parts.push(row);
    }
    const viewed = this.viewPly === null ? null : this.fenCache.get(ply);
    if (s.outcome) parts.push(h('div', { class: 'result', role: 'status' }, resultText(v, s.outcome)));
    else if (viewed)
      // an earlier position: whose turn it was there, not in the live game
      parts.push(h('p', { class: 'turn', 'aria-live': 'polite' }, t('round.toMove', { side: sideName(v, fenTurn(viewed)) })));
    else
      parts.push(
        h(
          'p',
          { class: 'turn', 'aria-live': 'polite' },
          this.thinking ? t('round.thinking') : t('round.toMove', { side: sideName(v, status.turn) }),
          status.check ? ` · ${t('round.check')}` : '',
        ),
      );
    if (this.notice) parts.push(h('p', { class: 'notice', role: 'alert' }, this.notice));
    if (v.explodes && this.lastExplosion.length)
      parts.push(h('p', { class: 'explosion', 'aria-live': 'polite' }, t('round.exploded', { pieces: this.lastExplosion.map(pieceSymbol).join(' ') })));
    if (v.family === 'xiangqi' && status.streaks) parts.push(streakBox(v, status));
    parts.push(...this.extra(s));
    // move list
    const list = h('ol', { class: 'moves', 'aria-label': t('round.moves') });
    const num = moveNumbering(s.startFen);
    s.history.forEach((m, i) => {
      const b = button(m.san, () => this.goto(i + 1), { class: i + 1 === ply ? 'move current' : 'move', 'aria-current': i + 1 === ply ? 'true' : undefined });
      const n = num(i);
      list.append(h('li', { value: String(n.move), class: n.side === 'white' ? 'w' : 'b' }, b));
    });
    parts.push(h('div', { class: 'move-list' }, list));
    const nav = h(
      'div',
      { class: 'nav row' },
      button('«', () => this.goto(0), { 'aria-label': t('nav.first') }),
      button('‹', () => this.step(-1), { 'aria-label': t('nav.prev') }),
      button('›', () => this.step(1), { 'aria-label': t('nav.next') }),
      button('»', () => this.goto(s.history.length), { 'aria-label': t('nav.last') }),
      button('↕', () => this.board?.flip(), { 'aria-label': t('round.flip'), id: 'flip' }),
    );
    parts.push(nav);
    // typed moves
    if (!s.outcome && s.movable && this.viewPly === null) parts.push(this.typedForm(v));
    parts.push(h('div', { class: 'actions row' }, ...this.actions(s)));
    const typing = this.typed !== null && document.activeElement === this.typed.input;
    this.panel.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
    if (typing && this.typed?.input.isConnected) this.typed.input.focus();
    const cur = list.querySelector('.current');
    if (cur && 'scrollIntoView' in cur) cur.scrollIntoView({ block: 'nearest' });
    // new clock elements get their running / low-time look now, not at the next tick
    this.renderClocks();
  }
}

/** `e2e4` → e2/e4, `a10a9` → a10/a9. */
export function splitUci(uci: string): { from: string; to: string } | null {
  const m = /^([a-p]\d{1,2})([a-p]\d{1,2})[a-z]?$/.exec(uci);
  return m && m[1] && m[2] ? { from: m[1], to: m[2] } : null;
}

const SYMBOLS: Record<string, string> = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙', k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' };
const pieceSymbol = (l: string): string => SYMBOLS[l] ?? l;

function streakBox(v: VariantInfo, s: GameStatus): HTMLElement {
  const box = h('div', { class: 'streaks', 'aria-label': t('xq.streaks') }, h('h2', {}, t('xq.streaks')));
  for (const c of ['white', 'black'] as const) {
    const st = s.streaks?.[c];
    if (!st) continue;
    const items: string[] = [];
    if (st.check.len > 0) items.push(t('xq.checkStreak', { len: st.check.len, limit: st.check.limit }));
    for (const ch of st.chases) items.push(t('xq.chaseStreak', { len: ch.len, limit: ch.limit, target: ch.target }));
    box.append(h('p', {}, h('strong', {}, sideName(v, c)), ': ', items.length ? items.join(' · ') : t('xq.noStreak')));
  }
  if (s.counters) box.append(h('p', { class: 'muted' }, t('xq.counters', { total: s.counters.total_plies, progress: s.counters.progress_plies, effective: s.counters.effective_plies })));
  return box;
}

