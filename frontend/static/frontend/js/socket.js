// The one module that owns websockets: connects, reconnects with back-off, and hands each
// message to `onMessage` (`onOpen` and `onClose` hear each opening and each loss). `close()`
// tears it down. The site is always served over ASGI
// (ladder/asgi.py), so every page may open one; a page still works while it is down, since
// every HTTP action response carries the same events.
export function openSocket(path, onMessage, { onOpen, onClose } = {}) {
  let socket = null, closed = false, delayMs = 1000, timer = null;
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;

  function connect() {
    if (closed) return;
    socket = new WebSocket(url);
    socket.addEventListener("open", () => { delayMs = 1000; onOpen?.(); });
    socket.addEventListener("message", (e) => {
      try { onMessage(JSON.parse(e.data)); } catch { /* a malformed frame is ignored */ }
    });
    socket.addEventListener("close", () => {
      if (closed) return;
      onClose?.();
      timer = setTimeout(connect, delayMs);
      delayMs = Math.min(delayMs * 2, 30000);
    });
  }
  connect();
  return {
    close() { closed = true; clearTimeout(timer); socket?.close(); },
  };
}

