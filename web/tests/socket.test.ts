import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMsg } from '../src/protocol';
import { Socket, type Connection } from '../src/socket';

class FakeWs {
  static OPEN = 1;
  static all: FakeWs[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWs.all.push(this);
  }
  send(s: string): void {
    this.sent.push(s);
  }
  close(): void {
    this.readyState = 3;
    this.onclose?.();
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
}

describe('Socket', () => {
  beforeEach(() => {
    FakeWs.all = [];
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeWs);
    vi.stubGlobal('location', { protocol: 'http:', host: 'example.test' });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reconnects by itself with the last applied v, and sends what was queued', () => {
    let v: number | null = null;
    const got: ServerMsg[] = [];
    const states: Connection[] = [];
    const s = new Socket({ url: () => '/ws/room/abc?token=t', lastV: () => v, onMessage: (m) => got.push(m), onConnection: (c) => states.push(c) });
    expect(FakeWs.all[0]?.url).toBe('ws://example.test/ws/room/abc?token=t');
    FakeWs.all[0]?.open();
    FakeWs.all[0]?.onmessage?.({ data: '{"t":"ack","d":{"ply":0,"v":7}}' });
    FakeWs.all[0]?.onmessage?.({ data: 'garbage' }); // refused, not thrown
    expect(got).toEqual([{ t: 'ack', d: { ply: 0, v: 7 } }]);
    v = 7;
    FakeWs.all[0]?.close();
    s.send({ t: 'move', d: { uci: 'e2e4', ply: 0 } }); // while down: queued
    expect(FakeWs.all).toHaveLength(1);
    vi.advanceTimersByTime(600);
    expect(FakeWs.all[1]?.url).toBe('ws://example.test/ws/room/abc?token=t&v=7');
    FakeWs.all[1]?.open();
    expect(FakeWs.all[1]?.sent).toEqual(['{"t":"move","d":{"uci":"e2e4","ply":0}}']);
    expect(states).toEqual(['connecting', 'open', 'closed', 'connecting', 'open']);
    s.close();
    vi.advanceTimersByTime(10000);
    expect(FakeWs.all).toHaveLength(2);
  });

  it('retries at once when the browser reports the network back, not at the end of the backoff', () => {
    const win = new EventTarget();
    vi.stubGlobal('addEventListener', win.addEventListener.bind(win));
    vi.stubGlobal('removeEventListener', win.removeEventListener.bind(win));
    const states: Connection[] = [];
    const s = new Socket({ url: () => '/ws/room/r?token=t', lastV: () => 3, onMessage: () => undefined, onConnection: (c) => states.push(c) });
    FakeWs.all[0]?.open();
    win.dispatchEvent(new Event('online')); // already connected: nothing to do
    expect(FakeWs.all).toHaveLength(1);
    // offline: three attempts fail, the next one would wait 4 s
    for (let i = 0; i < 3; i++) {
      FakeWs.all[FakeWs.all.length - 1]?.close();
      vi.advanceTimersByTime(2000);
    }
    FakeWs.all[FakeWs.all.length - 1]?.close();
    const before = FakeWs.all.length;
    vi.advanceTimersByTime(100);
    expect(FakeWs.all).toHaveLength(before);
    win.dispatchEvent(new Event('online'));
    expect(FakeWs.all).toHaveLength(before + 1);
    expect(FakeWs.all[before]?.url).toBe('ws://example.test/ws/room/r?token=t&v=3');
    FakeWs.all[before]?.open();
    expect(states.at(-1)).toBe('open');
    // the pending backoff timer was dropped: no second socket when it would have fired
    vi.advanceTimersByTime(10000);
    expect(FakeWs.all).toHaveLength(before + 1);
    s.close();
    win.dispatchEvent(new Event('online')); // closed for good: stays closed
    expect(FakeWs.all).toHaveLength(before + 1);
  });

  it('backs off 0.5, 1, 2, 4, 8, 8 s while the server stays away', () => {
    const s = new Socket({ url: () => '/ws/lobby', onMessage: () => undefined });
    const delays: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const n = FakeWs.all.length;
      FakeWs.all[n - 1]?.close();
      let waited = 0;
      while (FakeWs.all.length === n && waited < 20000) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    s.close();
  });
});
