// The table page: wires the controller, the input bindings and the settings panel.
import { bindTable } from "../controllers/input.js";
import { GameController } from "../controllers/game.js";
import { loadSettings, saveSettings } from "../settings.js";

const root = document.getElementById("game");
const settings = loadSettings();
const ladder = JSON.parse(document.getElementById("ladder-data").textContent);
const game = new GameController(root, { gameId: root.dataset.gameId, ladder, settings });

const panel = document.getElementById("settings");
const toggle = root.querySelector("[data-settings-toggle]");
toggle.addEventListener("click", () => {
  panel.hidden = !panel.hidden;
  if (!panel.hidden) game.toggleScores(false); // the two panels share a place
  toggle.setAttribute("aria-expanded", String(!panel.hidden));
});
for (const input of panel.querySelectorAll("[data-setting]")) {
  const key = input.dataset.setting;
  if (input.type === "checkbox") input.checked = Boolean(settings[key]); else input.value = settings[key];
  input.addEventListener("change", () => {
    settings[key] = input.type === "checkbox" ? input.checked : input.value;
    saveSettings(settings);
  });
}

const scoresToggle = root.querySelector("[data-scores-toggle]");
scoresToggle.addEventListener("click", () => {
  panel.hidden = true;
  toggle.setAttribute("aria-expanded", "false");
  game.toggleScores();
});
root.querySelector("[data-scores-close]").addEventListener("click", () => {
  game.toggleScores(false);
  scoresToggle.focus();
});
game.els.scoresPanel.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  game.toggleScores(false);
  scoresToggle.focus();
});

bindTable(root, game);
game.start();
window.addEventListener("pagehide", () => game.stop());
