/**
 * The one game page: every way to play is a server room over the room
 * WebSocket (docs/protocol.md). A same-device game is a room whose two seats
 * this browser holds (both tokens on one socket, `as` saying which seat
 * acts); a computer game is an AI room; an online game holds one seat; a
 * spectator none. The server judges everything — moves, clocks, takebacks,
 * claims, aborts and ends — and the page only draws what it says (and counts
 * the clock down between its messages).
 */
import * as api from './api';
import { button, go, h } from './dom';
import { t, type Key } from './i18n';
import type { Page } from './main';
import { applyEvent, isEvent, liveClock, opposite, type ClaimKind, type ClientMsg, type Color, type RoomState, type ServerMsg } from './protocol';
import { RoundView, confirmDialog, sideName, type Shown } from './round';
import type { PlayerInfo } from './roundParts';
import { Socket, type Connection } from './socket';
import { continueUrl, gameStore, seats, tokensFromHash, type SavedGame } from './store';
import { variantName } from './home';
import { VARIANT_INFO } from './variants';

/**
 * How long the opponent must have been away, as this page saw it, before
 * the page says so: a rematch opens the new room on both pages at about
 * the same time, and the first one there would otherwise tell its player
 * that the other one "has disconnected" (with the claim countdown) for the
 * moment the other page takes to connect.
 */
const GONE_GRACE_MS = 2500;
/**
 * The same for an opponent this page has not yet seen connected (a new
 * room, a rematch, this page reloaded): on a loaded machine the other page
 * may take longer than the grace above to arrive, and it has not left.
 */
const ARRIVAL_GRACE_MS = 10000;

/** A room, whoever holds which seat in it. */
class RoomRound extends RoundView {
  private room: RoomState | null = null;
  private conn: Connection = 'connecting';
  private sock: Socket | null = null;
  private pending: { uci: string; ply: number } | null = null;
  private presenceAt = 0;
  private lastSecond = -1;
  /** Since when (page clock) the opponent of a one-seat player has been seen without a connection, or null. */
  private oppGoneSince: number | null = null;
  private oppGoneShown = false;
  /** The opponent has been seen connected by this page. */
  private oppSeen = false;
  /** The room does not exist (unknown or expired link). */
  private missing = false;
  /** The seat tokens this page holds. */
  private tokens: string[];
  private createdAt = Date.now();
  private closed = false;

  protected override busy(): boolean {
    return this.pending !== null || this.conn !== 'open';
  }

  constructor(
    private readonly id: string,
    private invite: string | null,
  ) {
    super();
    const fromLink = tokensFromHash(location.hash);
    const saved = gameStore().get(id);
    if (fromLink.length) {
      // "continue on another device": keep the seats, drop them from the address bar
      history.replaceState(null, '', `/r/${id}`);
      if (fromLink.length === 1 && fromLink[0]) seats.set(localStorage, id, fromLink[0]);
    }
    const single = seats.get(localStorage, id);
    this.tokens = fromLink.length ? fromLink : saved ? saved.tokens : single ? [single] : [];
    if (saved) this.createdAt = saved.createdAt;
    if (saved?.snapshot && (!fromLink.length || sameTokens(fromLink, saved.tokens))) {
      // draw the game as it was at once; the socket asks only for what came after its `v`
      const snap = saved.snapshot;
      const now = performance.now();
      this.room = { ...snap.room, clockAt: now - Math.max(0, Date.now() - snap.clockWall) };
      for (const [ply, fen] of Object.entries(snap.fens)) this.positions.set(Number(ply), { fen });
    }
    void this.open();
  }

  /** Checks that the room exists (one request, no polling), then connects. */
  private async open(): Promise<void> {
    try {
      if (!(await api.roomExists(this.id))) {
        this.missing = true;
        this.render();
        return;
      }
    } catch {
      /* the network: the socket retries by itself */
    }
    if (this.closed) return;
    this.sock = new Socket({
      url: () => {
        const q = this.tokens.length ? `?token=${this.tokens.map(encodeURIComponent).join(',')}` : this.invite ? `?invite=${encodeURIComponent(this.invite)}` : '';
        return `/ws/room/${encodeURIComponent(this.id)}${q}`;
      },
      lastV: () => this.room?.v ?? null,
      onMessage: (m) => this.onMessage(m),
      onConnection: (c) => {
        this.conn = c;
        if (c === 'open' && this.pending && this.room && this.room.history.length <= this.pending.ply) this.send({ t: 'move', d: this.pending });
        this.render();
      },
    });
  }

  override destroy(): void {
    this.closed = true;
    this.sock?.close();
    super.destroy();
  }

  private send(m: ClientMsg): void {
    this.sock?.send(m);
  }

  /** The seats this page holds. */
  private held(): Color[] {
    return this.room?.seats ?? [];
  }
  /** Both seats: a same-device game. */
  private sameDevice(): boolean {
    return this.held().length === 2;
  }

  private onMessage(m: ServerMsg): void {
    const now = performance.now();
    if (m.t === 'state') {
      this.presenceAt = now;
      this.room = { ...m.d, clockAt: now };
      this.positions.clear();
      this.positions.set(0, { fen: m.d.start_fen });
      this.positions.set(m.d.history.length, { fen: m.d.status.fen, check: m.d.status.check });
    } else if (isEvent(m)) {
      if (!this.room) return;
      const r = applyEvent(this.room, m, now);
      if (r.kind === 'gap') this.send({ t: 'sync', d: { v: this.room.v } });
      else if (r.kind === 'applied') {
        this.room = r.room;
        this.rememberFen(m);
        if (m.t === 'move' && this.pending && m.d.ply === this.pending.ply) this.pending = null;
        if (m.t === 'rematch' && this.held().length) {
          // both players follow a rematch agreed now (colours swap, tokens stay)
          this.save();
          this.followRematch(m.d.id);
          return;
        }
      }
    } else if (m.t === 'seat') {
      seats.set(localStorage, this.id, m.d.token);
      this.tokens = [m.d.token];
      this.invite = null;
      history.replaceState(null, '', `/r/${this.id}`);
      if (this.room) this.room = { ...this.room, you: m.d.color, seats: [m.d.color] };
    } else if (m.t === 'ack') {
      if (this.pending && this.pending.ply === m.d.ply) this.pending = null;
    } else if (m.t === 'presence') {
      this.presenceAt = now;
      if (this.room) this.room = { ...this.room, presence: m.d };
    } else if (m.t === 'error') {
      this.notice = t(`wsError.${m.d.code}` as Key) || m.d.message;
      if (m.d.code === 'illegal_move' || m.d.code === 'not_your_turn') this.pending = null;
    }
    this.watchOpponent(now);
    this.save();
    this.render();
  }

  /** Notes when the opponent's connection went (or came back), for the grace before saying so. */
  private watchOpponent(now: number): void {
    const r = this.room;
    const away = !!r?.you && !this.sameDevice() && r.ai_level === null && r.players[opposite(r.you)].seated && !r.presence[opposite(r.you)].connected;
    if (r?.you && r.presence[opposite(r.you)].connected) this.oppSeen = true;
    if (!away) this.oppGoneSince = null;
    else this.oppGoneSince ??= now;
  }

  /** The opponent has been away longer than the grace. */
  private oppGone(): boolean {
    return this.oppGoneSince !== null && performance.now() - this.oppGoneSince >= (this.oppSeen ? GONE_GRACE_MS : ARRIVAL_GRACE_MS);
  }

  /** Positions seen live (FEN and check), by ply, so stepping back draws them without asking. */
  private rememberFen(m: Extract<ServerMsg, { v: number }>): void {
    const drop = (after: number): void => {
      for (const k of this.positions.keys()) if (k > after) this.positions.delete(k);
    };
    if (m.t === 'move') {
      drop(m.d.ply);
      this.positions.set(m.d.ply + 1, { fen: m.d.status.fen, check: m.d.status.check });
    } else if (m.t === 'takeback') {
      drop(m.d.ply);
      this.positions.set(m.d.ply, { fen: m.d.status.fen, check: m.d.status.check });
    }
  }

  /** Same-device and computer games are written after every change: a reload goes on from here. */
  private save(): void {
    const r = this.room;
    if (!r || !this.tokens.length || !r.seats.length) return;
    const mode = r.seats.length === 2 ? 'local' : r.ai_level !== null ? 'ai' : null;
    if (!mode) return;
    const clockAt = r.clockAt ?? performance.now();
    const plain: RoomState = { ...r };
    delete plain.clockAt;
    const game: SavedGame = {
      id: r.id,
      variant: r.variant,
      mode,
      aiLevel: r.ai_level,
      human: mode === 'ai' ? r.you : null,
      tokens: this.tokens,
      plies: r.history.length,
      fen: r.status.fen,
      outcome: r.outcome ?? r.status.outcome,
      snapshot: { room: plain, clockWall: Date.now() - (performance.now() - clockAt), fens: Object.fromEntries([...this.positions].map(([ply, p]) => [ply, p.fen])) },
      createdAt: this.createdAt,
      updatedAt: Date.now(),
    };
    gameStore().save(game);
  }

  /** Opens the rematch room with the same seats. */
  private followRematch(id: string): void {
    const saved = gameStore().get(this.id);
    if (saved) gameStore().save({ ...saved, id, human: saved.human ? opposite(saved.human) : null, plies: 0, outcome: null, snapshot: null, createdAt: Date.now(), updatedAt: Date.now() });
    else if (this.tokens.length === 1 && this.tokens[0]) seats.set(localStorage, id, this.tokens[0]);
    go(`/r/${id}`);
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
    if (r?.you && !this.sameDevice()) {
      const left = this.claimIn(opposite(r.you));
      const sec = left === null ? -1 : Math.ceil(left / 1000);
      const gone = this.oppGone();
      if (sec !== this.lastSecond || gone !== this.oppGoneShown) {
        this.lastSecond = sec;
        this.oppGoneShown = gone;
        this.render();
      }
    }
  }

  protected play(uci: string): void {
    const r = this.room;
    if (!r || !r.seats.includes(r.status.turn)) return;
    this.notice = '';
    this.pending = { uci, ply: r.history.length };
    this.send({ t: 'move', d: this.pending });
  }

  /** The computer is to move in an AI room. */
  private aiToMove(r: RoomState): boolean {
    return r.ai_level !== null && r.state === 'playing' && !r.outcome && !r.seats.includes(r.status.turn);
  }

  override render(): void {
    if (this.missing) {
      this.el.setAttribute('aria-busy', 'false');
      this.el.replaceChildren(
        h('div', { class: 'missing', id: 'no-such-game' }, h('h1', {}, t('round.notFound')), h('p', {}, h('a', { href: '/' }, t('act.home')))),
      );
      return;
    }
    if (this.room) this.thinking = this.aiToMove(this.room);
    super.render();
    this.title();
  }

  /** The tab says "Your turn" while a one-seat player (online or against the computer) is to move, as on lichess. */
  private title(): void {
    const r = this.room;
    if (!r || this.closed) return;
    const mine = !!r.you && !this.sameDevice() && r.state === 'playing' && !(r.outcome ?? r.status.outcome) && r.status.turn === r.you;
    const text = `${mine ? `${t('round.yourTurn')} · ` : ''}${variantName(r.variant)} · chessplayx`;
    if (document.title !== text) document.title = text;
  }

  protected shown(): Shown | null {
    const r = this.room;
    if (!r) return null;
    const lc = r.clock ? liveClock(r.clock, r.clockAt ?? performance.now(), performance.now()) : null;
    const canMove = r.state === 'playing' && !this.pending && r.seats.includes(r.status.turn);
    // one seat held and the other side to move (or my move still unacknowledged): a premove may be set
    const premovable = r.state === 'playing' && r.you && !this.sameDevice() && (r.status.turn !== r.you || this.pending) ? r.you : null;
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
      movable: !canMove ? null : this.sameDevice() ? 'both' : r.status.turn,
      premovable,
      orientation: this.sameDevice() ? 'white' : (r.you ?? 'white'),
      players: { white: this.player(r, 'white'), black: this.player(r, 'black') },
      mine: r.seats,
    };
  }

  /** The player bar's name and dot for one side. */
  private player(r: RoomState, c: Color): PlayerInfo {
    const v = VARIANT_INFO[r.variant];
    if (this.sameDevice()) return { name: sideName(v, c), online: this.conn === 'open' };
    const ai = r.players[c].ai ?? (r.ai_level !== null && r.you !== null && r.you !== c ? r.ai_level : null);
    if (ai !== null) return { name: t('player.computer', { level: ai }), online: null };
    if (r.you === c) return { name: t('player.you'), online: this.conn === 'open' };
    if (!r.players[c].seated) return { name: t('player.waiting'), online: null };
    return { name: t('player.anonymous'), online: r.presence[c].connected };
  }

  protected extra(s: Shown): (HTMLElement | null)[] {
    const r = this.room;
    if (!r) return [];
    const out: (HTMLElement | null)[] = [];
    out.push(h('p', { class: `conn conn-${this.conn}`, role: 'status', id: 'connection' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), ' ', t(`conn.${this.conn}` as Key)));
    let who: string;
    if (this.sameDevice()) who = t('round.local');
    else if (r.you && r.ai_level !== null) who = t('round.vsAi', { level: r.ai_level, side: sideName(s.variant, r.you) });
    else if (r.you) who = t('round.youPlay', { side: sideName(s.variant, r.you) });
    else who = t('round.spectating');
    out.push(h('p', { class: 'muted mode-line' }, who));
    if (r.state === 'waiting') {
      const invite = localStorage.getItem('cpx.invite.' + r.id);
      const abs = (p: string): string => location.origin + p;
      const box = h('div', { class: 'invite' }, h('p', {}, t('room.waiting')));
      if (invite && r.you) box.append(linkCopy('invite-link', t('room.invite'), abs(invite)));
      box.append(linkCopy('spectate-link', t('room.spectate'), abs(`/r/${r.id}`)));
      out.push(box);
    }
    if (r.you && r.ai_level === null && !this.sameDevice()) {
      const opp = opposite(r.you);
      const p = r.presence[opp];
      const left = this.claimIn(opp);
      if (r.state === 'playing' && !p.connected && this.oppGone())
        out.push(h('p', { class: 'notice' }, left !== null && left > 0 ? t('room.oppGoneCountdown', { seconds: Math.ceil(left / 1000) }) : t('room.oppGone')));
    }
    return out;
  }

  /** Same-device: both players agree at this screen, then the page sends the offer and the answer as the two seats. */
  private agreeBoth(kind: 'draw' | 'takeback', asker: Color): void {
    const r = this.room;
    if (!r) return;
    const v = VARIANT_INFO[r.variant];
    const other = opposite(asker);
    const [title, body, yes, no] =
      kind === 'draw'
        ? [t('act.agreeDraw'), t('confirm.draw', { side: sideName(v, other), asker: sideName(v, asker) }), t('act.acceptDraw'), t('act.declineDraw')]
        : [t('act.takeback'), t('confirm.takeback', { side: sideName(v, other), asker: sideName(v, asker) }), t('act.acceptTakeback'), t('act.declineTakeback')];
    void confirmDialog(title, body, yes, no).then((ok) => {
      if (!ok) return;
      this.send({ t: kind === 'draw' ? 'draw_offer' : 'takeback_offer', as: asker });
      this.send({ t: kind === 'draw' ? 'draw_accept' : 'takeback_accept', as: other });
    });
  }

  /** The buttons while the game goes on. */
  private playingActions(r: RoomState, s: Shown): HTMLElement[] {
    const out: HTMLElement[] = [];
    const both = this.sameDevice();
    // who acts: the side to move on a shared screen, else the one seat held
    const me: Color = both ? r.status.turn : (r.you ?? r.status.turn);
    if (r.history.length < 2) out.push(button(t('act.abort'), () => this.send({ t: 'abort', as: me }), { id: 'abort' }));
    out.push(
      button(t('act.resign'), () => {
        void confirmDialog(t('act.resign'), t('confirm.resign', { side: sideName(s.variant, me) }), t('act.resign'), t('warn.cancel')).then((ok) => {
          if (ok) this.send({ t: 'resign', as: me });
        });
      }, { id: 'resign' }),
    );
    const drawBy = r.offers.draw;
    const tb = r.offers.takeback;
    if (both) {
      if (drawBy) {
        out.push(button(t('act.acceptDraw'), () => this.send({ t: 'draw_accept', as: opposite(drawBy) }), { id: 'draw-accept', class: 'primary' }));
        out.push(button(t('act.declineDraw'), () => this.send({ t: 'draw_decline', as: opposite(drawBy) }), { id: 'draw-decline' }));
      } else if (r.history.length >= 2) out.push(button(t('act.agreeDraw'), () => this.agreeBoth('draw', r.status.turn), { id: 'draw' }));
      if (tb) {
        out.push(button(t('act.acceptTakeback'), () => this.send({ t: 'takeback_accept', as: opposite(tb) }), { id: 'takeback-accept', class: 'primary' }));
        out.push(button(t('act.declineTakeback'), () => this.send({ t: 'takeback_decline', as: opposite(tb) }), { id: 'takeback-decline' }));
      } else if (r.history.length > 0) out.push(button(t('act.takeback'), () => this.agreeBoth('takeback', opposite(r.status.turn)), { id: 'takeback' }));
    } else {
      if (drawBy === opposite(me)) {
        out.push(button(t('act.acceptDraw'), () => this.send({ t: 'draw_accept' }), { id: 'draw-accept', class: 'primary' }));
        out.push(button(t('act.declineDraw'), () => this.send({ t: 'draw_decline' }), { id: 'draw-decline' }));
      } else if (drawBy === me) out.push(h('span', { class: 'muted' }, t('act.drawOffered')));
      else if (r.ai_level === null) out.push(button(t('act.offerDraw'), () => this.send({ t: 'draw_offer' }), { id: 'draw-offer' }));
      if (tb === opposite(me)) {
        out.push(button(t('act.acceptTakeback'), () => this.send({ t: 'takeback_accept' }), { id: 'takeback-accept', class: 'primary' }));
        out.push(button(t('act.declineTakeback'), () => this.send({ t: 'takeback_decline' }), { id: 'takeback-decline' }));
      } else if (tb === me) out.push(h('span', { class: 'muted' }, t('act.takebackOffered')));
      else if (r.ai_level !== null ? r.history.length > 0 && !this.thinking : r.history.length > 0)
        out.push(button(r.ai_level !== null ? t('act.takeback') : t('act.offerTakeback'), () => this.send({ t: 'takeback_offer' }), { id: 'takeback' }));
    }
    if (r.status.turn === me)
      for (const c of r.status.claimable) out.push(button(t(`claim.${c}` as Key), () => this.send({ t: 'claim', d: { claim: c as ClaimKind } }), { id: `claim-${c}` }));
    if (!both && r.ai_level === null && this.claimIn(opposite(me)) === 0) out.push(button(t('act.claimVictory'), () => this.send({ t: 'claim_victory' }), { id: 'claim-victory' }));
    return out;
  }

  /** The buttons after the end; `p` prefixes their ids (the result dialog repeats them). */
  private finishedActions(r: RoomState, p = ''): HTMLElement[] {
    const out: HTMLElement[] = [];
    const me = r.you;
    if (r.rematch) {
      const id = r.rematch;
      out.push(button(t('act.toRematch'), () => (r.seats.length ? this.followRematch(id) : go(`/r/${id}`)), { id: `${p}to-rematch`, class: 'primary' }));
    } else if (this.sameDevice()) {
      // colours swap on the same screen: White offers, Black accepts, both at once
      out.push(
        button(t('act.rematch'), () => {
          this.send({ t: 'rematch_offer', as: 'white' });
          this.send({ t: 'rematch_accept', as: 'black' });
        }, { id: `${p}rematch`, class: 'primary' }),
      );
    } else if (me) {
      if (r.offers.rematch === opposite(me)) {
        out.push(button(t('act.acceptRematch'), () => this.send({ t: 'rematch_accept' }), { id: `${p}rematch-accept`, class: 'primary' }));
        out.push(button(t('act.declineRematch'), () => this.send({ t: 'rematch_decline' }), { id: `${p}rematch-decline` }));
      } else if (r.offers.rematch === me) out.push(h('span', { class: 'muted' }, t('act.rematchOffered')));
      else out.push(button(t('act.rematch'), () => this.send({ t: 'rematch_offer' }), { id: `${p}rematch`, class: 'primary' }));
    }
    return out;
  }

  /** The result dialog: rematch, a new game of the same kind, the download and the analysis. */
  protected resultActions(): HTMLElement[] {
    const r = this.room;
    if (!r) return [];
    const out = r.seats.length ? this.finishedActions(r, 'rd-') : [];
    out.push(button(t('act.newGame'), () => go(`/?game=${r.variant}`), { id: 'rd-new' }));
    out.push(exportLink(r, 'rd-export'));
    const err = h('p', { class: 'error', role: 'alert' });
    out.push(
      button(t('act.analyse'), () => {
        err.textContent = '';
        api
          .analyse(r.id)
          .then((id) => go(`/analysis/${encodeURIComponent(id)}`))
          .catch((e: unknown) => (err.textContent = e instanceof api.ApiError ? e.message || t('error.server', { code: e.code }) : String(e)));
      }, { id: 'rd-analyse' }),
      err,
    );
    return out;
  }

  protected actions(s: Shown): HTMLElement[] {
    const r = this.room;
    const out: HTMLElement[] = [];
    if (r && r.seats.length) {
      if (!s.outcome && r.state === 'playing') out.push(...this.playingActions(r, s));
      if (s.outcome) out.push(...this.finishedActions(r));
    }
    if (r) out.push(exportLink(r, 'export'));
    out.push(button(t('act.home'), () => go('/'), { class: 'link' }));
    if (r && this.tokens.length && r.seats.length) out.push(linkCopy('continue-link', t('room.continueElsewhere'), continueUrl(location.origin, r.id, this.tokens)));
    return out;
  }
}

/** The download link of a room's game (PGN, or text for Xiangqi). */
const exportLink = (r: RoomState, id: string): HTMLElement =>
  h('a', { href: `/api/rooms/${r.id}/export`, class: 'btn', id, download: `chessplayx-${r.id}.${r.variant === 'xiangqi' ? 'txt' : 'pgn'}` }, t('act.export'));

const sameTokens = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** A read-only link with a copy button. */
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
    }, { id: `${id}-copy` }),
    msg,
  );
}

/** `/r/{id}`: the game page, for every way to play. */
export function roomPage(id: string, invite: string | null): Page {
  const r = new RoomRound(id, invite);
  r.render();
  const saved = gameStore().get(id);
  return { el: r.el, title: saved ? variantName(saved.variant) : t('home.friend'), destroy: () => r.destroy() };
}
