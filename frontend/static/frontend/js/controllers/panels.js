// The table's panels and dialogs behave alike: Escape closes the one on top, a click or tap
// outside closes a panel (and the help), and focus goes back to where it was before it
// opened. The panels are Settings and Scores (one place, one at a time) and the lay-down
// composer (a click outside does not close it: the player picks cards from the hand).
export class Panels {
  constructor(game, { settings, settingsToggle, scoresToggle, help, helpOpen }) {
    this.game = game;
    this.returnTo = new Map(); // panel -> the element focused before it opened
    this.settings = { el: settings, toggle: settingsToggle };
    this.scores = { el: game.els.scoresPanel, toggle: scoresToggle };
    this.help = help;
    this.helpOpen = helpOpen;
    this.onPointer = (e) => this.pointerOutside(e);
    this.onKey = (e) => this.escape(e);
    document.addEventListener("pointerdown", this.onPointer, true);
    document.addEventListener("keydown", this.onKey);
    // The help: a click on the backdrop (the dialog itself, outside its content) closes it.
    help.addEventListener("click", (e) => { if (e.target === help) help.close(); });
    help.addEventListener("close", () => this.restoreFocus(help));
  }

  stop() {
    document.removeEventListener("pointerdown", this.onPointer, true);
    document.removeEventListener("keydown", this.onKey);
  }

  remember(panel) {
    const active = document.activeElement;
    if (active && active !== document.body) this.returnTo.set(panel, active);
  }

  restoreFocus(panel, fallback) {
    const target = this.returnTo.get(panel);
    this.returnTo.delete(panel);
    const to = target?.isConnected && !target.disabled ? target : fallback;
    to?.focus({ preventScroll: true });
  }

  openHelp() {
    this.remember(this.help);
    this.help.showModal();
  }

  toggleSettings(open = this.settings.el.hidden) {
    if (open) {
      this.closeScores({ focus: false });
      this.remember(this.settings.el);
      this.settings.el.hidden = false;
      this.settings.toggle.setAttribute("aria-expanded", "true");
      this.settings.el.querySelector("select, input")?.focus();
    } else this.closeSettings();
  }

  closeSettings({ focus = true } = {}) {
    if (this.settings.el.hidden) return;
    this.settings.el.hidden = true;
    this.settings.toggle.setAttribute("aria-expanded", "false");
    if (focus) this.restoreFocus(this.settings.el, this.settings.toggle);
  }

  toggleScores(open = this.scores.el.hidden) {
    if (open) {
      this.closeSettings({ focus: false });
      this.remember(this.scores.el);
      this.game.toggleScores(true);
      this.scores.el.querySelector("[data-scores-close]").focus();
    } else this.closeScores();
  }

  closeScores({ focus = true } = {}) {
    if (this.scores.el.hidden) return;
    this.game.toggleScores(false);
    if (focus) this.restoreFocus(this.scores.el, this.scores.toggle);
  }

  // The composer's opener is "Lay down…" (or the key A): focus goes back there.
  openedComposer() {
    this.remember(this.game.els.composer);
  }

  closeComposer() {
    if (!this.game.composer.open) return;
    this.game.composer.close();
    this.game.render();
    this.restoreFocus(this.game.els.composer, this.game.els.actions.laydown.disabled
      ? this.game.els.hand.querySelector('[tabindex="0"]') : this.game.els.actions.laydown);
  }

  // Escape: skipping the computer players' moves comes first, then the topmost panel.
  escape(e) {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    if (document.querySelector("dialog[open]")) return; // a modal handles its own Escape
    if (this.game.skip()) { e.preventDefault(); return; }
    if (!this.scores.el.hidden) this.closeScores();
    else if (!this.settings.el.hidden) this.closeSettings();
    else if (this.game.composer.open) this.closeComposer();
    else return;
    e.preventDefault();
  }

  pointerOutside(e) {
    for (const [panel, close] of [[this.settings, () => this.closeSettings({ focus: false })],
      [this.scores, () => this.closeScores({ focus: false })]]) {
      if (panel.el.hidden || panel.el.contains(e.target) || panel.toggle.contains(e.target)) continue;
      close();
    }
  }
}
