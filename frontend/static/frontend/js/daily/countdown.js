// The time left until the next daily (24:00 UTC), ticking every second in a <time> element.
// The server's seconds_left, once known, corrects a wrong local clock.
import { duration } from "../i18n.js";

export function startCountdown(element) {
  let endsAt = null;
  const tick = () => {
    const now = new Date();
    const next = endsAt ?? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    element.textContent = duration(next - now.getTime());
    element.dateTime = new Date(next).toISOString();
  };
  tick();
  setInterval(tick, 1000);
  return (secondsLeft) => {
    if (typeof secondsLeft === "number") endsAt = Date.now() + secondsLeft * 1000;
    tick();
  };
}
