// @ts-check
// How the table page talks to a room: a Transport sends client messages and delivers the
// server's. The page never touches a WebSocket itself, so a room core running in a Web Worker
// (the offline build) plugs in with setTransportFactory() and nothing else changes.

/**
 * @typedef {import("./wire").ServerMessage} ServerMessage
 * @typedef {{ type: string, id?: number, [field: string]: unknown }} ClientMessage  see docs/table.md
 *
 * @typedef {object} TransportEvents  what a transport reports to the page
 * @property {() => void} open  ready: the page sends "hello" now (again after every reconnect)
 * @property {(msg: ServerMessage) => void} message  one message from the room, already parsed
 * @property {() => void} lost  the connection dropped; the page opens a new transport after a delay
 *
 * @typedef {object} Transport  one connection to one room
 * @property {(msg: ClientMessage) => boolean} send  false when not open (the message is dropped)
 * @property {() => void} close  close for good: no "lost" after it
 *
 * @typedef {(room: string, on: TransportEvents) => Transport} TransportFactory
 */

/**
 * The server's WebSocket at /ws/ROOM (JSON text frames).
 * @type {TransportFactory}
 */
export function webSocketTransport(room, on) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/${room}`);
  let closed = false;
  ws.onopen = () => on.open();
  ws.onmessage = (ev) => on.message(JSON.parse(ev.data));
  ws.onclose = () => { if (!closed) on.lost(); };
  return {
    send(msg) {
      if (ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(msg));
      return true;
    },
    close() { closed = true; ws.close(); },
  };
}

/**
 * @typedef {object} PostTarget  a Worker, a MessagePort, or anything that posts structured clones
 * @property {(data: unknown) => void} postMessage
 * @property {(type: "message", fn: (ev: MessageEvent) => void) => void} addEventListener
 * @property {(type: "message", fn: (ev: MessageEvent) => void) => void} removeEventListener
 * @property {() => void} [start]
 */

let lastConn = 0;

/**
 * A room behind postMessage (e.g. the room core in a Web Worker). Envelopes, one connection
 * each (several pages or rooms may share one worker):
 *   page → worker: {conn, room, open: true}, then {conn, msg: ClientMessage}, and {conn, close: true}
 *   worker → page: {conn, open: true} when ready, {conn, msg: ServerMessage}, {conn, lost: true}
 * Messages are plain objects (structured clones), never JSON text.
 * @param {PostTarget} target
 * @returns {TransportFactory}
 */
export function postMessageTransport(target) {
  return (room, on) => {
    const conn = ++lastConn;
    let open = false;
    let closed = false;
    /** @param {MessageEvent} ev */
    const listener = (ev) => {
      const d = ev.data;
      if (!d || d.conn !== conn || closed) return;
      if (d.open) { open = true; on.open(); }
      else if (d.msg) on.message(d.msg);
      else if (d.lost) { open = false; target.removeEventListener("message", listener); on.lost(); }
    };
    target.addEventListener("message", listener);
    if (target.start) target.start();  // a MessagePort delivers only once started
    target.postMessage({ conn, room, open: true });
    return {
      send(msg) {
        if (!open) return false;
        target.postMessage({ conn, msg });
        return true;
      },
      close() {
        closed = true;
        target.removeEventListener("message", listener);
        target.postMessage({ conn, close: true });
      },
    };
  };
}

/** @type {TransportFactory} */
let factory = webSocketTransport;

/** @param {TransportFactory} f what openTransport() uses from now on */
export function setTransportFactory(f) { factory = f; }

/**
 * @param {string} room
 * @param {TransportEvents} on
 * @returns {Transport}
 */
export function openTransport(room, on) { return factory(room, on); }
