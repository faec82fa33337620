// Every page: the language switcher submits on change; table settings apply everywhere.
import { applySettings, loadSettings } from "../settings.js";

applySettings(loadSettings());
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.submit());
}
// Safari on iOS lights a tapped button's :active (ladder.css, .btn) only where the page
// listens for touches.
document.addEventListener("touchstart", () => {}, { passive: true });
