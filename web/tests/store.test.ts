import { describe, expect, it } from 'vitest';
import { formatClock, type RoomState } from '../src/protocol';
import { GameStore, continueUrl, fullMoves, tokensFromHash, type KeyValue, type SavedGame } from '../src/store';

class Mem implements KeyValue {
  m = new Map<string, string>();
  getItem(k: string): string | null {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.m.set(k, v);
  }
  removeItem(k: string): void {
    this.m.delete(k);
  }
}

const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

const room = (v: number): RoomState => ({
  v,
  id: 'a',
  variant: 'xiangqi',
  you: null,
  seats: ['white', 'black'],
  public: false,
  ai_level: null,
  state: 'playing',
  start_fen: START,
  history: [{ uci: 'h3e3', san: 'C2=5' }],
  status: { variant: 'xiangqi', fen: START.replace(' w ', ' b '), turn: 'black', check: false, legal_moves: [], san: 'C2=5', outcome: null, claimable: [] },
  moves: [],
  warnings: [],
  clock: { white: 60000, black: 60000, running: null, initial: 60000, increment: 0 },
  players: { white: { seated: true, connected: true, ai: null }, black: { seated: true, connected: true, ai: null } },
  offers: { draw: null, takeback: null, rematch: null },
  outcome: null,
  rematch: null,
  presence: { white: { connected: true, claim_in: null }, black: { connected: true, claim_in: null } },
});

const game = (id: string, updatedAt: number, plies = 0): SavedGame => ({
  id,
  variant: 'xiangqi',
  mode: 'local',
  aiLevel: null,
  human: null,
  tokens: ['tokenAAAAAAAAAAAAAAAAA', 'tokenBBBBBBBBBBBBBBBBB'],
  plies,
  fen: START,
  outcome: null,
  snapshot: null,
  createdAt: 0,
  updatedAt,
});

describe('GameStore', () => {
  it('saves, lists newest first, survives a new store over the same storage, deletes', () => {
    const kv = new Mem();
    const s = new GameStore(kv);
    s.save(game('a', 1, 1));
    s.save(game('b', 5));
    s.save({ ...game('a', 9, 2), snapshot: { room: room(4), clockWall: 1234, fens: { 0: START, 1: 'x' } } });
    const again = new GameStore(kv);
    expect(again.list().map((g) => g.id)).toEqual(['a', 'b']);
    const a = again.get('a');
    expect(a?.plies).toBe(2);
    expect(a?.snapshot?.room.v).toBe(4);
    expect(a?.snapshot?.room.seats).toEqual(['white', 'black']);
    expect(a?.snapshot?.fens[1]).toBe('x');
    again.remove('a');
    expect(new GameStore(kv).list().map((g) => g.id)).toEqual(['b']);
    expect(again.get('a')).toBeUndefined();
  });
  it('ignores corrupt or foreign records, and drops only a damaged snapshot', () => {
    const kv = new Mem();
    const s = new GameStore(kv);
    s.save(game('ok', 1));
    s.save({ ...game('snap', 2), snapshot: { room: room(3), clockWall: 1, fens: {} } });
    kv.setItem('cpx.room.bad', '{not json');
    kv.setItem('cpx.room.odd', JSON.stringify({ ...game('odd', 2), variant: 'shogi' }));
    kv.setItem('cpx.room.notokens', JSON.stringify({ ...game('notokens', 2), tokens: [] }));
    const broken = JSON.parse(kv.getItem('cpx.room.snap') ?? '{}');
    broken.snapshot.room.status.turn = 'green';
    kv.setItem('cpx.room.snap', JSON.stringify(broken));
    kv.setItem('cpx.rooms', JSON.stringify(['ok', 'bad', 'odd', 'notokens', 'snap', 'missing']));
    expect(s.list().map((g) => g.id).sort()).toEqual(['ok', 'snap']);
    expect(s.get('snap')?.snapshot).toBeNull();
    kv.setItem('cpx.rooms', 'garbage');
    expect(s.list()).toEqual([]);
  });
  it('keeps the game without its snapshot when the storage is full', () => {
    const kv = new Mem();
    const full: KeyValue = {
      getItem: (k) => kv.getItem(k),
      removeItem: (k) => kv.removeItem(k),
      setItem: (k, v) => {
        if (v.length > 800) throw new DOMException('full', 'QuotaExceededError');
        kv.setItem(k, v);
      },
    };
    const s = new GameStore(full);
    s.save({ ...game('big', 1), snapshot: { room: room(2), clockWall: 1, fens: {} } });
    expect(s.get('big')?.snapshot).toBeNull();
    expect(s.get('big')?.tokens.length).toBe(2);
  });
});

describe('saved-game helpers', () => {
  it('counts full moves, not plies', () => {
    expect([0, 1, 2, 3, 4].map(fullMoves)).toEqual([0, 1, 1, 2, 2]);
  });
  it('reads the seat tokens of a continue link, and writes them', () => {
    const url = continueUrl('http://x', 'r1', ['tokenAAAAAAAAAAAAAAAAA', 'tokenBBBBBBBBBBBBBBBBB']);
    expect(url).toBe('http://x/r/r1#t=tokenAAAAAAAAAAAAAAAAA,tokenBBBBBBBBBBBBBBBBB');
    expect(tokensFromHash(new URL(url).hash)).toEqual(['tokenAAAAAAAAAAAAAAAAA', 'tokenBBBBBBBBBBBBBBBBB']);
    expect(tokensFromHash('#t=short,<script>')).toEqual([]);
    expect(tokensFromHash('')).toEqual([]);
    expect(tokensFromHash('#x=1&t=tokenAAAAAAAAAAAAAAAAA')).toEqual(['tokenAAAAAAAAAAAAAAAAA']);
  });
});

describe('clock display', () => {
  it('formats', () => {
    expect(formatClock(180000)).toBe('3:00');
    expect(formatClock(9500)).toBe('9.5');
    expect(formatClock(3723000)).toBe('1:02:03');
  });
});
