/**
 * The parts of the game page that do not depend on who plays: board, move
 * list, navigation, clocks, dialogs. The one game page over the room
 * protocol (same device, computer and online alike) is in room.ts.
 */
import * as api from './api';
import { Board } from './board/ground';
import { button, h } from './dom';
import { t, type Key } from './i18n';
import { explosion, fenTurn, matchTyped } from './moves';
import { formatClock, opposite, type Color, type GameStatus, type MoveInfo, type Outcome, type Warning } from './protocol';
import { variantName } from './home';
import { iconButton, moveList, pieceSymbol, playerBar, resultDialog, resultText, sideName, streakBox, type PlayerInfo } from './roundParts';
import { onPrefs, prefs, setPref } from './settings';
import { play } from './sound';
import { fenPieces, type VariantInfo } from './variants';

export { resultText, sideName } from './roundParts';

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
  /** The side that may set a premove now (its opponent is to move), or null. */
  premovable: Color | null;
  orientation: Color;
  /** Who sits on each side, for the player bars. */
  players: Record<Color, PlayerInfo>;
  /** The sides this page plays (the low-time warning sounds for them). */
  mine: Color[];
}

/** How long the wheel must rest between two steps through the moves (ms). */
const WHEEL_GAP = 80;

/** The game page's view: board, player bars, move list, navigation, panel; the subclass says what to show and does the actions. */
export abstract class RoundView {
  protected board: Board | null = null;
  protected viewPly: number | null = null;
  /**
   * Positions seen, by ply, so stepping back draws them without asking: the
   * FEN and, when the server said it (live moves, position replies),
   * whether the side to move was in check.
   */
  protected positions = new Map<number, { fen: string; check?: boolean }>();
  protected lastExplosion: string[] = [];
  protected notice = '';
  protected thinking = false;
  readonly el = h('div', { class: 'round' });
  private readonly boardHost = h('div', { class: 'board-wrap' });
  private readonly boardCol = h('div', { class: 'board-col' });
  private readonly barTop = h('div', { class: 'bar-slot bar-slot-top' });
  private readonly barBottom = h('div', { class: 'bar-slot bar-slot-bottom' });
  private readonly panel = h('div', { class: 'panel' });
  private timer: ReturnType<typeof setInterval>;
  private lastShownKey = '';
  private prevFen: string | null = null;
  private prevPly = -1;
  private prevOutcome: boolean | null = null;
  private lowWarned = new Set<Color>();
  private wheelAt = 0;
  /** The result dialog was closed (or never wanted) for this game. */
  protected resultClosed = false;
  private clockEls: Partial<Record<Color, HTMLElement>> = {};
  /** The typed-move form, kept across renders so a half-typed move survives an update. */
  private typed: { form: HTMLElement; input: HTMLInputElement } | null = null;
  private readonly unPrefs: () => void;

  constructor() {
    this.boardCol.append(this.boardHost, resizeHandle(this.el));
    this.el.append(this.barTop, this.boardCol, this.barBottom, this.panel);
    applyBoardSize(this.el, prefs().boardSize);
    this.unPrefs = onPrefs((p) => {
      applyBoardSize(this.el, p.boardSize);
      // the bars draw Xiangqi pieces in the chosen style
      this.render();
    });
    this.timer = setInterval(() => this.tick(), 200);
    // on the document, not the page: after a move made on the board the focus is on <body>
    document.addEventListener('keydown', this.onKey);
    this.boardHost.addEventListener('wheel', this.onWheel, { passive: false });
  }

  /** ← → step through the moves, Home and End jump to the start and the live position, f flips the board (as on lichess). */
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
    else if (e.key === 'f') this.board?.flip();
    else return;
    e.preventDefault();
  };

  /** The wheel over the board steps through the moves: down is forward, as on lichess. */
  private readonly onWheel = (e: WheelEvent): void => {
    if (e.ctrlKey || Math.abs(e.deltaY) < 1 || document.querySelector('.promotion-picker')) return;
    e.preventDefault();
    const now = performance.now();
    if (now - this.wheelAt < WHEEL_GAP) return;
    this.wheelAt = now;
    this.step(e.deltaY > 0 ? 1 : -1);
  };

  protected abstract shown(): Shown | null;
  protected abstract play(uci: string): void;
  protected abstract actions(s: Shown): HTMLElement[];
  protected abstract extra(s: Shown): (HTMLElement | null)[];
  /** The buttons of the result dialog (rematch, new game, download, analysis). */
  protected abstract resultActions(s: Shown): HTMLElement[];
  protected tick(): void {
    this.renderClocks();
  }

  destroy(): void {
    document.removeEventListener('keydown', this.onKey);
    clearInterval(this.timer);
    this.unPrefs();
    this.board?.destroy();
  }

  protected ensureBoard(s: Shown): Board {
    if (!this.board)
      this.board = new Board(this.boardHost, {
        variant: s.variant,
        fen: s.status?.fen,
        orientation: s.orientation,
        onMove: (uci) => {
          if (uci) void this.tryPlay(uci);
          else this.render();
        },
        onFlip: () => this.render(),
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
    // looking back through a finished game: the dialog is in the way
    if (this.viewPly !== null) this.resultClosed = true;
    if (this.viewPly === 0 && s.startFen) this.positions.set(0, { fen: s.startFen, check: this.positions.get(0)?.check });
    if (this.viewPly !== null && !this.positions.has(this.viewPly)) {
      // a position not seen live (a game opened mid-way): ask the server for its FEN
      const p = this.viewPly;
      api
        .position(s.variant.name, s.startFen, s.history.slice(0, p).map((m) => m.uci))
        .then((r) => {
          this.positions.set(p, { fen: r.status.fen, check: r.status.check });
          this.render();
        })
        .catch(() => undefined);
    }
    this.render();
  }

  /** Re-renders the board (when its position changed), the bars and the panel. */
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
    const fen = live ? s.status.fen : this.positions.get(ply)?.fen;
    const key = `${ply}|${fen ?? ''}|${live ? JSON.stringify([s.movable, s.premovable]) : 'v'}|${s.moves.length}|${this.thinking}`;
    if (key !== this.lastShownKey && fen) {
      this.lastShownKey = key;
      const lm = ply > 0 ? s.history[ply - 1] : undefined;
      const canMove = live && !s.outcome && !this.thinking ? s.movable : null;
      board.set({
        fen,
        turn: live ? s.status.turn : fenTurn(fen),
        check: live ? s.status.check : this.checkAt(s, ply),
        lastMove: lm ? splitUci(lm.uci) : null,
        moves: live ? s.moves : [],
        movable: canMove,
        premovable: live && !s.outcome ? s.premovable : null,
      });
      if (live && this.prevFen && ply === this.prevPly + 1 && lm) this.newMove(s, board, this.prevFen, fen, lm.uci);
      if (live) {
        this.prevFen = fen;
        this.prevPly = ply;
      }
      // a premove set while the opponent thought: played now if the server lists it, else dropped
      if (canMove && canMove !== 'both') board.playPremove();
    }
    if (this.prevOutcome === false && s.outcome) play('end');
    // a game already over when the page opened: no dialog in the way, the panel says the result
    if (this.prevOutcome === null && s.outcome) this.resultClosed = true;
    this.prevOutcome = s.outcome !== null;
    this.renderBars(s, fen ?? s.status.fen);
    this.renderPanel(s, ply);
    this.renderResult(s);
  }

  /**
   * Whether the side to move was in check at an earlier position: as the
   * server said when it was seen, else from the move's SAN (`+`, `#`) on
   * an 8×8 board (WXF has no check mark).
   */
  private checkAt(s: Shown, ply: number): boolean {
    const known = this.positions.get(ply)?.check;
    if (known !== undefined) return known;
    return s.variant.notation === 'san' && ply > 0 && /[+#]$/.test(s.history[ply - 1]?.san ?? '');
  }

  /** A move arrived live: its explosion (Atomic) and its sound. */
  private newMove(s: Shown, board: Board, before: string, after: string, uci: string): void {
    const mv = splitUci(uci);
    const e = mv ? explosion(s.variant, before, after, mv.from, mv.to) : null;
    if (e) {
      board.explode(e.squares);
      this.lastExplosion = e.removed;
    } else this.lastExplosion = [];
    const captured = fenPieces(after, s.variant.dims).size < fenPieces(before, s.variant.dims).size;
    if (e) play('explosion');
    // a move that ends the game: the end sound says it (after the blast, in Atomic)
    else if (!s.outcome) play(s.status?.check ? 'check' : captured ? 'capture' : 'move');
  }

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
      const ms = s.clock[c];
      if (el) {
        el.textContent = formatClock(ms);
        el.classList.toggle('running', s.clockRunning === c && !s.outcome);
        el.classList.toggle('low', ms < 10000);
      }
      // one warning each time a player's own clock runs under 10 s (again after an increment took it back over)
      if (ms >= 10000) this.lowWarned.delete(c);
      else if (s.clockRunning === c && !s.outcome && s.mine.includes(c) && !this.lowWarned.has(c)) {
        this.lowWarned.add(c);
        play('lowtime');
      }
    }
  }

  /** The player bars above and below the board, the side at the bottom being the board's. */
  private renderBars(s: Shown, fen: string): void {
    const bottom = this.board?.orientation() ?? s.orientation;
    this.clockEls = {};
    for (const [slot, c, pos] of [
      [this.barTop, opposite(bottom), 'top'],
      [this.barBottom, bottom, 'bottom'],
    ] as const) {
      const { bar, clock } = playerBar(s.variant, c, pos, s.players[c], fen, s.clock ? s.clock[c] : null);
      if (clock) this.clockEls[c] = clock;
      slot.replaceChildren(bar);
    }
  }

  private result: HTMLElement | null = null;
  /** The result dialog over the board, once per finished game until closed. */
  private renderResult(s: Shown): void {
    const want = s.outcome && !this.resultClosed && this.viewPly === null;
    if (!want || !s.outcome) {
      this.result?.remove();
      this.result = null;
      return;
    }
    const next = resultDialog(s.variant, s.outcome, this.resultActions(s), () => {
      this.resultClosed = true;
      this.render();
    });
    const controls = (d: HTMLElement): HTMLElement[] => Array.from(d.querySelectorAll<HTMLElement>('button, a'));
    const active = document.activeElement as HTMLElement | null;
    const kept = this.result && active && this.result.contains(active) ? controls(this.result).indexOf(active) : -1;
    const first = !this.result;
    if (this.result) this.result.replaceWith(next);
    else this.boardCol.append(next);
    this.result = next;
    // keyboard users land on the first choice when the dialog opens, and keep their place across redraws
    if (first) next.querySelector<HTMLElement>('.rd-actions button, .rd-actions a')?.focus({ preventScroll: true });
    else if (kept >= 0) controls(next)[kept]?.focus({ preventScroll: true });
  }

  private renderPanel(s: Shown, ply: number): void {
    const v = s.variant;
    const status = s.status as GameStatus;
    const parts: (HTMLElement | null)[] = [];
    parts.push(h('h1', { class: 'game-title' }, variantName(v.name)));
    const viewed = this.viewPly === null ? null : this.positions.get(ply)?.fen;
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
    if (v.family === 'xiangqi') parts.push(streakBox(v, status));
    parts.push(...this.extra(s));
    const list = moveList(s.history, s.startFen, ply, (p) => this.goto(p));
    parts.push(list);
    const n = s.history.length;
    const nav = h(
      'div',
      { class: 'nav row' },
      iconButton('first', t('nav.first'), () => this.goto(0), n && ply > 0 ? {} : { disabled: '' }),
      iconButton('prev', t('nav.prev'), () => this.step(-1), n && ply > 0 ? {} : { disabled: '' }),
      iconButton('next', t('nav.next'), () => this.step(1), ply < n ? {} : { disabled: '' }),
      iconButton('last', t('nav.last'), () => this.goto(n), ply < n ? {} : { disabled: '' }),
      iconButton('flip', t('round.flip'), () => this.board?.flip(), { id: 'flip' }),
    );
    parts.push(nav);
    // typed moves
    if (!s.outcome && s.movable && this.viewPly === null) parts.push(this.typedForm(v));
    parts.push(h('div', { class: 'actions row' }, ...this.actions(s)));
    const typing = this.typed !== null && document.activeElement === this.typed.input;
    const focusedNav = document.activeElement?.closest('.nav') ? Array.from(document.activeElement.parentElement?.children ?? []).indexOf(document.activeElement) : -1;
    this.panel.replaceChildren(...parts.filter((x): x is HTMLElement => x !== null));
    if (typing && this.typed?.input.isConnected) this.typed.input.focus();
    // a navigation button clicked keeps the focus (keyboard users step on with Enter)
    if (focusedNav >= 0) (nav.children[focusedNav] as HTMLElement | undefined)?.focus();
    const cur = list?.querySelector('.current');
    if (cur && list) list.scrollTop = Math.max(0, (cur as HTMLElement).offsetTop - list.clientHeight / 2);
    // new clock elements get their running / low-time look now, not at the next tick
    this.renderClocks();
  }
}

/** The board size the player chose (a CSS variable the layout reads), or the default. */
function applyBoardSize(el: HTMLElement, px: number | null): void {
  if (px === null) el.style.removeProperty('--board-pref');
  else el.style.setProperty('--board-pref', `${px}px`);
}

/** The corner handle that resizes the board by dragging; the size is remembered, a double click forgets it. */
function resizeHandle(round: HTMLElement): HTMLElement {
  const grip = h('div', { class: 'board-resize', title: t('round.resize'), 'aria-hidden': 'true' });
  grip.addEventListener('pointerdown', (e) => {
    const host = round.querySelector('.board-host');
    if (!host) return;
    e.preventDefault();
    const start = host.getBoundingClientRect().width;
    const [x0, y0] = [e.clientX, e.clientY];
    grip.setPointerCapture(e.pointerId);
    let size = start;
    const move = (ev: PointerEvent): void => {
      size = Math.max(200, Math.round(start + Math.max(ev.clientX - x0, ev.clientY - y0)));
      applyBoardSize(round, size);
    };
    const up = (): void => {
      grip.removeEventListener('pointermove', move);
      grip.removeEventListener('pointerup', up);
      setPref('boardSize', size);
    };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', up);
  });
  grip.addEventListener('dblclick', () => setPref('boardSize', null));
  return grip;
}

/** `e2e4` → e2/e4, `a10a9` → a10/a9. */
export function splitUci(uci: string): { from: string; to: string } | null {
  const m = /^([a-p]\d{1,2})([a-p]\d{1,2})[a-z]?$/.exec(uci);
  return m && m[1] && m[2] ? { from: m[1], to: m[2] } : null;
}

