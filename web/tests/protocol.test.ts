import { describe, expect, it } from 'vitest';
import {
  ProtocolError,
  applyEvent,
  isEvent,
  liveClock,
  parseLobby,
  parsePosition,
  parseServerMsg,
  type RoomState,
} from '../src/protocol';

const status = (fen: string, turn: 'white' | 'black', san: string | null = null) => ({
  variant: 'chess',
  fen,
  turn,
  check: false,
  legal_moves: ['e7e5'],
  san,
  outcome: null,
  claimable: [],
});

const stateMsg = {
  t: 'state',
  d: {
    v: 3,
    id: 'h7Kq2xZa',
    variant: 'chess',
    you: 'white',
    public: true,
    ai_level: null,
    state: 'playing',
    start_fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    history: [{ uci: 'e2e4', san: 'e4' }],
    status: status('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 'black', 'e4'),
    moves: [{ uci: 'e7e5', san: 'e5', from: 'e7', to: 'e5', promotion: null }],
    warnings: [],
    clock: { white: 178000, black: 180000, running: 'black', initial: 180000, increment: 2000 },
    players: {
      white: { seated: true, connected: true, ai: null },
      black: { seated: true, connected: true, ai: null },
    },
    offers: { draw: 'white', takeback: null, rematch: null },
    outcome: null,
    rematch: null,
    presence: { white: { connected: true, claim_in: null }, black: { connected: false, claim_in: 24500 } },
  },
};

function room(): RoomState {
  const m = parseServerMsg(JSON.stringify(stateMsg));
  if (m.t !== 'state') throw new Error('expected state');
  return m.d;
}

const moveEvent = (v: number, ply: number) =>
  parseServerMsg(
    JSON.stringify({
      t: 'move',
      v,
      d: {
        ply,
        uci: 'e7e5',
        san: 'e5',
        by: 'black',
        status: status('rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2', 'white', 'e5'),
        moves: [],
        warnings: [],
        clock: { white: 178000, black: 179000, running: 'white', initial: 180000, increment: 2000 },
      },
    }),
  );

describe('parseServerMsg', () => {
  it('decodes a full state', () => {
    const r = room();
    expect(r.v).toBe(3);
    expect(r.you).toBe('white');
    expect(r.history).toHaveLength(1);
    expect(r.moves[0]?.to).toBe('e5');
    expect(r.offers.draw).toBe('white');
    expect(r.presence.black.claim_in).toBe(24500);
  });
  it('decodes Xiangqi streaks and warnings', () => {
    const p = parsePosition({
      status: {
        ...status('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 'white'),
        variant: 'xiangqi',
        wxf: null,
        counters: { total_plies: 0, progress_plies: 0, effective_plies: 0 },
        streaks: {
          white: { check: { len: 4, limit: 6, pieces: ['h7'] }, chases: [] },
          black: { check: { len: 0, limit: 0, pieces: [] }, chases: [{ target: 'e7', len: 2, limit: 6, pieces: ['a1'] }] },
        },
      },
      moves: [{ uci: 'h3h7', san: 'C2+4', from: 'h3', to: 'h7', promotion: null }],
      warnings: [
        {
          uci: 'h3h7',
          outcome: { winner: 'black', reason: 'perpetual_check' },
          loses: true,
          forbidden: false,
          check: { len: 6, limit: 6, pieces: ['h7'] },
          chases: [],
        },
      ],
    });
    expect(p.status.streaks?.white.check.len).toBe(4);
    expect(p.status.streaks?.black.chases[0]?.target).toBe('e7');
    expect(p.warnings[0]?.loses).toBe(true);
    expect(p.warnings[0]?.outcome?.reason).toBe('perpetual_check');
  });
  it('accepts the draw when time runs out against insufficient material', () => {
    const m = parseServerMsg('{"t":"end","v":9,"d":{"outcome":{"winner":null,"reason":"timeout_vs_insufficient_material"},"clock":null}}');
    expect(m.t === 'end' && m.d.outcome).toEqual({ winner: null, reason: 'timeout_vs_insufficient_material' });
  });
  it('refuses malformed frames with a ProtocolError', () => {
    expect(() => parseServerMsg('{')).toThrow(ProtocolError);
    expect(() => parseServerMsg('[]')).toThrow(ProtocolError);
    expect(() => parseServerMsg('{"t":"nope"}')).toThrow(/unknown message type/);
    expect(() => parseServerMsg('{"t":"move","d":{}}')).toThrow(ProtocolError);
    expect(() => parseServerMsg('{"t":"end","v":2,"d":{"outcome":{"winner":null,"reason":"boredom"}}}')).toThrow(
      /unknown end reason/,
    );
    expect(() => parseServerMsg('{"t":"offer","v":2,"d":{"kind":"pizza","by":"white"}}')).toThrow(ProtocolError);
  });
  it('decodes personal messages without v', () => {
    const ack = parseServerMsg('{"t":"ack","d":{"ply":4,"v":18}}');
    expect(ack).toEqual({ t: 'ack', d: { ply: 4, v: 18 } });
    expect(isEvent(ack)).toBe(false);
    const err = parseServerMsg('{"t":"error","d":{"code":"illegal_move","message":"illegal move e2e5"}}');
    expect(err.t === 'error' && err.d.code).toBe('illegal_move');
    expect(parseServerMsg('{"t":"pong"}')).toEqual({ t: 'pong' });
  });
  it('decodes the lobby and skips unknown games', () => {
    const l = parseLobby({
      counters: { players_online: 42, games_playing: 17, rooms_waiting: 2 },
      rooms: [
        { id: 'a', variant: 'atomic', clock: { initial: 300000, increment: 3000 }, open_color: 'black', created_at: 1, invite_url: '/r/a?invite=x' },
        { id: 'b', variant: 'shogi', clock: null, open_color: 'white', created_at: 2, invite_url: '/r/b?invite=y' },
      ],
    });
    expect(l.counters.games_playing).toBe(17);
    expect(l.rooms.map((r) => r.id)).toEqual(['a']);
  });
});

describe('applyEvent', () => {
  it('applies the next event, withdraws draw offers on a move', () => {
    const m = moveEvent(4, 1);
    if (!isEvent(m)) throw new Error('event expected');
    const res = applyEvent(room(), m, 1000);
    expect(res.kind).toBe('applied');
    if (res.kind !== 'applied') return;
    expect(res.room.v).toBe(4);
    expect(res.room.history.map((h) => h.san)).toEqual(['e4', 'e5']);
    expect(res.room.offers.draw).toBeNull();
    expect(res.room.status.turn).toBe('white');
    expect(res.room.clockAt).toBe(1000);
  });
  it('ignores old events and reports gaps', () => {
    const r = room();
    const old = moveEvent(3, 1);
    const gap = moveEvent(6, 1);
    if (!isEvent(old) || !isEvent(gap)) throw new Error('event expected');
    expect(applyEvent(r, old, 0).kind).toBe('old');
    expect(applyEvent(r, gap, 0).kind).toBe('gap');
    expect(r.v).toBe(3);
  });
  it('applies end, takeback, offers and rematch', () => {
    let r = room();
    const seq = [
      { t: 'offer', v: 4, d: { kind: 'takeback', by: 'black' } },
      {
        t: 'takeback',
        v: 5,
        d: { undone: 1, ply: 0, status: status('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'white'), moves: [], warnings: [], clock: null },
      },
      { t: 'decline', v: 6, d: { kind: 'draw', by: 'black' } },
      { t: 'end', v: 7, d: { outcome: { winner: 'black', reason: 'resignation' }, clock: null } },
      { t: 'rematch', v: 8, d: { id: 'Pq81zXcV' } },
    ];
    const seen: string[] = [];
    for (const raw of seq) {
      const m = parseServerMsg(JSON.stringify(raw));
      if (!isEvent(m)) throw new Error('event expected');
      const res = applyEvent(r, m, 0);
      if (res.kind !== 'applied') throw new Error(`not applied: ${raw.t}`);
      r = res.room;
      seen.push(`${m.t}:${r.history.length}:${r.offers.takeback ?? '-'}:${r.offers.draw ?? '-'}`);
    }
    expect(seen).toEqual(['offer:1:black:white', 'takeback:0:-:white', 'decline:0:-:-', 'end:0:-:-', 'rematch:0:-:-']);
    expect(r.state).toBe('finished');
    expect(r.outcome?.reason).toBe('resignation');
    expect(r.rematch).toBe('Pq81zXcV');
  });
});

describe('liveClock', () => {
  it('counts down only the running side and stops at zero', () => {
    const c = { white: 5000, black: 3000, running: 'black' as const, initial: 5000, increment: 0 };
    expect(liveClock(c, 100, 1100)).toEqual({ white: 5000, black: 2000 });
    expect(liveClock(c, 100, 9100)).toEqual({ white: 5000, black: 0 });
  });
});

describe('seats held by a connection', () => {
  const withSeats = (extra: Record<string, unknown>) => parseServerMsg(JSON.stringify({ ...stateMsg, d: { ...stateMsg.d, ...extra } }));
  it('a same-device connection holds both seats and has no single `you`', () => {
    const m = withSeats({ you: null, seats: ['black', 'white'] });
    expect(m.t === 'state' && m.d.seats).toEqual(['white', 'black']);
    expect(m.t === 'state' && m.d.you).toBeNull();
  });
  it('a spectator holds none; a player one', () => {
    const s = withSeats({ you: null, seats: [] });
    expect(s.t === 'state' && s.d.seats).toEqual([]);
    const p = withSeats({ seats: ['white'] });
    expect(p.t === 'state' && p.d.seats).toEqual(['white']);
  });
  it('a server without `seats` implies them from `you`', () => {
    const m = withSeats({ seats: undefined });
    expect(m.t === 'state' && m.d.seats).toEqual(['white']);
  });
  it('refuses a seat that is not a colour', () => {
    expect(() => withSeats({ seats: ['green'] })).toThrow(ProtocolError);
  });
});

describe('error messages', () => {
  it('carry a code from the generated list', () => {
    const m = parseServerMsg(JSON.stringify({ t: 'error', d: { code: 'cannot_takeback', message: 'no' } }));
    expect(m).toEqual({ t: 'error', d: { code: 'cannot_takeback', message: 'no' } });
  });
  it('refuse a code the server does not define', () => {
    expect(() => parseServerMsg(JSON.stringify({ t: 'error', d: { code: 'made_up', message: '' } }))).toThrow(ProtocolError);
  });
});
