/**
 * The game page, for the three ways to play: same device and computer
 * games (kept in the browser, positions from `POST /api/position`, the
 * computer's moves from `POST /api/ai-move`) and online rooms (WebSocket).
 */
import * as api from './api';
import { Board } from './board/ground';
import { button, go, h } from './dom';
import { t, type Key } from './i18n';
import { afterMove, flagged, formatClock, remaining, stop } from './localclock';
import type { Page } from './main';
import { aiTakebackPlies, explosion, matchTyped } from './moves';
import {
  applyEvent,
  isEvent,
  liveClock,
  opposite,
  type ClaimKind,
  type Color,
  type GameStatus,
  type MoveInfo,
  type Outcome,
  type RoomState,
  type ServerMsg,
  type Warning,
} from './protocol';
import { Socket, type Connection } from './socket';
import { seats, type LocalGame } from './store';
import { store, startLocal, variantName } from './home';
import { VARIANT_INFO, type VariantInfo } from './variants';

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
function confirmDialog(title: string, body: string, yes: string, no: string): Promise<boolean> {
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
interface Shown {
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

/** The parts shared by local and online pages: board, move list, navigation, panel. */
abstract class RoundView {
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
    if (this.viewPly !== null && !this.fenCache.has(this.viewPly)) {
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
    if (s.outcome) parts.push(h('div', { class: 'result', role: 'status' }, resultText(v, s.outcome)));
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
    s.history.forEach((m, i) => {
      const b = button(m.san, () => this.goto(i + 1), { class: i + 1 === ply ? 'move current' : 'move', 'aria-current': i + 1 === ply ? 'true' : undefined });
      list.append(h('li', { value: String(Math.floor(i / 2) + 1), class: i % 2 === 0 ? 'w' : 'b' }, b));
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

/** Same-device and computer games. */
class LocalRound extends RoundView {
  private status: GameStatus | null = null;
  private moves: MoveInfo[] = [];
  private warnings: Warning[] = [];
  /** The move list `status` describes; not `game.moves` while a refresh is in flight. */
  private statusFor: readonly string[] | null = null;
  private readonly v: VariantInfo;

  constructor(private game: LocalGame) {
    super();
    this.v = VARIANT_INFO[game.variant];
    void this.refresh();
  }

  private outcome(): Outcome | null {
    return this.game.outcome ?? this.status?.outcome ?? null;
  }

  protected override busy(): boolean {
    return this.thinking || this.statusFor !== this.game.moves;
  }

  private save(): void {
    this.game.updatedAt = Date.now();
    store().save(this.game);
  }

  private async refresh(): Promise<void> {
    const asked = this.game.moves;
    try {
      const r = await api.position(this.game.variant, this.game.startFen, asked);
      // a move or takeback made meanwhile has its own request in flight
      if (this.game.moves !== asked) return;
      this.status = r.status;
      this.statusFor = asked;
      this.moves = r.moves;
      this.warnings = r.warnings;
      this.fenCache.set(this.game.moves.length, r.status.fen);
      this.notice = '';
      if (r.status.outcome && this.game.clock?.running) {
        this.game.clock = stop(this.game.clock, Date.now());
        this.save();
      }
    } catch (e) {
      this.notice = e instanceof api.ApiError ? t('error.server', { code: e.code }) : String(e);
    }
    this.render();
    void this.maybeAi();
  }

  private async maybeAi(): Promise<void> {
    const g = this.game;
    if (g.mode !== 'ai' || !this.status || this.outcome() || this.thinking || this.status.turn === g.human) return;
    this.thinking = true;
    this.render();
    const ply = g.moves.length;
    try {
      // The server answers `unavailable` when every engine thread is busy
      // past the move's deadline; that is a reason to wait, not to stop.
      let m: { uci: string; san: string } | null = null;
      for (let attempt = 0; m === null; attempt++) {
        try {
          m = await api.aiMove(g.variant, g.startFen, g.moves, g.aiLevel ?? 1);
        } catch (e) {
          if (!(e instanceof api.ApiError && e.code === 'unavailable') || attempt >= 8) throw e;
          await new Promise((r) => setTimeout(r, 250 * 2 ** Math.min(attempt, 4)));
        }
      }
      this.thinking = false;
      if (g.moves.length === ply && !this.outcome()) this.commit(m.uci, m.san);
    } catch (e) {
      this.thinking = false;
      this.notice = e instanceof api.ApiError ? t('error.server', { code: e.code }) : String(e);
      this.render();
    }
  }

  private commit(uci: string, san: string): void {
    const g = this.game;
    const mover = this.status?.turn ?? 'white';
    g.moves = [...g.moves, uci];
    g.sans = [...g.sans, san];
    if (g.clock) g.clock = afterMove(g.clock, mover, g.moves.length, Date.now());
    this.save();
    this.viewPly = null;
    void this.refresh();
  }

  protected play(uci: string): void {
    const m = this.moves.find((x) => x.uci === uci);
    if (!m || this.outcome() || this.thinking) return;
    this.commit(uci, m.san);
  }

  protected override tick(): void {
    const c = this.game.clock;
    if (c && !this.outcome()) {
      const f = flagged(c, Date.now());
      if (f) this.end({ winner: opposite(f), reason: 'timeout' });
    }
    super.tick();
  }

  private end(o: Outcome): void {
    this.game.outcome = o;
    if (this.game.clock) this.game.clock = stop(this.game.clock, Date.now());
    this.save();
    this.render();
  }

  protected shown(): Shown | null {
    const g = this.game;
    const clk = g.clock;
    const fresh = this.statusFor === g.moves;
    return {
      variant: this.v,
      startFen: g.startFen,
      history: g.moves.map((uci, i) => ({ uci, san: g.sans[i] ?? uci })),
      status: this.status,
      // no moves on a stale status: they would be the previous position's
      moves: fresh ? this.moves : [],
      warnings: fresh ? this.warnings : [],
      outcome: this.outcome(),
      clock: clk ? remaining(clk, Date.now()) : null,
      clockRunning: clk?.running ?? null,
      movable: !fresh ? null : g.mode === 'ai' ? g.human : 'both',
      orientation: g.mode === 'ai' ? (g.human ?? 'white') : 'white',
    };
  }

  protected extra(): HTMLElement[] {
    const g = this.game;
    return [h('p', { class: 'muted mode-line' }, g.mode === 'ai' ? t('round.vsAi', { level: g.aiLevel ?? 1, side: sideName(this.v, g.human ?? 'white') }) : t('round.local'))];
  }

  protected actions(s: Shown): HTMLElement[] {
    const g = this.game;
    const out: HTMLElement[] = [];
    const over = !!s.outcome;
    const status = s.status;
    if (!over && status) {
      const resigner: Color = g.mode === 'ai' ? (g.human ?? 'white') : status.turn;
      if (g.moves.length < 2 && g.mode === 'local')
        out.push(button(t('act.abort'), () => this.end({ winner: null, reason: 'aborted' }), { id: 'abort' }));
      out.push(
        button(t('act.resign'), () => {
          void confirmDialog(t('act.resign'), t('confirm.resign', { side: sideName(this.v, resigner) }), t('act.resign'), t('warn.cancel')).then((ok) => {
            if (ok) this.end({ winner: opposite(resigner), reason: 'resignation' });
          });
        }, { id: 'resign' }),
      );
      if (g.mode === 'local' && g.moves.length >= 2)
        out.push(button(t('act.agreeDraw'), () => this.end({ winner: null, reason: 'draw_agreement' }), { id: 'draw' }));
      const canClaim = g.mode === 'local' || status.turn === g.human;
      if (canClaim)
        for (const c of status.claimable) out.push(button(t(`claim.${c}` as Key), () => this.end({ winner: null, reason: c }), { id: `claim-${c}` }));
    }
    const undoable = g.mode === 'ai' ? g.moves.length >= 1 && !this.thinking : g.moves.length >= 1;
    if (undoable)
      out.push(button(t('act.takeback'), () => this.takeback(), { id: 'takeback' }));
    if (over)
      out.push(
        button(t('act.rematch'), () =>
          startLocal({
            variant: g.variant,
            mode: g.mode,
            aiLevel: g.aiLevel,
            human: g.human ? opposite(g.human) : null,
            clock: g.clock ? { minutes: g.clock.initial / 60000, increment: g.clock.increment / 1000 } : null,
          }), { id: 'rematch', class: 'primary' }),
      );
    out.push(button(t('act.home'), () => go('/'), { class: 'link' }));
    return out;
  }

  private takeback(): void {
    const g = this.game;
    if (g.moves.length === 0) return;
    const n = g.mode === 'ai' && g.human ? aiTakebackPlies(g.startFen, g.moves.length, g.human) : 1;
    if (n === 0) return;
    g.moves = g.moves.slice(0, -n);
    g.sans = g.sans.slice(0, -n);
    g.outcome = null;
    this.save();
    this.viewPly = null;
    void this.refresh();
  }
}

/** An online room over the WebSocket. */
class OnlineRound extends RoundView {
  private room: RoomState | null = null;
  private conn: Connection = 'connecting';
  private readonly sock: Socket;
  private pending: { uci: string; ply: number } | null = null;

  protected override busy(): boolean {
    return this.pending !== null || this.conn !== 'open';
  }
  private presenceAt = 0;
  private lastSecond = -1;

  constructor(
    private readonly id: string,
    private invite: string | null,
  ) {
    super();
    this.sock = new Socket({
      url: () => {
        const token = seats.get(localStorage, id);
        const q = token ? `?token=${encodeURIComponent(token)}` : this.invite ? `?invite=${encodeURIComponent(this.invite)}` : '';
        return `/ws/room/${encodeURIComponent(id)}${q}`;
      },
      lastV: () => this.room?.v ?? null,
      onMessage: (m) => this.onMessage(m),
      onConnection: (c) => {
        this.conn = c;
        if (c === 'open' && this.pending && this.room && this.room.history.length <= this.pending.ply)
          this.sock.send({ t: 'move', d: this.pending });
        this.render();
      },
    });
  }

  override destroy(): void {
    this.sock.close();
    super.destroy();
  }

  private onMessage(m: ServerMsg): void {
    const now = performance.now();
    if (m.t === 'state') {
      this.presenceAt = now;
      this.room = { ...m.d, clockAt: now };
      this.fenCache.clear();
    } else if (isEvent(m)) {
      if (!this.room) return;
      const r = applyEvent(this.room, m, now);
      if (r.kind === 'gap') this.sock.send({ t: 'sync', d: { v: this.room.v } });
      else if (r.kind === 'applied') {
        this.room = r.room;
        if (m.t === 'move' && this.pending && m.d.ply === this.pending.ply) this.pending = null;
      }
    } else if (m.t === 'seat') {
      seats.set(localStorage, this.id, m.d.token);
      this.invite = null;
      history.replaceState(null, '', `/r/${this.id}`);
      if (this.room) this.room = { ...this.room, you: m.d.color };
    } else if (m.t === 'ack') {
      if (this.pending && this.pending.ply === m.d.ply) this.pending = null;
    } else if (m.t === 'presence') {
      this.presenceAt = now;
      if (this.room) this.room = { ...this.room, presence: m.d };
    } else if (m.t === 'error') {
      this.notice = t(`wsError.${m.d.code}` as Key) || m.d.message;
      if (m.d.code === 'illegal_move' || m.d.code === 'not_your_turn') this.pending = null;
    }
    this.render();
  }

  /** The opponent's disconnect countdown as it stands now (ms), or null. */
  private claimIn(c: Color): number | null {
    const p = this.room?.presence[c];
    if (!p || p.connected || p.claim_in === null) return null;
    return Math.max(0, p.claim_in - (performance.now() - this.presenceAt));
  }

  protected override tick(): void {
    super.tick();
    const r = this.room;
    if (r?.you) {
      const left = this.claimIn(opposite(r.you));
      const sec = left === null ? -1 : Math.ceil(left / 1000);
      if (sec !== this.lastSecond) {
        this.lastSecond = sec;
        this.render();
      }
    }
  }

  protected play(uci: string): void {
    const r = this.room;
    if (!r || !r.you) return;
    this.notice = '';
    this.pending = { uci, ply: r.history.length };
    this.sock.send({ t: 'move', d: this.pending });
  }

  protected shown(): Shown | null {
    const r = this.room;
    if (!r) return null;
    const lc = r.clock ? liveClock(r.clock, r.clockAt ?? performance.now(), performance.now()) : null;
    const myTurn = r.you !== null && r.status.turn === r.you && r.state === 'playing' && !this.pending;
    return {
      variant: VARIANT_INFO[r.variant],
      startFen: r.start_fen,
      history: r.history,
      status: r.status,
      moves: r.moves,
      warnings: r.warnings,
      outcome: r.outcome ?? r.status.outcome,
      clock: lc,
      clockRunning: r.clock?.running ?? null,
      movable: myTurn ? r.you : null,
      orientation: r.you ?? 'white',
    };
  }

  protected extra(s: Shown): (HTMLElement | null)[] {
    const r = this.room;
    if (!r) return [];
    const out: (HTMLElement | null)[] = [];
    const connText = t(`conn.${this.conn}` as Key);
    out.push(h('p', { class: `conn conn-${this.conn}`, role: 'status', id: 'connection' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), ' ', connText));
    out.push(h('p', { class: 'muted' }, r.you ? t('round.youPlay', { side: sideName(s.variant, r.you) }) : t('round.spectating')));
    if (r.state === 'waiting') {
      const invite = localStorage.getItem('cpx.invite.' + r.id);
      const abs = (p: string): string => location.origin + p;
      const box = h('div', { class: 'invite' }, h('p', {}, t('room.waiting')));
      if (invite && r.you) box.append(linkCopy('invite-link', t('room.invite'), abs(invite)));
      box.append(linkCopy('spectate-link', t('room.spectate'), abs(`/r/${r.id}`)));
      out.push(box);
    }
    if (r.you) {
      const opp = opposite(r.you);
      const p = r.presence[opp];
      const left = this.claimIn(opp);
      if (r.state === 'playing' && !p.connected)
        out.push(h('p', { class: 'notice' }, left !== null && left > 0 ? t('room.oppGoneCountdown', { seconds: Math.ceil(left / 1000) }) : t('room.oppGone')));
    }
    return out;
  }

  protected actions(s: Shown): HTMLElement[] {
    const r = this.room;
    const out: HTMLElement[] = [];
    if (!r || !r.you) {
      out.push(button(t('act.home'), () => go('/'), { class: 'link' }));
      return out;
    }
    const me = r.you;
    const send = (tt: Parameters<Socket['send']>[0]): void => this.sock.send(tt);
    if (!s.outcome && r.state === 'playing') {
      if (r.history.length < 2) out.push(button(t('act.abort'), () => send({ t: 'abort' }), { id: 'abort' }));
      out.push(
        button(t('act.resign'), () => {
          void confirmDialog(t('act.resign'), t('confirm.resign', { side: sideName(s.variant, me) }), t('act.resign'), t('warn.cancel')).then((ok) => {
            if (ok) send({ t: 'resign' });
          });
        }, { id: 'resign' }),
      );
      const drawBy = r.offers.draw;
      if (drawBy === opposite(me)) {
        out.push(button(t('act.acceptDraw'), () => send({ t: 'draw_accept' }), { id: 'draw-accept', class: 'primary' }));
        out.push(button(t('act.declineDraw'), () => send({ t: 'draw_decline' }), { id: 'draw-decline' }));
      } else if (drawBy === me) out.push(h('span', { class: 'muted' }, t('act.drawOffered')));
      else if (r.ai_level === null) out.push(button(t('act.offerDraw'), () => send({ t: 'draw_offer' }), { id: 'draw-offer' }));
      const tb = r.offers.takeback;
      if (tb === opposite(me)) {
        out.push(button(t('act.acceptTakeback'), () => send({ t: 'takeback_accept' }), { id: 'takeback-accept', class: 'primary' }));
        out.push(button(t('act.declineTakeback'), () => send({ t: 'takeback_decline' }), { id: 'takeback-decline' }));
      } else if (tb === me) out.push(h('span', { class: 'muted' }, t('act.takebackOffered')));
      else if (r.history.length > 0) out.push(button(t('act.offerTakeback'), () => send({ t: 'takeback_offer' }), { id: 'takeback' }));
      if (r.status.turn === me)
        for (const c of r.status.claimable)
          out.push(button(t(`claim.${c}` as Key), () => send({ t: 'claim', d: { claim: c as ClaimKind } }), { id: `claim-${c}` }));
      if (this.claimIn(opposite(me)) === 0) out.push(button(t('act.claimVictory'), () => send({ t: 'claim_victory' }), { id: 'claim-victory' }));
    }
    if (s.outcome) {
      if (r.rematch) {
        const token = seats.get(localStorage, r.id);
        out.push(
          button(t('act.toRematch'), () => {
            if (token && r.rematch) seats.set(localStorage, r.rematch, token);
            go(`/r/${r.rematch ?? ''}`);
          }, { id: 'to-rematch', class: 'primary' }),
        );
      } else if (r.offers.rematch === opposite(me)) {
        out.push(button(t('act.acceptRematch'), () => send({ t: 'rematch_accept' }), { id: 'rematch-accept', class: 'primary' }));
        out.push(button(t('act.declineRematch'), () => send({ t: 'rematch_decline' }), { id: 'rematch-decline' }));
      } else if (r.offers.rematch === me) out.push(h('span', { class: 'muted' }, t('act.rematchOffered')));
      else out.push(button(t('act.rematch'), () => send({ t: 'rematch_offer' }), { id: 'rematch' }));
      out.push(h('a', { href: `/api/rooms/${r.id}/export`, class: 'btn', download: `${r.id}.txt` }, t('act.export')));
    }
    out.push(button(t('act.home'), () => go('/'), { class: 'link' }));
    return out;
  }
}

function linkCopy(id: string, label: string, url: string): HTMLElement {
  const input = h('input', { id, type: 'text', readonly: true, value: url });
  const msg = h('span', { class: 'muted', 'aria-live': 'polite' });
  return h(
    'div',
    { class: 'copy row' },
    h('label', { for: id }, label),
    input,
    button(t('room.copy'), () => {
      input.select();
      navigator.clipboard?.writeText(url).then(
        () => (msg.textContent = t('room.copied')),
        () => (msg.textContent = ''),
      );
    }),
    msg,
  );
}

/** `/play/{id}`: a saved same-device or computer game. */
export function localGamePage(id: string): Page {
  const g = store().get(id);
  if (!g) return { el: h('div', { class: 'missing' }, h('h1', {}, t('round.notFound')), h('a', { href: '/' }, t('act.home'))) };
  const r = new LocalRound(g);
  r.render();
  return { el: r.el, title: variantName(g.variant), destroy: () => r.destroy() };
}

/** `/r/{id}`: an online room. */
export function roomPage(id: string, invite: string | null): Page {
  const r = new OnlineRound(id, invite);
  r.render();
  return { el: r.el, title: t('home.friend'), destroy: () => r.destroy() };
}
