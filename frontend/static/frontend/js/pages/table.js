// The table page: wires the controller, its panels and the input bindings.
import { bindTable } from "../controllers/input.js";
import { GameController } from "../controllers/game.js";
import { Panels } from "../controllers/panels.js";
import { Together } from "../controllers/together.js";
import { loadSettings, saveSettings } from "../settings.js";
import { TOUCH } from "../views/table.js";
import { countHiddenMelds } from "../views/melds.js";

const root = document.getElementById("game");
// The game fills the window below the site's header: its height is measured, not guessed.
const header = document.querySelector("header.site");
new ResizeObserver(() => document.documentElement.style.setProperty("--chrome", `${header.offsetHeight}px`)).observe(header);
// The panels open just below the toolbar, which wraps to two lines on a narrow screen: never over its buttons.
const topbar = document.querySelector("#game .topbar");
new ResizeObserver(() => document.documentElement.style.setProperty("--topbar-bottom", `${topbar.offsetTop + topbar.offsetHeight}px`)).observe(topbar);
// On a narrow window the game is the window's height plus the ladder's, which sits below it.
const ladderBox = root.querySelector(".ladder-box");
new ResizeObserver(() => root.style.setProperty("--ladder-h", `${ladderBox.offsetHeight}px`)).observe(ladderBox);
// Touch devices get touch wording (help, turn banner).
const touchClass = () => document.body.classList.toggle("touch", Boolean(TOUCH?.matches));
touchClass();
TOUCH?.addEventListener?.("change", touchClass);
const settings = loadSettings();
const ladder = JSON.parse(document.getElementById("ladder-data").textContent);
const game = new GameController(root, { gameId: root.dataset.gameId, ladder, settings });

const panels = new Panels(game, {
  settings: document.getElementById("settings"),
  settingsToggle: root.querySelector("[data-settings-toggle]"),
  scoresToggle: root.querySelector("[data-scores-toggle]"),
  help: root.querySelector("[data-help]"),
});
panels.settings.toggle.addEventListener("click", () => panels.toggleSettings());
panels.scores.toggle.addEventListener("click", () => panels.toggleScores());
root.querySelector("[data-scores-close]").addEventListener("click", () => panels.closeScores());
for (const input of panels.settings.el.querySelectorAll("[data-setting]")) {
  const key = input.dataset.setting;
  if (input.type === "checkbox") input.checked = Boolean(settings[key]); else input.value = settings[key];
  input.addEventListener("change", () => {
    settings[key] = input.type === "checkbox" ? input.checked : input.value;
    saveSettings(settings);
  });
}

countHiddenMelds(root.querySelector(".centre"), root.querySelector("[data-melds]"), root.querySelector("[data-melds-more]"));
bindTable(root, game, panels);
// A table for friends' game also hears the table (reactions, the next game).
const together = root.dataset.tableId ? new Together(game, root.dataset.tableId) : null;
game.start();
window.addEventListener("pagehide", () => { game.stop(); panels.stop(); together?.stop(); });
// Shown again from the browser's back-forward cache: frozen as it was left, its sockets
// closed. A fresh load reads the game and hears it again (tests/browser/test_back_forward.py).
window.addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
