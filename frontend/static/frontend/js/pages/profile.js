// Profile: the display name (PATCH /me), a few numbers from your games, the optional account
// (register, log in, log out) and one-time transfer codes that move the identity to another
// browser. Logging in, out, or redeeming a code changes who this browser is: the page reads
// everything again in place (a reload could race the new cookie being stored).
import * as api from "../api.js";
import * as counts from "../counts.js";
import { showInfo, showMessage } from "../errors.js";
import { format, gettext, ngettext, number } from "../i18n.js";

const form = document.getElementById("name-form");
const input = document.getElementById("name-input");
// The page's status line (loading, a change of identity) sits at the top; each form says
// how it went beside itself, where the player is looking.
const status = document.querySelector(".profile > [data-status]");
const statusOf = (el) => el.closest(".panel").querySelector("[data-status]");
const stat = (key) => document.querySelector(`[data-stat="${key}"]`);
const registered = document.querySelector("[data-account-registered]");
const registerForm = document.getElementById("register-form");
const loginBox = document.getElementById("login");
const makeBox = document.querySelector("[data-transfer-make]");
const root = document.querySelector(".profile");
const hasPlayer = () => document.body.dataset.player === "1";

// This browser's identity changed: read everything again, with `message` as the status.
async function switched(message, player) {
  document.body.dataset.player = player ? "1" : "0";
  for (const line of root.querySelectorAll(".panel [data-status]")) line.textContent = "";
  for (const f of root.querySelectorAll("form")) if (f !== form) f.reset();
  input.value = "";
  makeBox.querySelector("[data-transfer-result]").hidden = true;
  stat("finished").textContent = number(0);
  stat("active").textContent = number(0);
  stat("best").textContent = "—";
  stat("streak").textContent = "—";
  delete root.dataset.loaded;
  await load(message);
  root.dataset.loaded = "1";
}

function showAccount(me) {
  registered.hidden = !me?.registered;
  registerForm.hidden = Boolean(me?.registered);
  loginBox.hidden = Boolean(me?.registered); // logged in: log out first to be someone else
  if (me?.registered) registered.querySelector("[data-account-username]").textContent = me.username;
  makeBox.hidden = !me;
}

async function load(message = null) {
  if (message) showInfo(status, message);
  if (!hasPlayer()) {
    showAccount(null);
    if (!message) showInfo(status, gettext("Choose a name now, or start a game: this browser will remember you."));
    return;
  }
  try {
    const me = await api.me();
    input.value = me.name;
    showAccount(me);
    const history = await api.myHistory().catch(() => null);
    if (history) {
      stat("streak").textContent = format(gettext("%(current)s (longest %(longest)s)"),
        { current: counts.days(history.current_streak), longest: counts.days(history.longest_streak) });
    }
  } catch (error) {
    showAccount(null);
    showMessage(status, error);
    return;
  }
  try {
    const games = await api.myGames();
    const items = games.items || [];
    const finished = items.filter((g) => g.status === "finished");
    stat("finished").textContent = number(finished.length);
    stat("active").textContent = number(items.filter((g) => g.status === "active").length);
    const best = finished.map((g) => g.result).filter(Boolean)
      .sort((a, b) => b.contracts - a.contracts || a.penalty - b.penalty)[0];
    if (best) {
      stat("best").textContent = format(gettext("%(contracts)s, %(points)s"),
        { contracts: counts.contracts(best.contracts), points: counts.penaltyPoints(best.penalty) });
    }
  } catch { /* numbers stay at zero */ }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const me = await api.renameMe(input.value.trim());
    input.value = me.name;
    document.body.dataset.player = "1";
    showAccount(me);
    showInfo(statusOf(form), format(gettext("Saved. You are now %(name)s."), { name: me.name }));
  } catch (error) {
    showMessage(statusOf(form), error);
  }
});

registerForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(registerForm);
  try {
    const me = await api.register(String(data.get("username")).trim(), String(data.get("password")));
    document.body.dataset.player = "1";
    registerForm.reset();
    input.value = me.name;
    showAccount(me);
    showInfo(statusOf(registerForm), format(gettext("Account created. Log in as %(username)s on another device to play as %(name)s."),
      { username: me.username, name: me.name }));
  } catch (error) {
    showMessage(statusOf(registerForm), error);
  }
});

document.getElementById("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = new FormData(e.target);
  try {
    const me = await api.logIn(String(data.get("username")).trim(), String(data.get("password")));
    await switched(format(gettext("Logged in. You are %(name)s."), { name: me.name }), me);
  } catch (error) {
    showMessage(statusOf(e.target), error);
  }
});

registered.querySelector("[data-logout]").addEventListener("click", async () => {
  try {
    await api.logOut();
    await switched(gettext("Logged out. Log in again to play as yourself in this browser."), null);
  } catch (error) {
    showMessage(statusOf(registered), error);
  }
});

makeBox.querySelector("[data-transfer-create]").addEventListener("click", async () => {
  try {
    const made = await api.createTransferCode();
    const result = makeBox.querySelector("[data-transfer-result]");
    result.querySelector("[data-transfer-code]").textContent = made.code;
    const minutes = Math.max(1, Math.round((new Date(made.expires_at) - Date.now()) / 60000));
    result.querySelector("[data-transfer-expiry]").textContent = format(ngettext(
      "Valid once, for %(n)s minute. Making a new code cancels this one.",
      "Valid once, for %(n)s minutes. Making a new code cancels this one.", minutes), { n: minutes });
    result.hidden = false;
  } catch (error) {
    showMessage(statusOf(makeBox), error);
  }
});

document.getElementById("redeem-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const code = String(new FormData(e.target).get("code")).trim();
  try {
    const me = await api.redeemTransferCode(code);
    await switched(format(gettext("Done: this browser now plays as %(name)s."), { name: me.name }), me);
  } catch (error) {
    showMessage(statusOf(e.target), error);
  }
});

// data-loaded: the page has read what it shows (tests wait for it).
load().finally(() => { root.dataset.loaded = "1"; });
