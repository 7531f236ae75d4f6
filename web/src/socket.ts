/**
 * A WebSocket that reconnects by itself (backoff up to 8 s, or at once when
 * the browser reports the network back), passing the last applied event
 * number `v` so the server replays what was missed.
 */
import { ProtocolError, parseServerMsg, type ClientMsg, type ServerMsg } from './protocol';

/** Connection state, for the indicator. */
export type Connection = 'connecting' | 'open' | 'closed';

/** Options of a socket. */
export interface SocketOptions {
  /** Path and fixed query, e.g. `/ws/room/abc?token=…`. */
  url: () => string;
  /** The last applied `v` (added as `v=` on reconnect), or null. */
  lastV?: () => number | null;
  onMessage: (m: ServerMsg) => void;
  onConnection?: (c: Connection) => void;
  onBadFrame?: (e: ProtocolError) => void;
}

/** A reconnecting socket. */
export class Socket {
  private ws: WebSocket | null = null;
  private retry = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private ping: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private queue: ClientMsg[] = [];

  constructor(private readonly opts: SocketOptions) {
    if (typeof addEventListener === 'function') addEventListener('online', this.onOnline);
    this.connect();
  }

  /** The browser says the network is back: try now rather than at the end of the backoff (up to 8 s). */
  private readonly onOnline = (): void => {
    if (this.closed || this.ws) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.retry = 0;
    this.connect();
  };

  private connect(): void {
    if (this.closed) return;
    this.opts.onConnection?.('connecting');
    let url = this.opts.url();
    const v = this.opts.lastV?.();
    if (v !== null && v !== undefined) url += (url.includes('?') ? '&' : '?') + 'v=' + String(v);
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}${url}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.opts.onConnection?.('open');
      const q = this.queue;
      this.queue = [];
      for (const m of q) this.send(m);
      this.ping = setInterval(() => this.send({ t: 'ping' }), 20000);
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return;
      try {
        this.opts.onMessage(parseServerMsg(ev.data));
      } catch (e) {
        if (e instanceof ProtocolError) this.opts.onBadFrame?.(e);
        else throw e;
      }
    };
    ws.onclose = () => {
      if (this.ping) clearInterval(this.ping);
      this.ping = null;
      this.ws = null;
      this.opts.onConnection?.('closed');
      if (this.closed) return;
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Sends now, or after the reconnection when the socket is down. */
  send(m: ClientMsg): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
    else if (m.t !== 'ping') this.queue.push(m);
  }

  /** Drops the connection and reconnects at once (e.g. after a gap, with the last `v`). */
  reconnect(): void {
    this.ws?.close();
  }

  /** Closes for good. */
  close(): void {
    this.closed = true;
    if (typeof removeEventListener === 'function') removeEventListener('online', this.onOnline);
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close();
  }
}
