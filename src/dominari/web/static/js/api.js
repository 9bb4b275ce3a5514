// Talking to the Dominari server: JSON over HTTP, and one WebSocket per table.
//
// Every failure is an ApiError with the server's `code` and `message` (see the server's
// module docstring): callers show the message as it is.

import { toJSON } from "./format.js";

export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function request(method, url, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(url, {
      method, headers, body: body === undefined ? undefined : toJSON(body),
    });
  } catch (err) {
    throw new ApiError("offline", "the server cannot be reached; check your connection");
  }
  let data = null;
  try {
    data = await res.json();
  } catch (err) {
    data = null;
  }
  if (!res.ok) {
    const e = data && data.error;
    throw new ApiError(e ? e.code : "http_error",
                       e ? e.message : `the server answered ${res.status}`, res.status);
  }
  return data;
}

export const getJSON = (url, token) => request("GET", url, undefined, token);
export const postJSON = (url, body, token) => request("POST", url, body, token);

const RETRY_MS = [500, 1000, 2000, 4000, 8000];

// A live table: joins a seat (gameId + token) or watches (spectator), keeps the latest
// view message, reconnects after a drop (the first view after a reconnect restores
// everything), and turns the socket's act/undo into promises.
export class Connection {
  constructor({ gameId = null, token = null, spectator = null }, { onView, onStatus, onError }) {
    this.join = spectator ? { type: "join", spectator } : { type: "join", game_id: gameId, token };
    this.onView = onView;
    this.onStatus = onStatus || (() => {});
    this.onError = onError || (() => {});
    this.view = null;
    this.pending = null; // { resolve, reject, after }: one submission at a time
    this.closed = false;
    this.attempt = 0;
    this.ws = null;
    this.connect();
  }

  get version() {
    return this.view ? this.view.version : null;
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/ws`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify(this.join));
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending(new ApiError("offline", "the connection dropped; the action may not "
                                               + "have arrived: check the table"));
      if (this.closed) return;
      // 1008: a join refused for good (a wrong token, an unknown game); 1013 (a full
      // table, a server that could not read its store) is retried like a dropped line.
      if (event.code === 1008) {
        this.closed = true;
        this.onStatus("refused");
        return;
      }
      this.onStatus("offline");
      const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
      this.attempt += 1;
      setTimeout(() => this.connect(), wait);
    };
  }

  receive(msg) {
    if (msg.type === "view") {
      this.attempt = 0;
      this.onStatus("live");
      this.view = msg;
      this.onView(msg);
      const p = this.pending;
      if (p && msg.version > p.after) {
        this.pending = null;
        p.resolve(msg);
      }
    } else if (msg.type === "error") {
      if (msg.view) {
        this.view = msg.view;
        this.onView(msg.view);
      }
      const err = new ApiError(msg.code, msg.message);
      if (this.pending) {
        const p = this.pending;
        this.pending = null;
        p.reject(err);
      } else {
        this.onError(err);
      }
    }
  }

  failPending(err) {
    if (this.pending) {
      const p = this.pending;
      this.pending = null;
      p.reject(err);
    }
  }

  submit(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.view) {
      return Promise.reject(new ApiError("offline", "not connected yet; wait a moment"));
    }
    if (this.pending) {
      return Promise.reject(new ApiError("busy", "still waiting for the last action"));
    }
    const version = this.view.version;
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, after: version };
      this.ws.send(JSON.stringify({ ...message, version }));
    });
  }

  act(action) {
    return this.submit({ type: "act", action });
  }

  undo() {
    return this.submit({ type: "undo" });
  }

  close() {
    this.closed = true;
    this.failPending(new ApiError("closed", "the table was closed"));
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}

// The seats this browser holds, kept in localStorage so "My games" and a page reload
// find them again. Tokens never leave this browser except to this server.
const SEATS_KEY = "dominari.seats";
const CREATED_KEY = "dominari.created";

function readList(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(v) ? v : [];
  } catch (err) {
    return [];
  }
}

function writeList(key, list) {
  localStorage.setItem(key, JSON.stringify(list));
}

// Put `entry` first in the list under `key`, merged with an earlier entry for the same
// thing (`same`), keeping at most `limit` entries.
function remember(key, entry, same, limit) {
  const list = readList(key);
  const old = list.find((x) => same(x, entry)) || {};
  writeList(key, [{ ...old, ...entry, saved: Date.now() },
                  ...list.filter((x) => !same(x, entry))].slice(0, limit));
}

export function savedSeats() {
  return readList(SEATS_KEY);
}

export function rememberSeat(entry) {
  remember(SEATS_KEY, entry, (x, y) => x.token === y.token, 200);
}

export function forgetGame(gameId) {
  for (const key of [SEATS_KEY, CREATED_KEY]) {
    writeList(key, readList(key).filter((x) => x.game_id !== gameId));
  }
}

// Games created here: their invitation links stay available to the host.
export function savedCreations() {
  return readList(CREATED_KEY);
}

export function rememberCreation(created) {
  remember(CREATED_KEY, created, (x, y) => x.game_id === y.game_id, 100);
}

export function creation(gameId) {
  return readList(CREATED_KEY).find((x) => x.game_id === gameId) || null;
}
